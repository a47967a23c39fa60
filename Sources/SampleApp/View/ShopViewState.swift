/// The whole screen's content: a pure function of the app's domain states. `UI(viewState(domainState))`.
struct ShopViewState: Equatable {
    /// How the status line reads.
    enum Tone: Equatable {
        case hint, busy, problem, success
    }

    var catalog: CatalogViewState
    var cart: CartViewState
    var checkout: CheckoutViewState
    var wishlist: WishlistViewState
    /// One sentence: what is happening, and what to type next.
    var status: String
    var tone: Tone

    init(_ snapshot: ShopSnapshot) {
        catalog = CatalogViewState(snapshot.catalog)
        cart = CartViewState(cart: snapshot.cart, catalog: snapshot.catalog)
        checkout = CheckoutViewState(snapshot.checkout)
        wishlist = WishlistViewState(wishlist: snapshot.wishlist, catalog: snapshot.catalog)
        (status, tone) = Self.status(snapshot)
    }

    /// The checkout's progress comes first, then the catalog's, then a hint.
    private static func status(_ snapshot: ShopSnapshot) -> (String, Tone) {
        switch snapshot.checkout {
        case .calculating:
            return ("Calculating the total...", .busy)
        case .ready(let totals):
            return ("Total \(totals.total). Type 'pay' to pay.", .hint)
        case .paying(let totals):
            return ("Paying \(totals.total)...", .busy)
        case .paid(let totals):
            return ("Paid \(totals.total). Thank you!", .success)
        case .failed(_, let reason):
            return ("Payment failed: \(reason). Type 'pay' to retry, or change the cart.", .problem)
        case .editing:
            break
        }
        switch snapshot.catalog {
        case .idle, .loading:
            return ("Loading the catalog...", .busy)
        case .failed(let message):
            return ("Could not load the catalog: \(message). Type 'refresh' to retry.", .problem)
        case .loaded:
            return snapshot.cart.isEmpty
                ? ("Add products with 'add SKU [QTY]'.", .hint)
                : ("Type 'checkout' for the total.", .hint)
        }
    }
}
