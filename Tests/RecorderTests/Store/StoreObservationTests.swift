import Dispatch
import Foundation
import Observation
import Recorder
import Synchronization
import TestSupport
import Testing

/// A store is `Observable`: code that reads `state` under observation tracking (as a SwiftUI
/// `body` does) is told of each action that changes it, and of no other.
@Suite struct StoreObservationTests {
    /// Counts the changes told to one tracking of `store.state` at a time: each time it is told,
    /// it tracks again (a tracking is told once), reading the state as a view would.
    final class Watcher: Sendable {
        let store: Store<Counter>
        let changes = Mutex(0)
        let seen = Mutex<[Int]>([])
        /// The thread each change was told on.
        let threads = Mutex<[ObjectIdentifier]>([])

        init(_ store: Store<Counter>) {
            self.store = store
            track()
        }

        func track() {
            let value = withObservationTracking {
                store.state.value
            } onChange: { [self] in
                changes.withLock { $0 += 1 }
                threads.withLock { $0.append(ObjectIdentifier(Thread.current)) }
                track()
            }
            seen.withLock { $0.append(value) }
        }
    }

    @Test func anObserverIsToldOfEachChangingActionAndOfNoOther() throws {
        let store = Store(initialState: Counter(), name: "Counter", recorder: try TraceRecorder(sink: MemorySink()))
        let watcher = Watcher(store)
        store.send("nothing") { $0.value = 0 }
        #expect(watcher.changes.withLock { $0 } == 0)
        store.send("increment") { $0.value += 1 }
        #expect(watcher.changes.withLock { $0 } == 1)
        store.send("same") { $0.value = 1 }
        #expect(watcher.changes.withLock { $0 } == 1)
        store.send("increment") { $0.value += 1 }
        store.send("increment") { $0.value += 1 }
        #expect(watcher.changes.withLock { $0 } == 3)
        // Told after the action: reading the state there sees the new value, without deadlock.
        #expect(watcher.seen.withLock { $0 } == [0, 1, 2, 3])
    }

    @Test func actionsFromOtherThreadsAreToldOnTheirThreads() {
        let store = Store(initialState: Counter())
        let watcher = Watcher(store)
        let senders = Mutex<[ObjectIdentifier]>([])
        for _ in 0..<3 {
            let sent = DispatchGroup()
            DispatchQueue.global().async(group: sent) {
                senders.withLock { $0.append(ObjectIdentifier(Thread.current)) }
                store.send("nothing") { $0.value += 0 }
                store.send("increment") { $0.value += 1 }
            }
            sent.wait()
        }
        #expect(watcher.changes.withLock { $0 } == 3)
        #expect(watcher.seen.withLock { $0 } == [0, 1, 2, 3])
        #expect(watcher.threads.withLock { $0 } == senders.withLock { $0 })
        #expect(!watcher.threads.withLock { $0 }.contains(ObjectIdentifier(Thread.current)))
    }

    @Test func aSubclassIsObservedToo() throws {
        let store = CatalogStore(recorder: nil)
        let told = Mutex(0)
        withObservationTracking {
            _ = store.state
        } onChange: {
            told.withLock { $0 += 1 }
        }
        store.toLoading()
        store.toLoading()  // loading → loading changes nothing, and the tracking was told already
        #expect(told.withLock { $0 } == 1)
    }
}
