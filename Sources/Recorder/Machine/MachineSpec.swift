/// A state machine as a trace describes it: named cases, the initial case, and for each case the
/// cases one action may lead to. This is the `machines` entry of a trace header
/// (shared/TRACE_FORMAT.md), independent of any Swift type.
public struct MachineSpec: Hashable, Sendable {
    /// The initial case.
    public var initial: String
    /// Every case, in declaration order.
    public var cases: [String]
    /// For each case, the cases reachable from it, in declaration order.
    public var transitions: [String: [String]]

    /// Creates a machine from its parts. `cases` gives the order in which it is written and drawn.
    public init(initial: String, cases: [String], transitions: [String: [String]]) {
        self.initial = initial
        self.cases = cases
        self.transitions = transitions
    }

    /// The machine that a Swift `StateMachine` type declares.
    public init<Machine: StateMachine>(_ type: Machine.Type) {
        let all = Array(Machine.Case.allCases)
        self.initial = Machine.initialCase.rawValue
        self.cases = all.map(\.rawValue)
        var table: [String: [String]] = [:]
        for source in all {
            table[source.rawValue] = Machine.transitions(from: source).map(\.rawValue)
        }
        self.transitions = table
    }

    /// Whether `name` is a case of this machine.
    public func hasCase(_ name: String) -> Bool {
        transitions[name] != nil
    }

    /// Whether one action may move the machine from `source` to `target`.
    public func allows(from source: String, to target: String) -> Bool {
        transitions[source]?.contains(target) ?? false
    }
}
