import Testing

@testable import SampleApp

@Suite struct ViewStateTests {
    let products = FakeCatalogService.standardProducts

    @Test func anIdleCatalogShowsAsLoadingAsInTheTalk() {
        #expect(CatalogViewState(.idle) == .loading)
        #expect(CatalogViewState(.loading) == .loading)
        #expect(CatalogViewState(.failed(message: "offline")) == .failed(message: "offline"))
        guard case .loaded(let rows) = CatalogViewState(.loaded(products: products)) else {
            Issue.record("expected loaded rows")
            return
        }
        #expect(rows.map(\.sku) == products.map(\.sku))
        #expect(rows.first?.price == "$15.00")
    }

    @Test func cartRowsTakeNamesAndAmountsFromTheCatalog() {
        let cart = CartState(
            lines: [CartLine(sku: "1234", quantity: 2), CartLine(sku: "SHIRT", quantity: 3)], notFound: ["X", "Y"])
        let loaded = CartViewState(cart: cart, catalog: .loaded(products: products))
        #expect(loaded.rows.map(\.name) == ["(not in the catalog)", "T-shirt"])
        #expect(loaded.rows.map(\.amount) == ["-", "$60.00"])
        #expect(loaded.notice == "SKUs 'X', 'Y' not found")
        let loading = CartViewState(cart: cart, catalog: .loading)
        #expect(loading.rows.allSatisfy { $0.name == "(checked when the catalog loads)" })
    }

    @Test(arguments: [
        (ShopSnapshot(), "Loading the catalog..."),
        (
            ShopSnapshot(catalog: .failed(message: "offline")),
            "Could not load the catalog: offline. Type 'refresh' to retry."
        ),
        (ShopSnapshot(catalog: .loaded(products: [])), "Add products with 'add SKU [QTY]'."),
        (
            ShopSnapshot(
                catalog: .loading,
                checkout: .paid(totals: Totals(itemCount: 1, subtotal: .zero, tax: .zero, total: Money(cents: 2100)))),
            "Paid $21.00. Thank you!"
        ),
        (
            ShopSnapshot(
                checkout: .failed(
                    totals: Totals(itemCount: 1, subtotal: .zero, tax: .zero, total: .zero), reason: "declined")),
            "Payment failed: declined. Type 'pay' to retry, or change the cart."
        ),
    ])
    func theStatusLineSaysWhatToDoNext(snapshot: ShopSnapshot, status: String) {
        #expect(ShopViewState(snapshot).status == status)
    }

    @Test func checkoutLinesShowSubtotalTaxAndTotal() {
        let totals = Totals(lines: [CartLine(sku: "MUG", quantity: 1)], catalog: products)
        #expect(CheckoutViewState(.editing).lines.isEmpty)
        #expect(
            CheckoutViewState(.ready(totals: totals)).lines == [
                CheckoutViewState.Line(label: "Subtotal (1 item)", amount: "$12.50"),
                CheckoutViewState.Line(label: "Tax 5%", amount: "$0.63"),
                CheckoutViewState.Line(label: "Total", amount: "$13.13"),
            ])
    }
}
