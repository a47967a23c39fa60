/// What the checkout panel shows: a pure function of the checkout's domain state.
struct CheckoutViewState: Equatable {
    /// A label and its amount, such as "Tax 5%" and "$2.63".
    struct Line: Equatable {
        var label: String
        var amount: String
    }

    /// Subtotal, tax and total; empty before a total is calculated.
    var lines: [Line]

    init(_ checkout: CheckoutState) {
        guard let totals = checkout.totals else {
            lines = []
            return
        }
        lines = [
            Line(
                label: "Subtotal (\(totals.itemCount) \(totals.itemCount == 1 ? "item" : "items"))",
                amount: totals.subtotal.description),
            Line(label: "Tax \(Totals.taxPercent)%", amount: totals.tax.description),
            Line(label: "Total", amount: totals.total.description),
        ]
    }
}
