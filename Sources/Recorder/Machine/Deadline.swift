/// How soon a store must leave a case once it enters it: within a number of its transitions,
/// within a number of seconds, or both (shared/TRACE_FORMAT.md, "Rules over time", `within`).
///
/// A state machine declares its deadlines by case (``StateMachine/deadlines``):
///
/// ```swift
/// static var deadlines: [Case: Deadline] { [.loading: .within(transitions: 3)] }
/// ```
///
/// `inspector validate` reports `overdue` at the store's `transitions`-th transition after
/// entering the case that still leaves it there, or at the first event more than `seconds` after
/// it entered.
public struct Deadline: Sendable {
    /// The store must leave the case before this many of its transitions after entering it have
    /// kept it there (at least 1); nil for no limit on transitions.
    public let transitions: Int?
    /// The store must leave the case within this many seconds of entering it; nil for no limit
    /// on time.
    public let seconds: Double?

    private init(transitions: Int?, seconds: Double?) {
        self.transitions = transitions
        self.seconds = seconds
    }

    /// Leave the case within `transitions` of the store's transitions (at least 1).
    public static func within(transitions: Int) -> Deadline {
        Deadline(transitions: transitions, seconds: nil)
    }

    /// Leave the case within `seconds` seconds (a finite number).
    public static func within(seconds: Double) -> Deadline {
        Deadline(transitions: nil, seconds: seconds)
    }

    /// Leave the case within `transitions` of the store's transitions and within `seconds`
    /// seconds, whichever comes first.
    public static func within(transitions: Int, seconds: Double) -> Deadline {
        Deadline(transitions: transitions, seconds: seconds)
    }
}
