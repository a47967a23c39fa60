import Dispatch
import Foundation
import Recorder
import Synchronization
import TestSupport
import Testing
import TraceReader

/// Recording a store that is not a `Store`, with the guarantees a `Store` has.
@Suite struct StoreRecordingTests {
    enum CartAction {
        case addItem(sku: String)
        case setQuantity(sku: String, quantity: Int)
        case pair(String, Int)
        case clear
        case note(NotEncodable)
    }

    struct NotEncodable: CustomStringConvertible {
        var description: String { "a note" }
    }

    func events(_ sink: MemorySink) throws -> [[String: Any]] {
        try jsonObjects(Array(sink.lines.dropFirst()))
    }

    @Test func registersAndRecordsEachActionWithWhetherItChanged() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink)
        let recording = StoreRecording(name: "Wishlist", initialState: ["MUG"], recorder: recorder)
        let line = #line + 1
        recording.record(state: ["MUG", "HAT"], args: ["sku": "HAT"])
        recording.record("keep", state: ["MUG", "HAT"])
        let events = try events(sink)
        #expect(events.count == 3)
        #expect(events[0]["type"] as? String == "register" && events[0]["store"] as? String == "Wishlist")
        #expect(events[0]["state"] as? [String] == ["MUG"])
        // The action is named after the calling function, and its source is the call site.
        #expect(events[1]["action"] as? String == "registersAndRecordsEachActionWithWhetherItChanged")
        #expect(events[1]["source"] as? String == "RecorderTests/StoreRecordingTests.swift:\(line)")
        #expect(events[1]["changed"] as? Bool == true)
        #expect(events[1]["args"] as? [String: String] == ["sku": "HAT"])
        // The recording kept the state before, so an equal state is `changed: false`.
        #expect(events[2]["action"] as? String == "keep" && events[2]["changed"] as? Bool == false)
    }

    @Test func anEnumActionIsNamedAfterItsCaseWithItsValuesAsArguments() throws {
        let sink = MemorySink()
        let recording = StoreRecording(name: "Cart", initialState: 0, recorder: try TraceRecorder(sink: sink))
        recording.record(action: CartAction.addItem(sku: "MUG"), state: 1)
        recording.record(action: CartAction.setQuantity(sku: "MUG", quantity: 3), state: 3)
        recording.record(action: CartAction.pair("HAT", 2), state: 5)
        recording.record(action: CartAction.clear, state: 0)
        recording.record(action: CartAction.note(NotEncodable()), state: 0)
        let events = try events(sink).dropFirst()
        #expect(events.map { $0["action"] as? String } == ["addItem", "setQuantity", "pair", "clear", "note"])
        let args = events.map { $0["args"] as? [String: Any] }
        #expect(args[0]?["sku"] as? String == "MUG")
        #expect(args[1]?["sku"] as? String == "MUG" && args[1]?["quantity"] as? Int == 3)
        #expect(args[2]?["_0"] as? String == "HAT" && args[2]?["_1"] as? Int == 2)
        #expect(args[3] == nil)
        #expect(args[4]?["_0"] as? String == "a note")
    }

    @Test func aStateMachineIsCheckedAsAStoresIs() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink, machines: ["CatalogStore": CatalogState.self])
        let recording = StoreRecording(name: "CatalogStore", initialState: CatalogState.idle, recorder: recorder)
        recording.record("toLoading", state: .loading)
        recording.record("toLoading", state: .loading)
        let events = try events(sink)
        #expect(events[0]["case"] as? String == "idle")
        #expect(events[1]["from"] as? String == "idle" && events[1]["to"] as? String == "loading")
        #expect(events[1]["stack"] == nil)
        #expect(events[2]["from"] as? String == "loading" && events[2]["to"] as? String == "loading")
        #expect((events[2]["stack"] as? [String])?.first?.hasPrefix("StoreRecordingTests.") == true)
        #expect(TraceValidator().validate(bytes: sink.data).problems.map(\.kind) == [.illegal])
    }

    @Test func redactedKeysNeverReachTheSink() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink, redactedKeys: ["password"])
        let account = Account(name: "ada", password: "hunter2-secret", sessions: [], extra: [:])
        let recording = StoreRecording(name: "Account", initialState: account, recorder: recorder)
        var renamed = account
        renamed.name = "grace"
        recording.record("rename", state: renamed, args: ["password": "arg-secret"])
        #expect(!sink.text.contains("secret"))
        #expect(sink.text.contains("\"password\":\"<redacted>\""))
    }

    /// 8 threads × 2,000 actions, each thread on its own recording and all on one `Store` too:
    /// `seq` has no gap, and each recording's states are in the order they were recorded.
    @Test func threadsShareOneRecorderWithoutGaps() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink)
        let threads = 8
        let actions = 2_000
        let recordings = (0..<threads).map { StoreRecording(name: "Model\($0)", initialState: 0, recorder: recorder) }
        let store = Store(initialState: Counter(), name: "Shared", recorder: recorder)
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            for value in 1...actions {
                recordings[index].record("set", state: value)
                store.send("increment") { $0.value += 1 }
            }
        }
        let events = try events(sink)
        #expect(events.map { $0["seq"] as? Int } == Array(1...(threads + 1 + 2 * threads * actions)))
        for index in 0..<threads {
            let values = events.filter { $0["store"] as? String == "Model\(index)" }.compactMap { $0["state"] as? Int }
            #expect(values == Array(0...actions))
        }
        #expect(store.state.value == threads * actions)
    }

    @Test func aReleasedRecordingEndsItsStoreSoTheNameIsFreeAgain() throws {
        let failures = Mutex<[RecordingFailure.Kind]>([])
        let recorder = try TraceRecorder(
            sink: MemorySink(), onError: { failure in failures.withLock { $0.append(failure.kind) } })
        var first: StoreRecording<Int>? = StoreRecording(name: "Screen", initialState: 0, recorder: recorder)
        first?.record("show", state: 1)
        first = nil
        let second = StoreRecording(name: "Screen", initialState: 0, recorder: recorder)
        #expect(failures.withLock { $0 }.isEmpty)
        let third = StoreRecording(name: "Screen", initialState: 0, recorder: recorder)
        #expect(failures.withLock { $0 } == [.duplicateStoreName])
        _ = (second, third)
    }

    /// A `Store` records through a `StoreRecording`: the same actions give the same lines.
    @Test func aStoreAndARecordingWriteTheSameEvents() throws {
        let storeSink = MemorySink()
        let store = Store(initialState: Counter(), name: "Counter", recorder: try TraceRecorder(sink: storeSink))
        let recordingSink = MemorySink()
        let recording = StoreRecording(
            name: "Counter", initialState: Counter(), recorder: try TraceRecorder(sink: recordingSink))
        for value in [1, 1, 2] {
            store.send("set", args: ["value": value]) { $0.value = value }
            recording.record("set", state: Counter(value: value), args: ["value": value])
        }
        func comparable(_ sink: MemorySink) throws -> [[String: String]] {
            try events(sink).map { event in
                event.filter { $0.key != "elapsed" && $0.key != "source" }.mapValues { "\($0)" }
            }
        }
        #expect(try comparable(storeSink) == comparable(recordingSink))
    }
}
