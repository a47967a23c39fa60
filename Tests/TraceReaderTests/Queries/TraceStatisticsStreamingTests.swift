import Foundation
import TestSupport
import Testing

@testable import TraceQueries
@testable import TraceReader

/// `TraceStatistics(path:)`, read once with no index, against `TraceStatistics(trace:)` over
/// `TraceFile(path:)` (what `inspector stats` did before): the same counts, steps and issues on
/// seeded random traces, and bounded memory where they would differ.
@Suite struct TraceStatisticsStreamingTests {
    typealias F = QueryFixtures

    /// A random trace: versions 1 and 2, a store with a machine, stores and actions with escaped
    /// names, restores and unknown types, missing and decreasing `elapsed`, seqs that repeat or
    /// go back, malformed, empty and `\r\n` lines, and a torn last line.
    private func randomTrace(seed: UInt64) -> String {
        var random = SeededGenerator(seed: seed)
        let version = Bool.random(using: &random) ? 2 : 1
        let machine =
            #"{"Door":{"initial":"shut","transitions":{"shut":["open"],"open":["shut"]}}}"#
        var text =
            #"{"type":"header","format":"rewind-trace","version":\#(version),"machines":\#(Bool.random(using: &random) ? machine : "{}")}"#
        text += Int.random(in: 0..<6, using: &random) == 0 ? "\r\n" : "\n"
        let stores = ["Cart", "Catalog", "Door", #"Caf\u00e9"#, "A.b"]
        let actions = ["add", "remove", #"na\"me"#, "open", "shut", "reload"]
        let outOfOrder = Int.random(in: 0..<3, using: &random) == 0
        var seq = 0
        var elapsed = 0.0
        for _ in 0..<Int.random(in: 0..<300, using: &random) {
            seq +=
                outOfOrder && Int.random(in: 0..<15, using: &random) == 0 ? -Int.random(in: 0...3, using: &random) : 1
            elapsed += Double(Int.random(in: -2..<40, using: &random)) / 64
            let time = Int.random(in: 0..<8, using: &random) == 0 ? "" : #","elapsed":\#(elapsed)"#
            let store = stores.randomElement(using: &random)!
            let action = actions.randomElement(using: &random)!
            let changed = Int.random(in: 0..<4, using: &random) == 0 ? "false" : "true"
            let state =
                version == 2 && Bool.random(using: &random)
                ? #""patch":[{"op":"replace","path":"/n","value":\#(seq)}]"# : #""state":{"n":\#(seq)}"#
            let line: String
            switch Int.random(in: 0..<20, using: &random) {
            case 0...3: line = #"{"type":"register","seq":\#(seq)\#(time),"store":"\#(store)","state":{"n":0}}"#
            case 4: line = #"{"type":"restore","seq":\#(seq)\#(time),"store":"\#(store)","state":{"n":0}}"#
            case 5: line = #"{"type":"marker","seq":\#(seq)\#(time)}"#
            case 6: line = ["", "not json", "[1]", #"{"type":"transition","seq":"x"}"#].randomElement(using: &random)!
            case 7:
                line =
                    #"{"type":"transition","seq":\#(seq)\#(time),"store":"Door","action":"\#(action)","changed":\#(changed),"case":"open","from":"shut","to":"open",\#(state)}"#
            default:
                line =
                    #"{"type":"transition","seq":\#(seq)\#(time),"store":"\#(store)","action":"\#(action)","changed":\#(changed),\#(state)}"#
            }
            text += line + (Int.random(in: 0..<30, using: &random) == 0 ? "\r\n" : "\n")
        }
        if Bool.random(using: &random) { text += #"{"type":"transition","seq":\#(seq + 1),"store":"Ca"# }
        return text
    }

    @Test(arguments: 0..<60) func readingOnceAgreesWithTheIndexedTrace(seed: Int) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("t.jsonl")
        try randomTrace(seed: UInt64(seed)).write(toFile: path, atomically: false, encoding: .utf8)
        let indexed = TraceStatistics(trace: try TraceFile(path: path))
        let streamed = try TraceStatistics(path: path)
        #expect(streamed == indexed, "seed \(seed)")
        // With the intervals kept exactly, then as a histogram from the first one: the same
        // counts, and percentiles within 1%.
        let atTheLimit = try TraceStatistics(
            path: path, nameLimit: 1_000, exactIntervals: indexed.intervals?.count ?? 0)
        #expect(atTheLimit.intervals == indexed.intervals)
        let estimated = try TraceStatistics(path: path, nameLimit: 1_000, exactIntervals: 0)
        #expect(estimated.intervals?.count == indexed.intervals?.count)
        #expect(estimated.intervals?.minimum == indexed.intervals?.minimum)
        #expect(estimated.intervals?.maximum == indexed.intervals?.maximum)
        if let exact = indexed.intervals, let estimate = estimated.intervals {
            #expect(estimate.isApproximate)
            for (value, expected) in [(estimate.median, exact.median), (estimate.p99, exact.p99)] {
                #expect(abs(value - expected) <= max(1e-9, expected.magnitude * 0.01), "seed \(seed)")
            }
        }
    }

    /// A file of several parts is read and scanned in parts on two threads, and counted in order
    /// by whichever has the next part (`ParallelScan`): the counts, steps and issues are still
    /// those of the indexed trace, with malformed, empty, `\r\n` and torn lines anywhere, at the
    /// ends of parts too.
    @Test(arguments: [1, 2] as [UInt64]) func aTraceOfSeveralPartsAgreesWithTheIndexedTrace(seed: UInt64) throws {
        var text = randomTrace(seed: seed * 1_000)
        if !text.hasSuffix("\n") { text = String(text[...text.lastIndex(of: "\n")!]) }
        var next = seed * 1_000 + 1
        while text.utf8.count < 3 << 20 {
            var body = randomTrace(seed: next)
            next += 1
            body = String(body[body.index(after: body.firstIndex(of: "\n")!)...])
            if let last = body.lastIndex(of: "\n") { text += body[...last] }
        }
        text += #"{"type":"transition","seq":7,"store":"Ca"#
        let folder = try TemporaryFolder()
        let path = folder.path("t.jsonl")
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let trace = try TraceFile(path: path)
        var indexed = TraceStatistics(trace: trace)
        indexed.issues = trace.issues
        let streamed = try TraceStatistics(path: path)
        #expect(streamed == indexed)
        #expect(streamed.issues.contains { $0.kind == .truncated })
        #expect(streamed.issues.contains { $0.kind == .emptyLine })
    }

    /// The skipped-line issues, the steps when seqs go back, and an error opening the file are
    /// those of `TraceFile`.
    @Test func issuesStepsAndErrorsAreTheIndexedTraces() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("t.jsonl")
        var lines = [F.header + "\r"]
        for seq in 1...300 {
            lines.append(seq % 2 == 0 ? "" : F.transition(seq % 7, "S", "a", state: "1", changed: false))
        }
        try lines.joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
        let trace = try TraceFile(path: path)
        let streamed = try TraceStatistics(path: path)
        #expect(streamed.issues == trace.issues)
        #expect(streamed.issues.contains { $0.kind == .emptyLine && $0.message.hasPrefix("and ") })
        #expect(streamed.issues.contains { $0.kind == .carriageReturn && $0.line == 1 })
        #expect(streamed.issues.contains { $0.kind == .seqOrder })
        #expect(streamed.unchangedSteps == TraceStatistics(trace: trace).unchangedSteps)
        #expect(streamed.unchangedSteps.prefix(3) == [1, 2, 3])  // the order of the file

        try "not a trace\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: TraceOpenError.self) { try TraceStatistics(path: path) }
        do {
            _ = try TraceStatistics(path: path)
        } catch {
            let expected = #expect(throws: TraceOpenError.self) { try TraceFile(path: path) }
            #expect(error.message == expected?.message && error.line == expected?.line)
        }
    }

    /// A million distinct action names cost no more than the most kept: the rest are counted
    /// together.
    @Test func namesPastTheLimitAreCountedTogether() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("t.jsonl")
        var text = F.header + "\n"
        for seq in 1...40 {
            text += F.transition(seq, "S\(seq % 4)", "a\(seq)", state: "1", changed: seq % 3 != 0) + "\n"
        }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let all = try TraceStatistics(path: path)
        let bounded = try TraceStatistics(path: path, nameLimit: 10)
        #expect(bounded.actions.count == 10 && all.actions.count == 40)
        #expect(bounded.actions.map(\.events).reduce(0, +) + bounded.otherActions.events == 40)
        #expect(bounded.otherActions.unchanged == 13 - bounded.actions.map(\.unchanged).reduce(0, +))
        #expect(bounded.stores == all.stores && bounded.otherStores.events == 0)
        #expect(bounded.unchangedCount == all.unchangedCount)
    }

    /// The reading's store ids (every store with an event, restores too, in the order met) are
    /// not the tally's (stores counted by name, up to the limit, in the order of their register
    /// and transition events): a store met first in a restore and refused by the limit is counted
    /// with the others at every event, and a name written with and without escapes is one store.
    @Test func storesAreCountedByTheirOwnIDs() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("t.jsonl")
        let lines = [
            F.header,
            #"{"type":"restore","seq":1,"store":"Late","state":{"n":0}}"#,
            #"{"type":"register","seq":2,"store":"Caf\u00e9","state":{"n":0}}"#,
            #"{"type":"register","seq":3,"store":"B","state":{"n":0}}"#,
            #"{"type":"transition","seq":4,"store":"Late","action":"a","changed":true,"state":{"n":1}}"#,
            #"{"type":"transition","seq":5,"store":"Café","action":"a","changed":false,"state":{"n":0}}"#,
            #"{"type":"transition","seq":6,"store":"B","action":"a","changed":true,"state":{"n":1}}"#,
            #"{"type":"transition","seq":7,"store":"Late","action":"b","changed":false,"state":{"n":1}}"#,
            #"{"type":"transition","seq":8,"store":"Caf\u00e9","action":"a","changed":true,"state":{"n":1}}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        let bounded = try TraceStatistics(path: path, nameLimit: 2)
        #expect(bounded.stores.map(\.name) == ["Café", "B"])
        #expect(bounded.stores.map(\.events) == [3, 2])
        #expect(bounded.stores.map(\.unchanged) == [1, 0])
        #expect(bounded.otherStores.events == 2 && bounded.otherStores.unchanged == 1)
        #expect(bounded.otherEvents == 1)
        let all = try TraceStatistics(path: path)
        #expect(all.stores.map(\.name) == ["Café", "B", "Late"])
        #expect(all.stores == TraceStatistics(trace: try TraceFile(path: path)).stores)
    }

    /// Stores and actions in turn, more of them than `RecentNames` keeps, some of one length
    /// differing in one byte, one past the limit of names kept: each is counted as itself.
    @Test func namesInTurnAreCountedEachAsItself() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("t.jsonl")
        let stores = ["Cart", "Card", "Cord", "CartStore", "CartStorf", "Catalog", "A"]
        let actions = ["add", "adx", "remove", "removeAllTheItems", "removeAllTheItemz"]
        var text = F.header + "\n"
        var storeEvents: [String: Int] = [:]
        var pairEvents: [String: Int] = [:]
        var random = SeededGenerator(seed: 3)
        for seq in 1...600 {
            let store = seq % 9 == 0 ? stores.randomElement(using: &random)! : stores[seq % 5]
            let action = actions[seq % 3 == 0 ? seq % 5 : seq % 2]
            text += F.transition(seq, store, action, state: "1") + "\n"
            storeEvents[store, default: 0] += 1
            pairEvents["\(store) \(action)", default: 0] += 1
        }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let limit = storeEvents.count - 1
        let statistics = try TraceStatistics(path: path, nameLimit: limit)
        #expect(statistics.stores.count == limit)
        for store in statistics.stores { #expect(store.events == storeEvents[store.name], "\(store.name)") }
        #expect(statistics.stores.map(\.events).reduce(0, +) + statistics.otherStores.events == 600)
        for action in statistics.actions {
            #expect(action.events == pairEvents["\(action.store) \(action.action)"], "\(action)")
        }
        #expect(statistics.actions.map(\.events).reduce(0, +) + statistics.otherActions.events == 600)
    }

    /// The histogram's buckets: each value is within 1% of its bucket's representative, in
    /// order, whatever its sign or size.
    @Test func histogramBucketsAreWithinOnePercent() {
        var random = SeededGenerator(seed: 7)
        var previous = (value: -Double.infinity, bucket: 0)
        let values = (0..<2_000).map { _ in
            Double.random(in: -1...1, using: &random) * pow(10, Double.random(in: -9...9, using: &random))
        }.sorted()
        for value in values {
            let bucket = IntervalQuantiles.bucket(of: value)
            #expect(bucket >= previous.bucket, "\(previous.value) then \(value)")
            let representative = IntervalQuantiles.representative(of: bucket)
            if value.magnitude >= IntervalQuantiles.smallest {
                #expect(abs(representative - value) <= value.magnitude * 0.01, "\(value)")
            }
            previous = (value, bucket)
        }
        for value in [Double.nan, .infinity, -.infinity, 1e300, 0] {
            #expect((0...(2 * IntervalQuantiles.bucketsPerSign)).contains(IntervalQuantiles.bucket(of: value)))
        }
    }
}

extension TraceStatisticsStreamingTests {
    /// Past the most times kept for the busiest second, a store's peak is counted per
    /// millisecond: off by at most the events of two milliseconds, and said to be an estimate.
    @Test(arguments: [1, 5, 40]) func peaksPastTheWindowLimitAreCountedPerMillisecond(limit: Int) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("t.jsonl")
        var random = SeededGenerator(seed: UInt64(limit))
        var text = F.header + "\n"
        var elapsed = 0.0
        for seq in 1...400 {
            elapsed += Double(Int.random(in: 1..<30, using: &random)) / 1_000
            text += F.transition(seq, seq % 3 == 0 ? "A" : "B", "a", state: "1", elapsed: elapsed) + "\n"
        }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let exact = try TraceStatistics(path: path)
        let bounded = try TraceStatistics(path: path, nameLimit: 10, windowLimit: limit)
        #expect(exact.stores.allSatisfy { !$0.peakIsApproximate })
        #expect(bounded.stores.contains { $0.peakIsApproximate })
        for (store, estimate) in zip(exact.stores, bounded.stores) {
            #expect(store.name == estimate.name && store.events == estimate.events)
            // At least 1 ms between events: two milliseconds hold at most two events.
            #expect(abs(store.peakPerSecond - estimate.peakPerSecond) <= 2, "\(store) \(estimate)")
        }
    }
}

