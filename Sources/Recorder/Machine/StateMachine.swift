/// A state that is a state machine: its values fall into named cases, and an action may move it
/// only along the transitions its table allows.
///
/// Declare the cases as a `String`-backed enum and the table as a `switch` over it, so the
/// compiler keeps both exhaustive: add a case and the table will not compile until it says where
/// the new case may go.
///
/// ```swift
/// enum CatalogState: StateMachine, Equatable, Codable {
///     case idle, loading, loaded([Product]), failed(String)
///
///     enum Case: String, CaseIterable { case idle, loading, loaded, failed }
///     static let initialCase = Case.idle
///     var currentCase: Case {
///         switch self {
///         case .idle: .idle
///         case .loading: .loading
///         case .loaded: .loaded
///         case .failed: .failed
///         }
///     }
///     static func transitions(from source: Case) -> [Case] {
///         switch source {
///         case .idle: [.loading]
///         case .loading: [.loaded, .failed]
///         case .loaded, .failed: [.loading]
///         }
///     }
/// }
/// ```
///
/// The recorder writes the table into the trace header (`machines`), so `inspector validate` can
/// check a recorded run without the app's Swift types. A pair that `transitions(from:)` does not
/// list is illegal, and that includes staying in the same case (`loading → loading`) unless the
/// case lists itself.
///
/// A machine may also declare rules over time, checked over a whole run: how soon a store must
/// leave a case (``deadlines``) and the cases a run must not end in (``mustNotEndIn``). Both
/// default to none. The recorder writes them in the header's `rules` for the stores pinned with
/// `TraceRecorder(machines:)` (a rule names its store, and the header is written before any
/// store registers); see <doc:DeclaringStateMachines>.
public protocol StateMachine: SendableMetatype {
    /// The machine's cases. Their raw values are the names written to the trace.
    associatedtype Case: CaseIterable, Hashable, RawRepresentable, Sendable where Case.RawValue == String

    /// The case this value is in.
    var currentCase: Case { get }

    /// The case a new store of this state starts in.
    static var initialCase: Case { get }

    /// The cases reachable from `source` by one action.
    static func transitions(from source: Case) -> [Case]

    /// How soon a store must leave each of these cases once it enters it; `inspector validate`
    /// reports `overdue` otherwise. None by default.
    static var deadlines: [Case: Deadline] { get }

    /// The cases a run must not end in (a load or a payment left under way); `inspector validate`
    /// warns `unresolved` otherwise. None by default.
    static var mustNotEndIn: Set<Case> { get }
}

extension StateMachine {
    /// No deadlines.
    public static var deadlines: [Case: Deadline] { Dictionary() }

    /// No case is forbidden at the end.
    public static var mustNotEndIn: Set<Case> { Set() }
}
