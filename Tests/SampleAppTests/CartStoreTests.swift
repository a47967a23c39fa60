import Recorder
import Testing

@testable import SampleApp

@Suite struct CartStoreTests {
    @Test func recordsEachActionWithItsArguments() throws {
        let sink = MemorySink()
        let cart = CartStore(recorder: try Shop.recorder(sink: sink))
        cart.add("SHIRT", quantity: 2, catalog: .idle)
        cart.remove("SHIRT")
        let events = try TraceText.transitions(sink.lines.map(TraceText.object))
        #expect(events.map { $0["action"]?.stringValue } == ["add", "remove"])
        #expect(events[0]["args"]?["sku"]?.stringValue == "SHIRT")
        #expect(events[0]["args"]?["quantity"]?.intValue == 2)
        #expect(events.allSatisfy { $0["from"] == nil && $0["store"]?.stringValue == "CartStore" })
    }

    @Test func reactsToTheCatalogWithTheCatalogsEventAsCause() throws {
        let (shop, sink) = try recordedShop(ShopConfiguration(seed: 4))  // the first load fails
        shop.launch()
        shop.run(.add(sku: "1234", quantity: 1))
        shop.run(.wait(ticks: nil))
        #expect(shop.catalog.state.currentCase == .failed)
        #expect(shop.cart.state.quantity(of: "1234") == 1)

        shop.run(.refresh)
        shop.run(.wait(ticks: nil))
        #expect(shop.cart.state.isEmpty)
        #expect(shop.cart.state.notFound == ["1234"])

        let objects = try sink.lines.map(TraceText.object)
        let loaded = try #require(objects.last { $0["action"]?.stringValue == "didLoad" })
        let reaction = try #require(objects.last { $0["action"]?.stringValue == "catalogDidLoad" })
        #expect(reaction["cause"]?.intValue == loaded["seq"]?.intValue)
        #expect(reaction["seq"]?.intValue == (loaded["seq"]?.intValue ?? 0) + 1)
        #expect(reaction["changed"]?.boolValue == true)
    }
}
