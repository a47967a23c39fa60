/// What the catalog panel shows: a pure function of the catalog's domain state, like the
/// state-container talk's `ProcessListViewState(domainState:)`.
enum CatalogViewState: Equatable {
    case loading
    case loaded(rows: [Row])
    case failed(message: String)

    /// One product as listed.
    struct Row: Equatable {
        var sku: String
        var name: String
        var price: String
    }

    init(_ catalog: CatalogState) {
        switch catalog {
        case .idle, .loading:
            self = .loading
        case .loaded(let products):
            self = .loaded(rows: products.map { Row(sku: $0.sku, name: $0.name, price: $0.price.description) })
        case .failed(let message):
            self = .failed(message: message)
        }
    }
}
