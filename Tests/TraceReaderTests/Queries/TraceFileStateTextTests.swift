import Testing

@testable import TraceJSON
@testable import TraceReader

/// `TraceFile.appStateText(atStep:store:)`, `stateText(of:atStep:)` and `eventWithoutState(at:)`
/// give what `appState(atStep:)`, `state(of:atStep:)` and `event(at:)` give, without trees.
@Suite struct TraceFileStateTextTests {
    private static let lines = [
        QueryFixtures.header,
        #"{"type":"register","seq":1,"store":"A","state":{"n":1,"list":[1,2,3]}}"#,
        #"{"type":"register","seq":2,"store":"B\u0020x","state":"\ud800"}"#,
        #"{"type":"transition","seq":3,"store":"A","action":"add","changed":true,"state":{ "list" : [1,2,3,4], "n":1 }}"#,
        #"{"type":"other","seq":4}"#,
        #"{"type":"transition","seq":5,"store":"A","action":"dup","changed":true,"state":{"n":1,"n":2}}"#,
    ]

    private func trace() throws -> TraceFile {
        try TraceFile(bytes: Array((Self.lines.joined(separator: "\n") + "\n").utf8))
    }

    @Test func theAppStateTextIsTheAppState() throws {
        let trace = try trace()
        for step in -1...7 {
            #expect(
                JSONPrinter.compact(trace.appStateText(atStep: step))
                    == JSONPrinter.compact(.object(trace.appState(atStep: step))), "step \(step)")
            for store in trace.storeNames {
                let expected = trace.state(of: store, atStep: step).map { JSONPrinter.compact($0) }
                #expect(trace.stateText(of: store, atStep: step).map { JSONPrinter.compact($0) } == expected)
                let only = trace.appStateText(atStep: step, store: store)
                #expect(JSONPrinter.compact(only) == (expected.map { "{\(JSONPrinter.quoted(store)):\($0)}" } ?? "{}"))
            }
        }
        #expect(trace.stateText(of: "missing", atStep: 5) == nil)
        #expect(JSONPrinter.compact(trace.appStateText(atStep: 5, store: "missing")) == "{}")
    }

    @Test func stepsDiffFromTextsAsFromValues() throws {
        let trace = try trace()
        for step in 1...5 {
            let fromTexts = StateDiff(from: trace.appStateText(atStep: step - 1), to: trace.appStateText(atStep: step))
            let fromValues = StateDiff(from: trace.appState(atStep: step - 1), to: trace.appState(atStep: step))
            #expect(fromTexts.changes == fromValues.changes, "step \(step)")
        }
        // The member that moved is no change; the list's new element is one.
        let moved = StateDiff(from: trace.appStateText(atStep: 2), to: trace.appStateText(atStep: 3))
        #expect(moved.changes.map(\.path.description) == ["A.list[3]"])
    }

    @Test func eventsWithoutStatesAreTheEventsWithoutTheirStates() throws {
        let trace = try trace()
        for index in 0..<trace.eventCount {
            var expected = trace.event(at: index)
            expected?.state = nil
            #expect(trace.eventWithoutState(at: index) == expected)
        }
        #expect(trace.eventWithoutState(at: trace.eventCount) == nil)
    }
}
