import Foundation
import TraceReader

/// Opening a large trace and moving through it, as `inspector step` does: the time to open
/// (the first screen needs nothing more), the index's bytes per event, and the time to move to
/// the next, previous and far-end steps (each: the event, its store's state before it, the diff).
enum OpeningBenchmark {
    static func run(into table: inout ResultTable, folder: String, megabytes: Int) throws {
        let path = "\(folder)/open-\(megabytes).jsonl"
        print("Opening: writing a \(megabytes) MB trace…")
        let events = try TraceGenerator.write(path: path, bytes: megabytes << 20)
        let size = TraceGenerator.size(of: path)
        defer { try? FileManager.default.removeItem(atPath: path) }

        resetPeakMemory()
        let before = currentPeakMemory()
        var opened: TraceFile?
        let open = try Measurement.run(runs: 3, warmUp: false) { opened = try TraceFile(path: path) }
        let memory = max(0, currentPeakMemory() - before)
        guard let trace = opened else { throw BenchmarkError("could not open the trace") }
        table.add(
            "open a \(formatBytes(size)) trace (\(events) events) for step", figure: formatSeconds(open.median),
            baseline: "-", ratio: "-", target: megabytes >= 1000 ? "< 1 s" : "< 1 s for 1 GB (--large)",
            met: megabytes >= 1000 ? open.median < 1 : nil)
        let indexPerEvent = Double(trace.indexByteCount) / Double(trace.eventCount)
        table.add(
            "the index, per event", figure: String(format: "%.1f B", indexPerEvent),
            baseline: "-", ratio: "-", target: "≤ 24 B", met: indexPerEvent <= 24)
        let perEvent = Double(memory) / Double(trace.eventCount)
        // Building the index: each piece's arrays grow by doubling, and the pieces and the
        // joined index are in memory together for a while. (The file is read, not mapped, so
        // none of its pages count.)
        table.add(
            "peak resident memory while opening, per event (building the index)",
            figure: String(format: "%.1f B", perEvent),
            baseline: "-", ratio: "-", target: "(for scale)", met: nil)

        func moveCost(to step: Int) -> Double {
            Measurement.run(runs: 9, warmUp: false) {
                guard let index = trace.eventIndex(atStep: step), let event = trace.event(at: index),
                    let store = event.store, let after = event.state
                else { return }
                let before = trace.state(of: store, atStep: max(0, step - 1)) ?? .null
                _ = StateDiff(from: before, to: after).changes
            }.median
        }
        let middle = trace.lastStep / 2
        let worst =
            [moveCost(to: middle + 1), moveCost(to: middle - 1), moveCost(to: trace.lastStep), moveCost(to: 1)].max()
            ?? .nan
        table.add(
            "move to a step (next, previous, either end) in \(formatBytes(size))", figure: formatSeconds(worst),
            baseline: "-", ratio: "-", target: "< 20 ms", met: worst < 0.02)
    }
}
