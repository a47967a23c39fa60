@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing

@testable import TraceReader

/// `CauseLoopTracker`'s shortcut past the walk up a chain finds what the walk finds: the same
/// count for every event, the same loops, whatever the chains and the seqs.
@Suite struct CauseLoopTrackerTests {
    /// One event to record: its seq, store, action (an index into `actionNames`, nil for a
    /// register) and cause.
    struct Event {
        var seq: Int
        var store: Int
        var action: Int?
        var cause: Int?
    }

    /// Action names: action `i` is the 4 digits at `4 i`.
    static let actionNames: [UInt8] = Array((0..<10_000).map { String(10_000 + $0).dropFirst() }.joined().utf8)

    /// Records `events` with and without the shortcut and compares what each tracker says.
    static func expectSameCounts(
        _ events: [Event], maximumDepth: Int = 8, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var fast = CauseLoopTracker(maximumDepth: maximumDepth)
        var slow = CauseLoopTracker(maximumDepth: maximumDepth)
        slow.allowsShortcut = false
        ByteView.withBytes(of: actionNames) { line in
            var mismatches = 0
            for event in events {
                let action = event.action.map { EventFields.Text(range: (4 * $0)..<(4 * $0 + 4), hasEscapes: false) }
                let passedFast = fast.record(
                    seq: event.seq, store: event.store, action: action, cause: event.cause, line: line)
                let passedSlow = slow.record(
                    seq: event.seq, store: event.store, action: action, cause: event.cause, line: line)
                if passedFast { _ = fast.beginLoop(at: event.seq, storeName: { "S\($0)" }) }
                if passedSlow { _ = slow.beginLoop(at: event.seq, storeName: { "S\($0)" }) }
                if passedFast != passedSlow || fast.count(atSeq: event.seq) != slow.count(atSeq: event.seq) {
                    mismatches += 1
                    if mismatches <= 3 {
                        Issue.record(
                            "seq \(event.seq): shortcut count \(String(describing: fast.count(atSeq: event.seq))), walk \(String(describing: slow.count(atSeq: event.seq)))",
                            sourceLocation: sourceLocation)
                    }
                }
            }
            let fastLoops = fast.loops.values.map(fast.message).sorted()
            let slowLoops = slow.loops.values.map(slow.message).sorted()
            #expect(fastLoops == slowLoops, sourceLocation: sourceLocation)
        }
    }

    /// A chain where every event is caused by the one before, its store and action repeating
    /// with `period`: near the walk's limit of 256 steps and past the ring's 16,384 seqs.
    @Test(arguments: [1, 2, 7, 255, 256, 257, 300, 5000])
    func oneLongChainCountsAsTheWalkDoes(period: Int) {
        var events = [Event(seq: 1, store: 0, action: nil, cause: nil)]
        for seq in 2...40_000 {
            let key = seq % period
            events.append(Event(seq: seq, store: key % 3, action: key / 3, cause: seq - 1))
        }
        Self.expectSameCounts(events, maximumDepth: 1_000_000)
        Self.expectSameCounts(Array(events.prefix(3000)), maximumDepth: 3)
    }

    /// Random chains: causes a few seqs back (runs broken, branches), no cause, causes that point
    /// forward; with seqs that go up, and with repeats, gaps and steps back.
    @Test(arguments: 0..<12)
    func randomChainsCountAsTheWalkDoes(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let keys = Int.random(in: 1...40, using: &random)
        var events: [Event] = []
        var seq = seed % 3 == 0 ? -50 : 0
        for _ in 0..<30_000 {
            switch Int.random(in: 0..<1000, using: &random) {
            case 0..<2 where seed % 2 == 1: seq -= Int.random(in: 0...20, using: &random)  // repeat or back
            case 2..<6: seq += Int.random(in: 2...400, using: &random)  // a gap
            default: seq += 1
            }
            let key = Int.random(in: 0..<keys, using: &random)
            let cause: Int? =
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<80: seq - 1
                case 80..<90: seq - Int.random(in: 1...300, using: &random)
                case 90..<95: nil
                default: seq + Int.random(in: 0...3, using: &random)
                }
            events.append(Event(seq: seq, store: key % 4, action: key % 7 == 0 ? nil : key / 4, cause: cause))
        }
        Self.expectSameCounts(events, maximumDepth: 1_000_000)
        Self.expectSameCounts(events, maximumDepth: 4)
    }
}
