/// One line of the cart: a SKU and how many of it.
struct CartLine: Hashable, Codable, Sendable {
    /// The most of one SKU a cart holds.
    static let maximumQuantity = 99

    var sku: String
    var quantity: Int
}
