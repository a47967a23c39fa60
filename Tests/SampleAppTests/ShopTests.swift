import Recorder
import Testing

@testable import SampleApp

@Suite struct ShopTests {
    /// A shop whose catalog has loaded.
    func loadedShop() throws -> (Shop, MemorySink) {
        let (shop, sink) = try recordedShop()
        shop.launch()
        shop.run(.wait(ticks: nil))
        #expect(shop.catalog.state.products != nil)
        return (shop, sink)
    }

    @Test func opensByLoadingTheCatalogAndRegistersEveryStore() throws {
        let (shop, sink) = try recordedShop()
        shop.launch()
        let objects = try sink.lines.map(TraceText.object)
        #expect(objects.first?["app"]?.stringValue == "SampleApp")
        #expect(objects.first?["machines"]?.objectValue?.keys == ["CatalogStore", "CheckoutStore"])
        #expect(
            objects.dropFirst().prefix(3).map { $0["store"]?.stringValue } == [
                "CatalogStore", "CartStore", "CheckoutStore",
            ])
        #expect(shop.catalog.state == .loading)
    }

    @Test func eachCommandTakesOneTickAndWaitAsManyAsItSays() throws {
        let (shop, _) = try recordedShop()
        shop.launch()
        shop.run(.add(sku: "HAT", quantity: 1))
        #expect(shop.clock.now == 1)
        shop.run(.wait(ticks: 5))
        #expect(shop.clock.now == 6)
        shop.run(.help)
        #expect(shop.clock.now == 6)
    }

    @Test func undoPutsBackWholePreviousCarts() throws {
        let (shop, _) = try loadedShop()
        shop.run(.add(sku: "SHIRT", quantity: 2))
        let twoShirts = shop.cart.state
        shop.run(.add(sku: "HAT", quantity: 1))
        shop.run(.add(sku: "1234", quantity: 1))
        #expect(shop.cart.state.notFound == ["1234"])
        shop.run(.undo)
        #expect(shop.cart.state.notFound.isEmpty)
        #expect(shop.cart.state.quantity(of: "HAT") == 1)
        shop.run(.undo)
        #expect(shop.cart.state == twoShirts)
        shop.run(.undo)
        #expect(shop.cart.state.isEmpty)
        #expect(shop.run(.undo) == "nothing to undo")
    }

    @Test func aCommandThatChangesNothingLeavesNothingToUndo() throws {
        let (shop, _) = try loadedShop()
        shop.run(.add(sku: "1234", quantity: 1))
        shop.run(.add(sku: "1234", quantity: 1))
        shop.run(.undo)
        #expect(shop.cart.state.notFound.isEmpty)
        #expect(shop.run(.undo) == "nothing to undo")
    }

    @Test func undoAfterAFailedPaymentTakesTheCheckoutBackToEditing() throws {
        let (shop, sink) = try loadedShop()
        shop.run(.add(sku: "SHIRT", quantity: 2))
        shop.run(.add(sku: "SHIRT", quantity: 4))
        shop.run(.checkout)
        shop.run(.pay)
        shop.run(.wait(ticks: nil))
        #expect(shop.checkout.state.currentCase == .failed)
        shop.run(.undo)
        #expect(shop.cart.state.quantity(of: "SHIRT") == 2)
        #expect(shop.checkout.state == .editing)

        let objects = try sink.lines.map(TraceText.object)
        let undo = try #require(objects.last { $0["action"]?.stringValue == "undo" })
        let reaction = try #require(objects.last)
        #expect(reaction["action"]?.stringValue == "cartDidChange")
        #expect(reaction["cause"]?.intValue == undo["seq"]?.intValue)
    }

    @Test func refusesWhatCannotBeDoneYetWithoutRecordingIt() throws {
        let (shop, sink) = try recordedShop()
        shop.launch()
        let lines = sink.lines.count
        #expect(shop.run(.checkout)?.contains("catalog is not loaded") == true)
        #expect(shop.run(.pay)?.contains("checkout") == true)
        #expect(shop.run(.remove(sku: "HAT")) == "HAT is not in the cart")
        shop.run(.wait(ticks: nil))
        #expect(shop.run(.checkout)?.contains("cart is empty") == true)
        #expect(sink.lines.count == lines + 2)  // only the catalog's didLoad and the cart's reaction
    }

    @Test func theCartIsLockedWhileAPaymentIsUnderWay() throws {
        let (shop, _) = try loadedShop()
        shop.run(.add(sku: "MUG", quantity: 1))
        shop.run(.checkout)
        #expect(shop.run(.checkout) == "the total is already calculated: type 'pay'")
        shop.checkout.pay()
        #expect(shop.checkout.state.currentCase == .paying)
        #expect(shop.run(.add(sku: "HAT", quantity: 1))?.contains("payment is under way") == true)
        #expect(shop.cart.state.quantity(of: "HAT") == 0)
        #expect(shop.checkout.state.currentCase == .paid)  // the refused command's tick let the answer arrive
        #expect(shop.run(.pay) == "this order is already paid")
    }

    @Test func aRestoredShopKeepsItsRestoredStates() throws {
        let snapshot = ShopSnapshot(
            catalog: .loaded(products: FakeCatalogService.standardProducts),
            cart: CartState(lines: [CartLine(sku: "1234", quantity: 1)], notFound: []),
            checkout: .ready(
                totals: Totals(itemCount: 1, subtotal: Money(cents: 1), tax: .zero, total: Money(cents: 1))))
        let shop = Shop(restoring: snapshot)
        #expect(shop.snapshot == snapshot)
    }
}
