import Recorder

/// The checkout's domain state, a state machine:
///
/// ```
/// editing → calculating → ready(totals) → paying → paid | failed
///           editing ← ready, paid, failed        (the cart changed)
///                     paying ← failed            (retry)
/// ```
enum CheckoutState: StateMachine, Equatable, Codable, Sendable {
    case editing
    case calculating
    case ready(totals: Totals)
    case paying(totals: Totals)
    case paid(totals: Totals)
    case failed(totals: Totals, reason: String)

    /// The machine's cases, as the trace names them.
    enum Case: String, CaseIterable {
        case editing, calculating, ready, paying, paid, failed
    }

    static let initialCase = Case.editing

    var currentCase: Case {
        switch self {
        case .editing: .editing
        case .calculating: .calculating
        case .ready: .ready
        case .paying: .paying
        case .paid: .paid
        case .failed: .failed
        }
    }

    static func transitions(from source: Case) -> [Case] {
        switch source {
        case .editing: [.calculating]
        case .calculating: [.ready]
        case .ready: [.paying, .editing]
        case .paying: [.paid, .failed]
        case .paid: [.editing]
        case .failed: [.paying, .editing]
        }
    }

    /// A run never ends with a total being calculated or a payment under way: the app quits only
    /// once the payment service has answered.
    static var mustNotEndIn: Set<Case> { [.calculating, .paying] }

    // MARK: Queries

    /// The order's totals, once calculated.
    var totals: Totals? {
        switch self {
        case .editing, .calculating: nil
        case .ready(let totals), .paying(let totals), .paid(let totals), .failed(let totals, _): totals
        }
    }

    // MARK: Commands

    mutating func toCalculating() {
        self = .calculating
    }

    mutating func toReady(_ totals: Totals) {
        self = .ready(totals: totals)
    }

    /// Starts paying the calculated total; does nothing before there is one.
    mutating func toPaying() {
        guard let totals else { return }
        self = .paying(totals: totals)
    }

    mutating func toPaid() {
        guard let totals else { return }
        self = .paid(totals: totals)
    }

    mutating func toFailed(_ reason: String) {
        guard let totals else { return }
        self = .failed(totals: totals, reason: reason)
    }

    mutating func toEditing() {
        self = .editing
    }
}
