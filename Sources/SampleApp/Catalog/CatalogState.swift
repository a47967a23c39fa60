import Recorder

/// The catalog's domain state: a state machine, as in the state-container talk.
///
/// ```
/// idle → loading → loaded(products) | failed(message)
///        loading ← loaded, failed        (refresh, retry)
/// ```
///
/// One enum makes the cases mutually exclusive: the catalog cannot be loading and failed at once.
enum CatalogState: StateMachine, Equatable, Codable, Sendable {
    case idle
    case loading
    case loaded(products: [Product])
    case failed(message: String)

    /// The machine's cases, as the trace names them.
    enum Case: String, CaseIterable {
        case idle, loading, loaded, failed
    }

    static let initialCase = Case.idle

    var currentCase: Case {
        switch self {
        case .idle: .idle
        case .loading: .loading
        case .loaded: .loaded
        case .failed: .failed
        }
    }

    static func transitions(from source: Case) -> [Case] {
        switch source {
        case .idle: [.loading]
        case .loading: [.loaded, .failed]
        case .loaded, .failed: [.loading]
        }
    }

    /// A load resolves (loaded or failed) within 3 of the catalog's transitions: a refresh while
    /// loading keeps it `loading`, and a third one in a row is `overdue`.
    static var deadlines: [Case: Deadline] { [.loading: .within(transitions: 3)] }

    // MARK: Queries

    /// The products, once loaded.
    var products: [Product]? {
        guard case .loaded(let products) = self else { return nil }
        return products
    }

    /// The product with `sku`, if the catalog is loaded and lists it.
    func product(sku: String) -> Product? {
        products?.first { $0.sku == sku }
    }

    // MARK: Commands

    /// Starts a load. The talk's version traps when already `loading` ("Wrong state
    /// transition"); here the store decides: by default it records `loading → loading` and goes
    /// on, and `inspector validate` reports it.
    mutating func toLoading() {
        self = .loading
    }

    mutating func toLoaded(_ products: [Product]) {
        self = .loaded(products: products)
    }

    mutating func toFailed(_ message: String) {
        self = .failed(message: message)
    }
}
