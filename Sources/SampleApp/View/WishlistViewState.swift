/// What the wishlist panel shows: a pure function of the wishlist's and the catalog's states.
struct WishlistViewState: Equatable {
    /// One saved product, with the catalog's name and price when it has them.
    struct Row: Equatable {
        var sku: String
        var name: String
        var price: String
    }

    var rows: [Row]

    init(wishlist: WishlistState, catalog: CatalogState) {
        rows = wishlist.skus.map { sku in
            guard let product = catalog.product(sku: sku) else { return Row(sku: sku, name: "", price: "-") }
            return Row(sku: sku, name: product.name, price: product.price.description)
        }
    }
}
