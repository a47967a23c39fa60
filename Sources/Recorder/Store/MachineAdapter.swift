/// Reads the machine case of a state whose type conforms to `StateMachine`, for a store whose
/// `State` is only known to be `Equatable & Encodable`.
struct MachineAdapter<State>: Sendable {
    let spec: MachineSpec
    let caseName: @Sendable (State) -> String

    static func make() -> MachineAdapter? {
        guard let machineType = State.self as? any StateMachine.Type else { return nil }
        return adapter(for: machineType)
    }

    private static func adapter<Machine: StateMachine>(for type: Machine.Type) -> MachineAdapter {
        MachineAdapter(spec: MachineSpec(type)) { state in
            unsafeCast(state, to: Machine.self).currentCase.rawValue
        }
    }
}
