/// The JSON of each `StateMachine` type's machine, made the first time a store of that type
/// registers, for its register event (and the registers a rolling sink writes at the top of each
/// new file). Used under the recorder's lock.
struct MachineJSONCache {
    /// A few entries (an app has a few machine types), searched in order.
    private var machines: [(type: ObjectIdentifier, json: [UInt8])] = []

    /// The machine of `State` as JSON; nil when `State` is not a `StateMachine`.
    mutating func json<State>(of _: State.Type) -> [UInt8]? {
        guard let machineType = State.self as? any StateMachine.Type else { return nil }
        let type = ObjectIdentifier(State.self)
        if let known = machines.first(where: { $0.type == type }) { return known.json }
        let json = MachineSpec(machineType).json
        machines.append((type, json))
        return json
    }
}