extension TraceStatisticsStreamingTests {
    /// A store's peak per second, with its window of recent times full and moved down in place
    /// again and again (thousands of events over several seconds): the most events within any one
    /// second, as counting them one by one finds it.
    @Test func peaksOfLongRunsAreExact() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("t.jsonl")
        var random = SeededGenerator(seed: 11)
        var text = F.header + "\n"
        var elapsed = 0.0
        var times: [String: [Double]] = [:]
        for seq in 1...6_000 {
            // Bursts of events a microsecond apart, then pauses of up to 40 ms.
            elapsed +=
                Int.random(in: 0..<4, using: &random) == 0
                ? Double(Int.random(in: 1..<40, using: &random)) / 1_000 : 1e-6
            elapsed = (elapsed * 1e6).rounded() / 1e6
            let store = seq % 5 == 0 ? "A" : "B"
            times[store, default: []].append(elapsed)
            text += F.transition(seq, store, "a", state: "1", elapsed: elapsed) + "\n"
        }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let statistics = try TraceStatistics(path: path)
        for store in statistics.stores {
            let values = try #require(times[store.name])
            var peak = 0
            var first = 0
            for (index, value) in values.enumerated() {
                while values[first] <= value - 1 { first += 1 }
                peak = max(peak, index - first + 1)
            }
            #expect(!store.peakIsApproximate && store.peakPerSecond == peak, "\(store)")
        }
    }
}
