import Recorder
@_spi(RewindInternals) internal import RewindSupport
import TraceQueries
import TraceReader

/// `sample-app replay --check TRACE --time RUNS`: how long replaying a scenario's trace takes
/// in this process, per action, against how long the shop took to record it. Both are measured
/// here, `runs` times each, interleaved, and the medians kept, so that neither includes a
/// process's start (which is most of a whole `sample-app` run). The benchmarks' replay row
/// reads the line it prints.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct ReplayTiming {
    /// The transitions of the trace: what the shop sent while recording it.
    var actions: Int
    /// The median time of one replay (`ShopReplay.run`: opening the trace, a new shop, every
    /// action sent again, the comparison), in seconds.
    var replaySeconds: Double
    /// The median time of the scenario's shop recording its session, without drawing its
    /// screens, in seconds: to memory, as the replay's stores record (`TraceReplay` compares
    /// what they recorded).
    var recordSeconds: Double
    /// The number of runs of each.
    var runs: Int

    /// Times the replay of `path`, the trace of `scenario`, against its recording.
    /// - Throws: `ReplayError` when a replay does not replay exactly (then the time means
    ///   nothing), or the trace cannot be read.
    init(path: String, scenario: Scenario, runs: Int) throws {
        let trace = try TraceFile(path: path)
        actions = (0..<trace.eventCount).filter { trace.event(at: $0)?.type == "transition" }.count
        self.runs = runs
        var replays: [Double] = []
        var records: [Double] = []
        for _ in 0..<runs {
            var start = monotonicNanoseconds()
            let outcome: ReplayOutcome
            do {
                outcome = try ShopReplay.run(.file(path))
            } catch {
                throw ReplayError(error.path, line: error.line, error.message)
            }
            replays.append(Double(monotonicNanoseconds() - start) / 1e9)
            guard outcome.isExact else {
                throw ReplayError(path, line: 1, "the session does not replay exactly, so its time means nothing")
            }
            start = monotonicNanoseconds()
            var configuration = scenario.configuration
            configuration.policy = .record
            let shop = Shop(configuration: configuration, recorder: try Shop.recorder(sink: MemorySink()))
            shop.launch()
            for command in scenario.commands { _ = shop.run(command) }
            records.append(Double(monotonicNanoseconds() - start) / 1e9)
        }
        replaySeconds = replays.sorted()[replays.count / 2]
        recordSeconds = records.sorted()[records.count / 2]
    }

    /// One line: `timed: N actions, replay R s, recording S s per action (median of K runs, in this process)`.
    var line: String {
        let perAction = { (seconds: Double) in "\(seconds / Double(max(1, actions)))" }
        return
            "timed: \(actions) actions, replay \(perAction(replaySeconds)) s, recording \(perAction(recordSeconds)) s per action (median of \(runs) runs, in this process)\n"
    }
}
