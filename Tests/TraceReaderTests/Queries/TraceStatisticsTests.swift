import Foundation
import TestSupport
import Testing

@testable import TraceQueries
@testable import TraceReader

@Suite struct TraceStatisticsTests {
    typealias F = QueryFixtures

    @Test func countsStoresActionsAndNoChangeSteps() throws {
        let trace = try F.open([
            F.header,
            F.register(1, "Cart", state: "0", elapsed: 0),
            F.register(2, "Catalog", state: "0", elapsed: 0.25),
            F.transition(3, "Cart", "add", state: "1", elapsed: 0.5),
            F.transition(4, "Cart", "add", state: "2", elapsed: 0.75),
            F.transition(5, "Catalog", "refresh", state: "0", changed: false, elapsed: 1.0),
            F.transition(6, "Cart", "clear", state: "0", elapsed: 3.0),
            F.transition(7, "Cart", "clear", state: "0", changed: false, elapsed: 3.5),
            #"{"type":"marker","seq":8,"elapsed":3.75}"#,
        ])
        let stats = TraceStatistics(trace: trace)
        #expect(stats.events == 8)
        #expect(stats.otherEvents == 1)
        #expect(stats.stores.map(\.name) == ["Cart", "Catalog"])
        #expect(stats.stores.map(\.events) == [5, 2])
        #expect(stats.stores.map(\.unchanged) == [1, 1])
        // Cart: 0, 0.5, 0.75 within one second; then 3.0 and 3.5.
        #expect(stats.stores.map(\.peakPerSecond) == [3, 2])
        #expect(stats.actions.map { "\($0.store).\($0.action)" } == ["Cart.add", "Cart.clear", "Catalog.refresh"])
        #expect(stats.actions.map(\.events) == [2, 2, 1])
        #expect(stats.actions.map(\.unchanged) == [0, 1, 1])
        #expect(stats.unchangedCount == 2)
        #expect(stats.unchangedSteps == [5, 7])
        #expect(stats.duration == 3.75)
    }

    @Test func intervalsAreSummarisedByNearestRank() throws {
        // Intervals of 1, 2, … 100 hundredths of a second, in a shuffled order.
        let deltas = (1...100).map { Double($0) / 100 }
        var order = Array(deltas.indices)
        var random = UInt64(42)
        for index in order.indices.reversed() {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            order.swapAt(index, Int(random >> 33) % (index + 1))
        }
        var elapsed = 0.0
        var lines = [F.header, F.register(1, "S", state: "0", elapsed: 0)]
        for (offset, index) in order.enumerated() {
            elapsed += deltas[index]
            lines.append(F.transition(offset + 2, "S", "tick", state: "\(offset)", elapsed: elapsed))
        }
        let intervals = try #require(TraceStatistics(trace: try F.open(lines)).intervals)
        #expect(intervals.count == 100)
        #expect(abs(intervals.minimum - 0.01) < 1e-9)
        #expect(abs(intervals.median - 0.50) < 1e-9)
        #expect(abs(intervals.p99 - 0.99) < 1e-9)
        #expect(abs(intervals.maximum - 1.00) < 1e-9)
    }

    @Test func aTraceWithoutTimesHasNoIntervals() throws {
        let stats = TraceStatistics(
            trace: try F.open([F.header, F.register(1, "S", state: "0"), F.transition(2, "S", "a", state: "1")]))
        #expect(stats.intervals == nil)
        #expect(stats.duration == nil)
        #expect(stats.stores.map(\.peakPerSecond) == [0])
        #expect(TraceStatistics.Intervals([]) == nil)
    }

    /// Reading the file in blocks gives what reading each event's line again gave: the same
    /// lines, each checked to be the event indexed, on traces of small and of large lines.
    @Test func blockReadingAgreesWithReadingEachLine() throws {
        let folder = try TemporaryFolder()
        let large = String(repeating: "x", count: 5 << 20)
        let lines = [
            F.header, F.register(1, "S", state: "0", elapsed: 0), F.transition(2, "S", "a", state: "1", elapsed: 0.5),
            F.transition(3, "S", "b", state: "\"\(large)\"", changed: false, elapsed: 0.7),
            F.transition(4, "T", "c", state: "[1]", elapsed: 2), "not json", F.transition(5, "S", "a", state: "2"),
        ]
        for trace in [try F.open(lines), try TraceFile(path: try write(lines, to: folder.path("t.jsonl")))] {
            var expected: [Int?] = []
            var found: [Int?] = []
            for index in 0..<trace.eventCount {
                expected.append(trace.scanEvent(at: index) { fields, _ in fields.seq } ?? nil)
            }
            trace.scanEvents(0..<trace.eventCount) { index, fields, _ in
                #expect(index == found.count)
                found.append(fields?.seq)
            }
            #expect(found == expected && found.count == 5)
        }
    }

    /// A file cut short after it was opened: the events past its new end are counted as
    /// unreadable, the others as before.
    @Test func eventsPastTheEndOfAShrunkFileAreUnreadable() throws {
        let folder = try TemporaryFolder()
        let lines = [F.header] + (1...50).map { F.transition($0, "S", "a", state: "\($0)", elapsed: Double($0)) }
        let path = try write(lines, to: folder.path("t.jsonl"))
        let trace = try TraceFile(path: path)
        let kept = lines.prefix(21).joined(separator: "\n") + "\n"
        try kept.write(toFile: path, atomically: false, encoding: .utf8)
        let stats = TraceStatistics(trace: trace)
        #expect(stats.unreadableEvents == 30)
        #expect(stats.actions.first?.events == 20)
    }

    private func write(_ lines: [String], to path: String) throws -> String {
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }
}
