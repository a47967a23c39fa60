/// What an order costs: subtotal, tax and total, computed from the cart and the catalog's prices.
struct Totals: Hashable, Codable, Sendable {
    /// The sales tax, in percent of the subtotal.
    static let taxPercent = 5

    /// How many items the order holds (the sum of the quantities).
    var itemCount: Int
    var subtotal: Money
    var tax: Money
    var total: Money

    init(itemCount: Int, subtotal: Money, tax: Money, total: Money) {
        self.itemCount = itemCount
        self.subtotal = subtotal
        self.tax = tax
        self.total = total
    }

    /// Prices `lines` with `catalog`. A line whose SKU the catalog does not list is left out: it
    /// has no price.
    init(lines: [CartLine], catalog: [Product]) {
        var count = 0
        var subtotal = Money.zero
        for line in lines {
            guard let product = catalog.first(where: { $0.sku == line.sku }) else { continue }
            count = count.addingReportingOverflow(line.quantity).overflow ? .max : count + line.quantity
            subtotal = subtotal + product.price * line.quantity
        }
        let tax = subtotal.percentage(Self.taxPercent)
        self.init(itemCount: count, subtotal: subtotal, tax: tax, total: subtotal + tax)
    }
}
