import Observation
import Recorder
import Synchronization
import Testing
import TraceReader

@testable import SampleApp

/// The wishlist screen: an `@Observable` model that records itself beside the shop's stores.
@Suite struct WishlistTests {
    @Test func savesAndRemovesAndRecordsEachActionWithWhetherItChanged() throws {
        let sink = MemorySink()
        let wishlist = Wishlist(recorder: try Shop.recorder(sink: sink))
        wishlist.save("HAT")
        wishlist.save("MUG")
        wishlist.save("HAT")
        wishlist.remove("HAT")
        #expect(wishlist.skus == ["MUG"])
        let events = try sink.lines.dropFirst().map(TraceText.object)
        #expect(events.map { $0["action"]?.stringValue } == [nil, "save", "save", "save", "remove"])
        #expect(events.map { $0["changed"]?.boolValue } == [nil, true, true, false, true])
        #expect(events.last?["args"]?.objectValue?["sku"]?.stringValue == "HAT")
    }

    @Test func aViewThatReadsItIsToldOfEachChange() {
        let wishlist = Wishlist()
        let told = Mutex(0)
        withObservationTracking {
            _ = wishlist.skus
        } onChange: {
            told.withLock { $0 += 1 }
        }
        wishlist.save("HAT")
        #expect(told.withLock { $0 } == 1)
    }

    @Test func theShopSavesOnlyWhatTheCatalogListsAndRefusesTheRest() throws {
        let shop = Shop()
        #expect(shop.run(.wish(sku: "HAT"))?.contains("the catalog is not loaded yet") == true)
        shop.launch()
        shop.run(.wait(ticks: nil))
        #expect(shop.run(.wish(sku: "HAT")) == nil)
        #expect(shop.run(.wish(sku: "1234")) == "1234 is not in the catalog")
        #expect(shop.run(.unwish(sku: "MUG")) == "MUG is not on the wishlist")
        #expect(shop.snapshot.wishlist.skus == ["HAT"])
        let screen = ScreenRenderer().render(shop.snapshot)
        #expect(screen.contains("Wishlist") && screen.contains("HAT       Baseball cap"))
        #expect(shop.run(.unwish(sku: "HAT")) == nil)
        #expect(ScreenRenderer().render(shop.snapshot).contains("'wish SKU' saves a product for later"))
    }

    @Test func replayReadsTheWishlistBackAtEveryStep() throws {
        let sink = MemorySink()
        let recorder = try Shop.recorder(sink: sink)
        let shop = Shop(recorder: recorder)
        shop.launch()
        shop.run(.wait(ticks: nil))
        shop.run(.wish(sku: "STICKERS"))
        let trace = try TraceFile(bytes: sink.data)
        let last = trace.eventCount
        #expect(try ShopSnapshot(trace, atStep: last).wishlist == WishlistState(skus: ["STICKERS"]))
        #expect(try ShopSnapshot(trace, atStep: last - 1).wishlist == WishlistState())
    }
}
