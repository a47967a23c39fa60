import Foundation
import TestSupport
import Testing
import TraceReader

@testable import Inspector

/// Issue 36: ← → G g inside a store filter (`s`) or an action filter (`a`) move on lists of
/// events (the trace index's events of the store, the scanned events of the action) by binary
/// search, not by decoding event after event. The moves land where a filter that looks at every
/// event lands; with the list the whole filter, no event's line is read at all: the moves still
/// land right after the file's bytes are overwritten.
@Suite struct IndexedFilterMovesTests {
    /// A trace of three stores whose events are spread unevenly: A every event up to 12, B every
    /// third, C once; actions `tick` (most), `tock` (every fifth), some with no change.
    static func write(to path: String, events: Int = 60) throws {
        var lines = [
            #"{"type":"header","format":"rewind-trace","version":1,"app":"Filters","machines":{}}"#
        ]
        for seq in 1...events {
            let store = seq == 40 ? "C" : seq % 3 == 0 ? "B" : seq <= 12 ? "A" : "B"
            let type = seq <= 3 ? "register" : "transition"
            var line = #"{"type":"\#(type)","seq":\#(seq),"store":"\#(store)","state":{"n":\#(seq)}"#
            if type == "transition" {
                line += #","action":"\#(seq % 5 == 0 ? "tock" : "tick")","changed":\#(seq % 7 != 0)"#
            }
            lines.append(line + "}")
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The steps → (← with `forward` false) goes through from step `start`, until it stays (or
    /// reaches step 0).
    static func walk(_ session: StepSession, from start: Int, forward: Bool) -> [Int] {
        var session = session
        _ = session.go(toStep: start)
        var steps: [Int] = []
        while forward ? session.next() : session.previous() {
            steps.append(session.step)
            if session.step == 0 { break }
        }
        return steps
    }

    /// The steps a filter lets through, found by decoding every event.
    static func expected(_ trace: TraceFile, _ filter: EventFilter) -> [Int] {
        (0..<trace.eventCount).filter { filter.matches(trace.event(at: $0)!, hasProblem: false) }.map { $0 + 1 }
    }

    static let filters: [EventFilter] = [
        EventFilter(store: "A"), EventFilter(store: "B"), EventFilter(store: "C"),
        EventFilter(store: "B", changedOnly: true), EventFilter(action: "tock"), EventFilter(action: "register"),
        EventFilter(store: "B", action: "tock"), EventFilter(action: "tick", changedOnly: true),
    ]

    @Test(arguments: filters) func movesLandOnTheEventsAFullLookFinds(filter: EventFilter) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("filters.jsonl")
        try Self.write(to: path)
        let trace = try TraceFile(path: path)
        let expected = Self.expected(trace, filter)
        var session = StepSession(trace: trace, problems: [:])
        session.filter = filter
        for scanned in [false, true] {
            if scanned, let action = filter.action {
                session.actionEventsFound(try #require(ActionEvents.scan(trace, action: action)))
                #expect(session.knowsActionEvents)
            }
            // From the ends, and from a step the filter may not let through, both ways.
            for start in [0, 20, 40, trace.lastStep] {
                #expect(Self.walk(session, from: start, forward: true) == expected.filter { $0 > start })
                if start > 0 {
                    #expect(
                        Self.walk(session, from: start, forward: false) == expected.filter { $0 < start }.reversed() + [
                            0
                        ])
                }
            }
        }
    }

    @Test func aStoreOrScannedActionFilterReadsNoLine() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("filters.jsonl")
        try Self.write(to: path)
        let trace = try TraceFile(path: path)
        let stores = Self.expected(trace, EventFilter(store: "B"))
        let tocks = Self.expected(trace, EventFilter(action: "tock"))
        let scanned = try #require(ActionEvents.scan(trace, action: "tock"))
        #expect(scanned.indices.map { $0 + 1 } == tocks)
        // Every byte of the file overwritten in place: any line read now is not the event indexed.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data(repeating: UInt8(ascii: " "), count: size))
        try handle.close()
        #expect(trace.event(at: 5) == nil)

        var session = StepSession(trace: trace, problems: [:])
        session.filter = EventFilter(store: "B")
        #expect(Self.walk(session, from: 0, forward: true) == stores)
        #expect(Self.walk(session, from: trace.lastStep, forward: false) == stores.reversed().dropFirst() + [0])
        session.filter = EventFilter(action: "tock")
        // Before the scan's outcome is taken, the filter reads lines, which no longer hold events.
        #expect(!session.knowsActionEvents)
        #expect(Self.walk(session, from: 0, forward: true).isEmpty)
        session.actionEventsFound(scanned)
        #expect(Self.walk(session, from: 0, forward: true) == tocks)
        #expect(Self.walk(session, from: trace.lastStep, forward: false) == tocks.reversed().dropFirst() + [0])
        // The list's rows around the last step, found with the lists alone.
        _ = session.go(toStep: trace.lastStep)
        #expect(StepScreen.listed(around: trace.eventCount - 1, rows: 5, in: session) == tocks.suffix(5).map { $0 - 1 })
    }

    @Test func anActionScanOfAnotherOpeningIsNotUsed() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("filters.jsonl")
        try Self.write(to: path)
        let first = try TraceFile(path: path)
        let other = try TraceFile(path: path)
        var session = StepSession(trace: first, problems: [:])
        session.filter = EventFilter(action: "tock")
        session.actionEventsFound(try #require(ActionEvents.scan(other, action: "tock")))
        #expect(!session.knowsActionEvents)
        session.actionEventsFound(try #require(ActionEvents.scan(first, action: "tick")))
        #expect(!session.knowsActionEvents)
        #expect(ActionEvents.scan(first, action: "tock", shouldStop: { true }) == nil)
    }
}
