import Recorder
import Testing

@testable import SampleApp

@Suite struct CheckoutStoreTests {
    let products = FakeCatalogService.standardProducts

    func makeStore(limit: Money = Money(cents: 100_00)) throws -> (CheckoutStore, SimulatedClock, MemorySink) {
        let sink = MemorySink()
        let clock = SimulatedClock()
        let store = CheckoutStore(
            payments: FakePaymentService(limit: limit, clock: clock), recorder: try Shop.recorder(sink: sink))
        return (store, clock, sink)
    }

    func cart(_ lines: CartLine...) -> CartState {
        CartState(lines: lines, notFound: [])
    }

    @Test func checkoutCalculatesThenIsReady() throws {
        let (store, _, sink) = try makeStore()
        store.checkout(cart(CartLine(sku: "SHIRT", quantity: 1)), catalog: products)
        #expect(
            store.state
                == .ready(
                    totals: Totals(
                        itemCount: 1, subtotal: Money(cents: 20_00), tax: Money(cents: 1_00), total: Money(cents: 21_00)
                    )))
        let events = try TraceText.transitions(sink.lines.map(TraceText.object))
        #expect(
            events.map { "\($0["from"]?.stringValue ?? "") → \($0["to"]?.stringValue ?? "")" } == [
                "editing → calculating", "calculating → ready",
            ])
    }

    @Test func payingWithinTheLimitEndsPaid() throws {
        let (store, clock, _) = try makeStore()
        store.checkout(cart(CartLine(sku: "MUG", quantity: 2)), catalog: products)
        store.pay()
        #expect(store.state.currentCase == .paying)
        clock.advanceUntilIdle()
        #expect(store.state.currentCase == .paid)
        #expect(store.state.totals?.total == Money(cents: 26_25))
    }

    @Test func aChargeOverTheLimitFailsWithTheReasonAndCanBeRetried() throws {
        let (store, clock, _) = try makeStore(limit: Money(cents: 10_00))
        store.checkout(cart(CartLine(sku: "SHIRT", quantity: 1)), catalog: products)
        store.pay()
        clock.advanceUntilIdle()
        guard case .failed(_, let reason) = store.state else {
            Issue.record("expected failed, got \(store.state)")
            return
        }
        #expect(reason == "card declined: $21.00 is over the card's $10.00 limit")
        store.pay()
        #expect(store.state.currentCase == .paying)
    }

    @Test func payDoesNothingBeforeThereIsATotal() throws {
        let (store, _, sink) = try makeStore()
        let lines = sink.lines.count
        store.pay()
        #expect(store.state == .editing)
        #expect(sink.lines.count == lines)
    }

    @Test func aCartChangeDropsTheTotalButNotAPaymentUnderWay() throws {
        let (store, _, _) = try makeStore()
        store.cartDidChange()
        #expect(store.state == .editing)
        store.checkout(cart(CartLine(sku: "HAT", quantity: 1)), catalog: products)
        store.cartDidChange()
        #expect(store.state == .editing)
        store.checkout(cart(CartLine(sku: "HAT", quantity: 1)), catalog: products)
        store.pay()
        store.cartDidChange()
        #expect(store.state.currentCase == .paying)
    }

    @Test func theMachineListsEveryCaseAndItsWayOut() {
        let spec = MachineSpec(CheckoutState.self)
        #expect(spec.cases == ["editing", "calculating", "ready", "paying", "paid", "failed"])
        #expect(spec.allows(from: "paying", to: "paid") && spec.allows(from: "paying", to: "failed"))
        #expect(spec.allows(from: "failed", to: "paying"))
        #expect(!spec.allows(from: "paying", to: "paying"))
        #expect(!spec.allows(from: "editing", to: "ready"))
    }
}
