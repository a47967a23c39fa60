/// What the wishlist records and what `replay` reads back: the saved SKUs, in the order they
/// were saved. The wishlist model's properties as one value.
struct WishlistState: Equatable, Codable, Sendable {
    var skus: [String] = []
}
