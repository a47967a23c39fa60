import Testing

@testable import SampleApp

@Suite struct CartStateTests {
    let loaded = CatalogState.loaded(products: FakeCatalogService.standardProducts)

    @Test func keepsOneLinePerSKUSortedBySKU() {
        var cart = CartState()
        cart.add("SHIRT", quantity: 2, catalog: loaded)
        cart.add("HAT", quantity: 1, catalog: loaded)
        cart.add("MUG", quantity: 1, catalog: loaded)
        cart.add("SHIRT", quantity: 3, catalog: loaded)
        #expect(cart.lines.map(\.sku) == ["HAT", "MUG", "SHIRT"])
        #expect(cart.quantity(of: "SHIRT") == 5)
    }

    @Test func capsALineAtTheMaximumQuantity() {
        var cart = CartState()
        cart.add("MUG", quantity: 90, catalog: loaded)
        cart.add("MUG", quantity: 90, catalog: loaded)
        #expect(cart.quantity(of: "MUG") == CartLine.maximumQuantity)
        cart.add("HAT", quantity: .max, catalog: loaded)
        cart.add("HAT", quantity: .max, catalog: loaded)
        #expect(cart.quantity(of: "HAT") == CartLine.maximumQuantity)
    }

    @Test func reportsASKUTheLoadedCatalogDoesNotList() {
        var cart = CartState()
        cart.add("1234", quantity: 1, catalog: loaded)
        #expect(cart.isEmpty)
        #expect(cart.notFound == ["1234"])
        cart.add("HAT", quantity: 1, catalog: loaded)
        #expect(cart.notFound.isEmpty)
    }

    @Test func acceptsAnySKUBeforeTheCatalogLoadsThenReconciles() {
        var cart = CartState()
        cart.add("1234", quantity: 1, catalog: .loading)
        cart.add("SHIRT", quantity: 1, catalog: .failed(message: "offline"))
        #expect(cart.lines.map(\.sku) == ["1234", "SHIRT"])
        cart.reconcile(with: FakeCatalogService.standardProducts)
        #expect(cart.lines.map(\.sku) == ["SHIRT"])
        #expect(cart.notFound == ["1234"])
    }

    @Test func addingNothingChangesNothing() {
        var cart = CartState(lines: [CartLine(sku: "HAT", quantity: 1)], notFound: ["X"])
        let before = cart
        cart.add("SHIRT", quantity: 0, catalog: loaded)
        cart.add("HAT", quantity: -5, catalog: loaded)
        #expect(cart == before)
    }

    @Test func removeTakesTheWholeLine() {
        var cart = CartState()
        cart.add("SHIRT", quantity: 4, catalog: loaded)
        cart.remove("SHIRT")
        #expect(cart.isEmpty)
    }
}
