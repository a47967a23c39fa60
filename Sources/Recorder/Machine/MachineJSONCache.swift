/// The JSON of each `StateMachine` type's machine, made the first time a store of that type
/// registers, for its register event (and the registers a rolling sink writes at the top of each
/// new file). Used under the recorder's lock.
struct MachineJSONCache {
    /// A few entries (an app has a few machine types), searched in order.
    private var machines: [(type: ObjectIdentifier, json: [UInt8], declaresRules: Bool)] = []

    /// The machine of `State` as JSON; nil when `State` is not a `StateMachine`.
    mutating func json<State>(of _: State.Type) -> [UInt8]? {
        guard let machineType = State.self as? any StateMachine.Type else { return nil }
        let type = ObjectIdentifier(State.self)
        if let known = machines.first(where: { $0.type == type }) { return known.json }
        let machine = MachineSpec(machineType)
        let json = machine.json
        machines.append((type, json, !MachineRules(machineType, cases: machine.cases).isEmpty))
        return json
    }

    /// Whether `State` is a `StateMachine` that declares rules over time.
    mutating func declaresRules<State>(_ type: State.Type) -> Bool {
        guard json(of: type) != nil else { return false }
        return machines.first { $0.type == ObjectIdentifier(type) }?.declaresRules ?? false
    }
}
