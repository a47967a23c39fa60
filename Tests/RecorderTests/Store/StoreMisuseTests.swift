import Foundation
import Recorder
import Synchronization
import TestSupport
import Testing

/// What a store does when an action's closure uses the store itself: it stops the process at
/// once, with a message, where it used to wait forever for its own lock. Run in a child process.
@Suite struct StoreMisuseTests {
    @Test(arguments: [
        ("read", "Store LightStore: `state` was read inside its own action countFromInside"),
        ("send", "Store LightStore: the action toggle was sent inside its own action toggleFromInside"),
    ])
    func usingTheStoreInsideItsOwnActionTrapsWithAMessage(mode: String, message: String) throws {
        let folder = try TemporaryFolder()
        let outcome = try ChildProcess.run(
            Probe.executable.path, [folder.path("inside.jsonl"), "1", "--inside-action", mode], timeout: 60)
        #expect(outcome.termination.signal != nil, "\(outcome.termination)")
        #expect(outcome.errorText.contains(message), "\(outcome.errorText)")
        #expect(outcome.outputText.contains("ready") && !outcome.outputText.contains("sent 1"))
    }

    struct Refused: Error, Equatable {}

    @Test func anActionThatThrowsChangesAndRecordsNothing() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink)
        let store = Store(initialState: Counter(value: 1), name: "Counter", recorder: recorder)
        let calls = Mutex(0)
        let token = store.subscribe { _ in calls.withLock { $0 += 1 } }
        #expect(throws: Refused.self) {
            try store.send("halfDone") { state throws(Refused) in
                state.value = 99
                throw Refused()
            }
        }
        #expect(store.state.value == 1)
        #expect(sink.lines.count == 2)  // the header and the register: no transition
        try store.send("done") { (state: inout Counter) throws(Refused) in state.value = 2 }
        #expect(store.state.value == 2)
        #expect(sink.lines.count == 3)
        #expect(calls.withLock { $0 } == 2)
        _ = token
    }
}
