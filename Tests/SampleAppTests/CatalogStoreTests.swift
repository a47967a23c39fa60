import Recorder
import Testing

@testable import SampleApp

@Suite struct CatalogStoreTests {
    func makeStore(failurePercent: Int, seed: UInt64 = 2) throws -> (CatalogStore, SimulatedClock, MemorySink) {
        let sink = MemorySink()
        let recorder = try Shop.recorder(sink: sink)
        let clock = SimulatedClock()
        let service = FakeCatalogService(clock: clock, seed: seed, failurePercent: failurePercent)
        return (CatalogStore(service: service, recorder: recorder), clock, sink)
    }

    @Test func refreshLoadsThroughTheService() throws {
        let (store, clock, sink) = try makeStore(failurePercent: 0)
        #expect(store.state == .idle)
        store.refresh()
        #expect(store.state == .loading)
        clock.advanceUntilIdle()
        #expect(store.state == .loaded(products: FakeCatalogService.standardProducts))

        let events = try TraceText.transitions(sink.lines.map(TraceText.object))
        #expect(events.map { $0["action"]?.stringValue } == ["toLoading", "didLoad"])
        #expect(events.map { $0["from"]?.stringValue } == ["idle", "loading"])
        #expect(events.map { $0["to"]?.stringValue } == ["loading", "loaded"])
        #expect(events[1]["args"]?["products"]?.intValue == FakeCatalogService.standardProducts.count)
    }

    @Test func aFailedLoadKeepsTheMessageAndCanBeRetried() throws {
        let (store, clock, _) = try makeStore(failurePercent: 100)
        store.refresh()
        clock.advanceUntilIdle()
        #expect(store.state == .failed(message: "the network is unavailable"))
        store.refresh()
        #expect(store.state == .loading)
    }

    @Test func aRefreshWhileLoadingIsRecordedAsLoadingToLoading() throws {
        let (store, clock, sink) = try makeStore(failurePercent: 0)
        store.refresh()
        store.refresh()
        let second = try TraceText.object(try #require(sink.lines.last))
        #expect(second["action"]?.stringValue == "toLoading")
        #expect(second["from"]?.stringValue == "loading")
        #expect(second["to"]?.stringValue == "loading")
        #expect(second["changed"]?.boolValue == false)
        #expect(store.state == .loading)
        #expect(store.policy == .record)

        // Both answers come; the second finds the catalog loaded and is dropped.
        clock.advanceUntilIdle()
        let actions = try TraceText.transitions(sink.lines.map(TraceText.object)).compactMap {
            $0["action"]?.stringValue
        }
        #expect(actions == ["toLoading", "toLoading", "didLoad"])
        #expect(store.state.products != nil)
    }

    @Test func theMachineAllowsRefreshAndRetryButNotLoadingTwice() {
        let spec = MachineSpec(CatalogState.self)
        #expect(spec.initial == "idle")
        #expect(spec.allows(from: "loaded", to: "loading"))
        #expect(spec.allows(from: "failed", to: "loading"))
        #expect(!spec.allows(from: "loading", to: "loading"))
        #expect(!spec.allows(from: "idle", to: "loaded"))
    }
}
