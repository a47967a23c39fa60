/// A product the shop sells, as the catalog service lists it.
struct Product: Hashable, Codable, Sendable {
    /// The stock-keeping unit that identifies it, such as `SHIRT`.
    var sku: String
    /// The name shown to the shopper.
    var name: String
    /// The price of one.
    var price: Money
}
