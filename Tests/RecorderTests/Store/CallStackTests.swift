import Foundation
import Recorder
import TestSupport
import Testing
import TraceReader

/// Who sent an action: the `stack` of a transition.
@Suite struct CallStackTests {
    /// The line of the second `toLoading()` below.
    static let secondCallLine = #line + 4

    @inline(never) func refreshTwice(_ store: CatalogStore) {
        store.toLoading()
        store.toLoading()
    }

    @Test func anIllegalTransitionRecordsTheStackThatSentIt() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink, machines: ["CatalogStore": CatalogState.self])
        refreshTwice(CatalogStore(recorder: recorder))
        let events = try jsonObjects(Array(sink.lines.dropFirst()))
        #expect(events[1]["stack"] == nil)  // idle → loading is legal: no stack
        let stack = try #require(events[2]["stack"] as? [String])
        // Innermost first: the store's command, then the code that called it; none of Rewind's.
        #expect(stack.first?.hasPrefix("CatalogStore.toLoading() (RecordingFixtures.swift:") == true, "\(stack)")
        #expect(
            stack.dropFirst().first
                == "CallStackTests.refreshTwice(_:) (CallStackTests.swift:\(Self.secondCallLine))", "\(stack)")
        #expect(stack.contains { $0.hasPrefix("CallStackTests.anIllegalTransitionRecordsTheStackThatSentIt()") })
        #expect(
            !stack.contains { $0.contains("Store.send") || $0.contains("withLock") || $0.contains("TraceRecorder") },
            "\(stack)")
        // The trace is still valid, but for the transition it records.
        #expect(TraceValidator().validate(bytes: sink.data).problems.map(\.kind) == [.illegal])
    }

    @Test func everyActionRecordsItsStackWhenAsked() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink, stackForEveryAction: true)
        let counter = Store(initialState: Counter(), name: "Counter", recorder: recorder)
        let line = #line + 1
        counter.send("increment") { $0.value += 1 }
        let event = try #require(try jsonObjects(sink.lines).last)
        let stack = try #require(event["stack"] as? [String])
        #expect(
            stack.first == "CallStackTests.everyActionRecordsItsStackWhenAsked() (CallStackTests.swift:\(line))",
            "\(stack)")
    }
}
