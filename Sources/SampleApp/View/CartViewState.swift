/// What the cart panel shows: a pure function of the cart's and the catalog's domain states.
struct CartViewState: Equatable {
    /// One line of the cart, with the catalog's name and price when it has them.
    struct Row: Equatable {
        var quantity: Int
        var sku: String
        var name: String
        var amount: String
    }

    var rows: [Row]
    /// The cart talk's "SKU '1234' not found", when the last change found unknown SKUs.
    var notice: String?

    var isEmpty: Bool { rows.isEmpty }

    init(cart: CartState, catalog: CatalogState) {
        rows = cart.lines.map { line in
            if let product = catalog.product(sku: line.sku) {
                return Row(
                    quantity: line.quantity, sku: line.sku, name: product.name,
                    amount: (product.price * line.quantity).description)
            }
            let name = catalog.products == nil ? "(checked when the catalog loads)" : "(not in the catalog)"
            return Row(quantity: line.quantity, sku: line.sku, name: name, amount: "-")
        }
        switch cart.notFound.count {
        case 0: notice = nil
        case 1: notice = "SKU '\(cart.notFound[0])' not found"
        default: notice = "SKUs " + cart.notFound.map { "'\($0)'" }.joined(separator: ", ") + " not found"
        }
    }
}
