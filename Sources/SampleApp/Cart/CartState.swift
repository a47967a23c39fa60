/// The cart's domain state: a plain value, with no state machine.
///
/// Lines are kept sorted by SKU in an array, not a dictionary, so the state encodes the same way
/// on every run.
struct CartState: Equatable, Codable, Sendable {
    /// One line per SKU, sorted by SKU.
    var lines: [CartLine] = []
    /// The SKUs that the last change could not find in the catalog, as in the cart talk's
    /// "SKU '1234' not found".
    var notFound: [String] = []

    // MARK: Queries

    var isEmpty: Bool { lines.isEmpty }

    /// How many of `sku` the cart holds.
    func quantity(of sku: String) -> Int {
        lines.first { $0.sku == sku }?.quantity ?? 0
    }

    // MARK: Commands

    /// Adds `quantity` of `sku`, up to `CartLine.maximumQuantity` in all; a quantity below 1
    /// changes nothing. When `catalog` is loaded and does not list `sku`, nothing is added and
    /// `sku` is reported instead. When it is not loaded yet, the line is kept and checked once it
    /// loads.
    mutating func add(_ sku: String, quantity: Int, catalog: CatalogState) {
        guard quantity > 0 else { return }
        if let products = catalog.products, !products.contains(where: { $0.sku == sku }) {
            notFound = [sku]
            return
        }
        notFound = []
        if let index = lines.firstIndex(where: { $0.sku == sku }) {
            let sum = lines[index].quantity.addingReportingOverflow(quantity)
            lines[index].quantity =
                sum.overflow ? CartLine.maximumQuantity : min(CartLine.maximumQuantity, sum.partialValue)
        } else {
            let index = lines.firstIndex { $0.sku > sku } ?? lines.endIndex
            lines.insert(CartLine(sku: sku, quantity: min(CartLine.maximumQuantity, quantity)), at: index)
        }
    }

    /// Removes the line of `sku`.
    mutating func remove(_ sku: String) {
        notFound = []
        lines.removeAll { $0.sku == sku }
    }

    /// Keeps only the lines that `products` lists, and reports the others.
    mutating func reconcile(with products: [Product]) {
        let known = Set(products.map(\.sku))
        notFound = lines.map(\.sku).filter { !known.contains($0) }
        lines.removeAll { !known.contains($0.sku) }
    }
}
