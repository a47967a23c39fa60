import Foundation
import Recorder
import TraceQueries
import TraceReader

/// Replaying a recorded session (`TraceReplay`): the time per replayed action, against the time
/// the recorded store itself took per action (sending it with a recorder, as the recording did).
enum ReplayBenchmark {
    static func run(into table: inout ResultTable, folder: String) throws {
        try measureGenerated(into: &table, folder: folder, actions: 100_000)
        measureSampleApp(into: &table, folder: folder)
    }

    /// A store of the recording benchmark's ~500 B state, `actions` actions with an argument,
    /// recorded to a file; then replayed from it. The replay opens and indexes the trace, sends
    /// every action again into a store recording in memory, and compares the two runs.
    static func measureGenerated(into table: inout ResultTable, folder: String, actions: Int) throws {
        let path = "\(folder)/replay-\(actions).jsonl"
        func send(_ store: Store<RecordingBenchmark.ShopState>, _ count: Int) {
            for index in 0..<count {
                store.send("bump", args: ["by": index % 7]) { $0.version &+= index % 7 }
            }
        }
        let initial = RecordingBenchmark.state(items: 3)
        // The recorded session, and the baseline: the store's own time per action as recorded.
        let recording = try Measurement.run(runs: 3, operations: actions) {
            let store = Store(
                initialState: initial, name: "ShopStore", recorder: try TraceRecorder(path: path, replacing: true))
            send(store, actions)
        }
        print("Replay, a generated trace of \(actions) actions")
        var outcome: ReplayOutcome?
        let replay = try Measurement.run(runs: 3, operations: actions) {
            outcome = try TraceReplay(trace: path).run { recorder in
                let store = Store(initialState: initial, name: "ShopStore", recorder: recorder)
                var table = ReplayTable()
                table.on("ShopStore", "bump") { args in
                    let by = try args.int("by")
                    store.send("bump", args: ["by": by]) { $0.version &+= by }
                }
                return table
            }
        }
        guard let outcome, outcome.isExact, outcome.sentActions == actions else {
            throw BenchmarkError("the replay of the generated trace did not replay exactly")
        }
        let ratio = replay.median / recording.median
        table.add(
            "replay one action (send again, record, compare), a generated trace of \(actions) actions, ~500 B state",
            figure: formatSeconds(replay.median), baseline: "recording it \(formatSeconds(recording.median))",
            ratio: formatRatio(ratio), target: "(for scale)", met: nil)
        // Where the time goes: reading the plan (every event without its state), and the
        // comparison of two runs of the trace (here the trace with itself).
        let plan = try Measurement.run(runs: 3, operations: actions) {
            let file = try TraceFile(path: path)
            for index in 0..<file.eventCount { _ = file.eventWithoutState(at: index) }
        }
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let comparison = try Measurement.run(runs: 3, operations: actions) {
            _ = try TraceComparison().compare(.file(path), .bytes(bytes, name: "copy"))
        }
        table.add(
            "… of which: opening the trace and reading each event without its state",
            figure: formatSeconds(plan.median), baseline: "replay \(formatSeconds(replay.median))",
            ratio: formatRatio(plan.median / replay.median), target: "(for scale)", met: nil)
        table.add(
            "… of which: comparing the two runs (TraceComparison, as inspector compare)",
            figure: formatSeconds(comparison.median), baseline: "replay \(formatSeconds(replay.median))",
            ratio: formatRatio(comparison.median / replay.median), target: "(for scale)", met: nil)
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The sample app's longest committed trace, replayed in the `sample-app` process
    /// (`replay --check TRACE --time 9`: the benchmarks cannot link an executable's code), against
    /// the scenario's shop recording the same session in that process: per action, medians of 9
    /// runs of each, interleaved, without the process's start (which was most of a whole run).
    static func measureSampleApp(into table: inout ResultTable, folder: String) {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("sample-app").path
        let longest = ["traces/happy-path.jsonl", "traces/flaky-network.jsonl", "traces/undo.jsonl"]
            .max { lineCount($0) < lineCount($1) }
        guard FileManager.default.isExecutableFile(atPath: binary), let longest else {
            print("Replay of the sample app's trace: skipped (build sample-app, and run from the package's root)")
            return
        }
        // "timed: N actions, replay R s, recording S s per action (median of K runs, in this process)"
        guard let timed = timeShell("'\(binary)' replay --check '\(longest)' --time 9")?.output,
            let line = timed.split(separator: "\n").first(where: { $0.hasPrefix("timed: ") })
        else {
            print("Replay of the sample app's trace: skipped (sample-app replay --time failed)")
            return
        }
        let words = line.split(separator: " ")
        func number(after word: String) -> Double? {
            words.firstIndex(of: Substring(word)).flatMap {
                words.index(after: $0) < words.endIndex ? Double(words[$0 + 1]) : nil
            }
        }
        guard let actions = words.dropFirst().first.flatMap({ Int($0) }), let replay = number(after: "replay"),
            let record = number(after: "recording")
        else {
            print("Replay of the sample app's trace: skipped (could not read \(line))")
            return
        }
        table.add(
            "replay \(longest) (\(actions) actions) in process (ShopReplay: open, send again, compare), per action",
            figure: formatSeconds(replay), baseline: "the shop recording it \(formatSeconds(record))",
            ratio: formatRatio(replay / record), target: "(for scale)", met: nil)
    }

    private static func lineCount(_ path: String) -> Int {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").count
    }
}
