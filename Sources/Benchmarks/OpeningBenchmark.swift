import Foundation
import TraceJSON
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
        if let inspector = inspectorBesideBenchmark(peer: "script") {
            // Whole processes through a pseudo-terminal: the first megabyte is indexed at once,
            // the rest in the background (issue 21).
            let screens = (0..<3).compactMap { _ in
                FirstScreenMeasurement.seconds(inspector: inspector, trace: path)
            }.sorted()
            let median = screens.isEmpty ? Double.nan : screens[screens.count / 2]
            table.add(
                "inspector step on a terminal, first screen, \(formatBytes(size)) (whole process, pty)",
                figure: formatSeconds(median), baseline: "-", ratio: "-", target: "< 100 ms",
                met: screens.isEmpty ? nil : median < 0.1)
        }
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
        try runPatched(into: &table, folder: folder, megabytes: megabytes)
    }

    /// The same on a version 2 trace, whose states are rebuilt from patches: the cost of a move
    /// is at worst the patches after its store's latest whole state (1,024 at most).
    static func runPatched(into table: inout ResultTable, folder: String, megabytes: Int) throws {
        let path = "\(folder)/open-v2-\(megabytes).jsonl"
        print("Opening: writing a \(megabytes) MB version 2 trace…")
        let (events, farthest) = try PatchedTraceGenerator.write(path: path, bytes: megabytes << 20)
        let size = TraceGenerator.size(of: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var opened: TraceFile?
        let open = try Measurement.run(runs: 3, warmUp: false) { opened = try TraceFile(path: path) }
        guard let trace = opened else { throw BenchmarkError("could not open the version 2 trace") }
        table.add(
            "open a \(formatBytes(size)) version 2 trace (\(events) events, most patches) for step",
            figure: formatSeconds(open.median), baseline: "-", ratio: "-",
            target: megabytes >= 1000 ? "< 1 s" : "< 1 s for 1 GB (--large)",
            met: megabytes >= 1000 ? open.median < 1 : nil)
        let indexPerEvent = Double(trace.indexByteCount) / Double(trace.eventCount)
        table.add(
            "the index of a version 2 trace, per event", figure: String(format: "%.1f B", indexPerEvent),
            baseline: "-", ratio: "-", target: "≤ 24 B", met: indexPerEvent <= 24)

        /// What `inspector step` does at a step: the event, its store's state before and after
        /// (before first, as `StepSession` reads them), the diff.
        func move(to step: Int) {
            guard let index = trace.eventIndex(atStep: step), let event = trace.event(at: index),
                let store = event.store
            else { return }
            let before = trace.state(of: store, atStep: step - 1) ?? .null
            let after = trace.state(of: store, atStep: step) ?? .null
            _ = StateDiff(from: before, to: after).changes
        }
        /// The time of `move(to: step)` just after `move(to: from)`.
        func moveCost(from: Int, to step: Int) -> Double {
            var samples: [Double] = []
            for _ in 0..<9 {
                move(to: from)
                let start = DispatchTime.now().uptimeNanoseconds
                move(to: step)
                samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            return Measurement(samples: samples).median
        }
        // `farthest` is the 1,024th patch after a whole state; the step before it is of the
        // same store unless it is a cart's (one step in four).
        let previous = farthest % 4 == 1 ? farthest - 2 : farthest - 1
        let jump = moveCost(from: 1, to: farthest)
        let back = moveCost(from: farthest, to: previous)
        let next = moveCost(from: previous, to: farthest)
        table.add(
            "move to a step of a version 2 trace, 1,024 patches after a whole state (jump, previous, next)",
            figure: "\(formatSeconds(jump)), \(formatSeconds(back)), \(formatSeconds(next))", baseline: "-", ratio: "-",
            target: "< 20 ms", met: max(jump, back, next) < 0.02)
    }
}
