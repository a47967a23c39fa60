import Dispatch
import Foundation
import Recorder
import TestSupport
import Testing

/// The `cause` of an action sent from another thread or task than the subscriber's.
@Suite struct ActionCauseTests {
    /// Records a source store whose subscriber hands the reaction to `dispatch`, and returns the
    /// source's event and the reaction's.
    func record(
        _ dispatch: @escaping @Sendable (_ cause: ActionCause, _ react: @escaping @Sendable () -> Void) -> Void
    ) async throws -> (source: [String: Any], reaction: [String: Any]) {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink)
        let source = Store(initialState: Counter(), name: "Source", recorder: recorder)
        let follower = Store(initialState: Counter(), name: "Follower", recorder: recorder)
        // Awaited, not waited for: a blocked thread of the test's pool could be the one a
        // detached task needs.
        let (done, reacted) = AsyncStream<Void>.makeStream()
        let token = source.subscribeToChanges { state in
            dispatch(ActionCause.current) {
                follower.send("follow") { $0.value = state.value }
                reacted.yield()
            }
        }
        source.send("increment") { $0.value += 1 }
        for await _ in done { break }
        _ = token
        let events = try jsonObjects(Array(sink.lines.dropFirst()))
        let increment = try #require(events.first { $0["action"] as? String == "increment" })
        let follow = try #require(events.first { $0["action"] as? String == "follow" })
        return (increment, follow)
    }

    @Test func theCauseIsLostThroughDispatchAndDetachedTasks() async throws {
        let dispatched = try await record { _, react in DispatchQueue.global().async { react() } }
        #expect(dispatched.reaction["cause"] == nil)
        let detached = try await record { _, react in Task.detached { react() } }
        #expect(detached.reaction["cause"] == nil)
    }

    @Test func aCapturedCauseCarriesItAcross() async throws {
        let dispatched = try await record { cause, react in DispatchQueue.global().async { cause.run { react() } } }
        #expect(dispatched.reaction["cause"] as? Int == dispatched.source["seq"] as? Int)
        let detached = try await record { cause, react in Task.detached { cause.run { react() } } }
        #expect(detached.reaction["cause"] as? Int == detached.source["seq"] as? Int)
    }

    @Test func aCauseTakenWhereThereWasNoneRecordsNone() throws {
        let sink = MemorySink()
        let store = Store(initialState: Counter(), name: "Counter", recorder: try TraceRecorder(sink: sink))
        ActionCause.current.run { store.send("bump") { $0.value += 1 } }
        #expect(try jsonObjects(sink.lines).last?["cause"] == nil)
    }
}

extension Store {
    /// Subscribes to the states after the current one.
    fileprivate func subscribeToChanges(_ handler: @escaping @Sendable (State) -> Void) -> Subscription {
        let current = state
        return subscribe { state in if state != current { handler(state) } }
    }
}
