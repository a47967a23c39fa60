import Foundation
import TraceJSON
import TraceQueries
import TraceReader

/// Diffs: two 100 KB states that differ in a few places, two lists of 10,000 items with one
/// inserted, and two states of a trace that each hold a list of 1,000,000 items (one inserted in
/// the middle, one changed near the start: 4 changes), diffed from the trace as `inspector diff` does, with
/// the peak memory it takes.
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

        try runLargeList(into: &table)
    }

    /// Two states of 1,000,000 items each, in a trace: read as texts, diffed, and printed (to
    /// nowhere) as the folded tree. Memory is the peak resident size the diff adds.
    private static func runLargeList(into table: inout ResultTable) throws {
        let path = NSTemporaryDirectory() + "rewind-diff-\(getpid()).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        func item(_ index: Int) -> String {
            #"{"id":\#(index),"title":"Item \#(index)","price":\#(index % 100).99,"tags":["a","b"]}"#
        }
        var items = (0..<1_000_000).map(item)
        let first = #"{"items":["# + items.joined(separator: ",") + "]}"
        items.insert(item(9_999_999), at: 500_000)
        items[10] = item(8_888_888)
        let second = #"{"items":["# + items.joined(separator: ",") + "]}"
        items = []
        let trace =
            [
                #"{"type":"header","format":"rewind-trace","version":1,"machines":{}}"#,
                #"{"type":"register","seq":1,"store":"CatalogStore","state":"# + first + "}",
                #"{"type":"transition","seq":2,"store":"CatalogStore","action":"add","changed":true,"state":"# + second
                    + "}",
            ].joined(separator: "\n") + "\n"
        try trace.write(toFile: path, atomically: false, encoding: .utf8)
        let size = first.utf8.count
        let file = try TraceFile(path: path)

        resetPeakMemory()
        let before = currentPeakMemory()
        var printed = 0
        var changes = 0
        let timing = Measurement.run(runs: 3, warmUp: false) {
            let diff = StateDiff(from: file.appStateText(atStep: 1), to: file.appStateText(atStep: 2))
            printed = 0
            StateDiffPrinter(width: 100).write(diff) { printed += $0.count }
            changes = diff.changes.count
        }
        let memory = max(0, currentPeakMemory() - before)
        table.add(
            "diff two 1,000,000-item lists (\(formatBytes(size)) states) from a trace, \(changes) changes",
            figure: formatSeconds(timing.median), baseline: "-", ratio: "-", target: "< 3 s",
            met: timing.median < 3 && changes == 4 && printed > 0)
        let times = Double(memory) / Double(size)
        table.add(
            "… its peak memory, against the state's size", figure: formatBytes(memory),
            baseline: "state \(formatBytes(size))", ratio: String(format: "%.1f×", times), target: "≤ 5×",
            met: times <= 5)
        // The whole `inspector diff` process, as a person runs it: opening, both states, the
        // printed diff (issue 21).
        guard let inspector = inspectorBesideBenchmark(peer: "/usr/bin/time"),
            let output = timeShell("/usr/bin/time -f %M '\(inspector)' diff '\(path)' 2 2>&1 > /dev/null | tail -1"),
            let kilobytes = Int(output.output.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return }
        let processTimes = Double(kilobytes * 1024) / Double(size)
        table.add(
            "peak memory of inspector diff on those states (whole process)", figure: formatBytes(kilobytes * 1024),
            baseline: "state \(formatBytes(size))", ratio: String(format: "%.1f×", processTimes), target: "≤ 5×",
            met: processTimes <= 5)
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
