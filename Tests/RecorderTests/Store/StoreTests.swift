import Foundation
import Recorder
@_spi(RewindInternals) import RewindSupport
import Synchronization
import TestSupport
import Testing

@Suite struct StoreTests {
    @Test func actionsChangeStateAndNotifySubscribers() {
        let store = Store(initialState: Counter())
        let seen = Mutex<[Int]>([])
        let token = store.subscribe { state in seen.withLock { $0.append(state.value) } }
        store.send { $0.value += 1 }
        store.send { $0.value += 2 }
        #expect(store.state.value == 3)
        #expect(seen.withLock { $0 } == [0, 1, 3])
        _ = token
    }

    /// The README's "Watching a store, and iOS 16": the handler is called with the current state
    /// before `subscribe` returns, then on the thread that sent each action.
    @Test func subscribeCallsAtOnceThenOnTheSendingThread() {
        let store = Store(initialState: Counter(value: 7))
        let queue = DispatchQueue(label: "sender")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        let seen = Lock<[(value: Int, onSender: Bool)]>([])  // the handler's calls
        let token = store.subscribe { state in
            seen.withLock { $0.append((state.value, DispatchQueue.getSpecific(key: key) == 1)) }
        }
        #expect(seen.withLock { $0.map(\.value) } == [7])  // before subscribe returned
        queue.sync { store.send { $0.value = 8 } }
        #expect(seen.withLock { $0.map(\.value) } == [7, 8])
        #expect(seen.withLock { $0.map(\.onSender) } == [false, true])
        _ = token
    }

    @Test func anActionThatChangesNothingIsNotForwarded() {
        let store = Store(initialState: Counter())
        let calls = Mutex(0)
        let token = store.subscribe { _ in calls.withLock { $0 += 1 } }
        store.send { $0.value = 0 }
        store.send { $0.value = 5 }
        store.send { $0.value = 5 }
        #expect(calls.withLock { $0 } == 2)  // the current state on subscribing, then 5 once
        _ = token
    }

    @Test func releasingTheTokenEndsTheSubscription() {
        let store = Store(initialState: Counter())
        let calls = Mutex(0)
        var token: Subscription? = store.subscribe { _ in calls.withLock { $0 += 1 } }
        store.send { $0.value = 1 }
        #expect(token != nil)
        token = nil
        store.send { $0.value = 2 }
        #expect(calls.withLock { $0 } == 2)
    }

    @Test func cancelEndsTheSubscriptionAtOnce() {
        let store = Store(initialState: Counter())
        let calls = Mutex(0)
        let token = store.subscribe { _ in calls.withLock { $0 += 1 } }
        token.cancel()
        token.cancel()
        store.send { $0.value = 1 }
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func namesComeFromTheSubclassOrTheStateType() throws {
        #expect(CatalogStore(recorder: nil).name == "CatalogStore")
        #expect(Store(initialState: Counter()).name == "Counter")
        #expect(Store(initialState: Counter(), name: "Clicks").name == "Clicks")
    }

    @Test func aSubscriberCanSendToTheSameStore() {
        let store = Store(initialState: Counter())
        let token = store.subscribe { state in
            if state.value == 1 { store.send("bump") { $0.value = 2 } }
        }
        store.send { $0.value = 1 }
        #expect(store.state.value == 2)
        _ = token
    }

    @Test func anActionSentFromASubscriberRecordsItsCause() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink, machines: ["CatalogStore": CatalogState.self])
        let catalog = CatalogStore(recorder: recorder)
        let counter = Store(initialState: Counter(), name: "Loads", recorder: recorder)
        let token = catalog.subscribe { state in
            if case .loading = state { counter.send("countLoad") { $0.value += 1 } }
        }
        catalog.toLoading()
        counter.send("manual") { $0.value += 10 }
        let events = try jsonObjects(Array(sink.lines.dropFirst()))
        let load = try #require(events.first { $0["action"] as? String == "toLoading" })
        let reaction = try #require(events.first { $0["action"] as? String == "countLoad" })
        let manual = try #require(events.first { $0["action"] as? String == "manual" })
        #expect(reaction["cause"] as? Int == load["seq"] as? Int)
        #expect(manual["cause"] == nil)
        #expect(load["cause"] == nil)
        _ = token
    }

    @Test func concurrentActionsOnOneStoreAreNotLost() async {
        let store = Store(initialState: Counter())
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<1_000 { store.send { $0.value += 1 } } }
            }
        }
        #expect(store.state.value == 8_000)
    }
}
