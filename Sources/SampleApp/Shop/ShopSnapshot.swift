/// The app's whole state: the state of each store. The screen is a function of it alone, which
/// is what lets `replay` draw any recorded step.
struct ShopSnapshot: Equatable, Sendable {
    var catalog: CatalogState = .idle
    var cart = CartState()
    var checkout: CheckoutState = .editing
    var wishlist = WishlistState()
}
