import Foundation
import TraceReader

/// Diffs: two 100 KB states that differ in a few places, and two lists of 10,000 items with one
/// inserted; against Foundation parsing the same two states with JSONSerialization, as a yardstick.
enum DiffBenchmark {
    static func run(into table: inout ResultTable) throws {
        var generator = SeededGenerator(seed: 7)
        func item(_ index: Int) -> JSONValue {
            .object([
                "id": .number(String(index)), "title": .string("Item \(index) \(generator.next() % 1000)"),
                "price": .number("\(index % 100).99"), "tags": .array([.string("a"), .string("b")]),
            ])
        }
        // Two 100 KB states, a few differences.
        let items = (0..<1_600).map(item)
        let first = JSONValue.object(["catalog": .array(items), "user": .string("ada"), "page": .number("1")])
        var changed = items
        changed[10] = item(100_000)
        changed[500] = item(100_001)
        changed.remove(at: 1_400)
        let second = JSONValue.object(["catalog": .array(changed), "user": .string("ada"), "page": .number("2")])
        let size = JSONPrinter.compact(first).utf8.count
        let large = Measurement.run(runs: 9) { _ = StateDiff(from: first, to: second).changes }
        table.add(
            "diff two \(formatBytes(size)) states, a few changes", figure: formatSeconds(large.median),
            baseline: "-", ratio: "-", target: "< 20 ms", met: large.median < 0.02)

        // Two lists of 10,000 items, one inserted.
        let list = (0..<10_000).map { JSONValue.number(String($0)) }
        var inserted = list
        inserted.insert(.string("new"), at: 5_000)
        var changes: [StateChange] = []
        let lists = Measurement.run(runs: 9) { changes = StateDiff(from: .array(list), to: .array(inserted)).changes }
        table.add(
            "diff two 10,000-item lists, one inserted (\(changes.count) change)", figure: formatSeconds(lists.median),
            baseline: "-", ratio: "-", target: "< 20 ms", met: lists.median < 0.02 && changes.count == 1)
    }
}

/// A small deterministic generator (SplitMix64), so the benchmark's data is the same every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
