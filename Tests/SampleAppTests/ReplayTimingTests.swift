import Foundation
import TestSupport
import Testing

@testable import SampleApp

/// `sample-app replay --check TRACE --time RUNS`, which the benchmarks' replay row reads: the
/// replay and the recording timed in the process, and one line the benchmark can parse.
@Suite struct ReplayTimingTests {
    @Test func timesTheReplayAgainstTheRecordingPerAction() throws {
        let path = packageRoot.appendingPathComponent("traces/undo.jsonl").path
        let scenario = try #require(Scenario.named("undo"))
        let timing = try ReplayTiming(path: path, scenario: scenario, runs: 3)
        #expect(timing.actions == 19)
        #expect(timing.replaySeconds > 0 && timing.recordSeconds > 0)
        // The recording is the shop's own work, not a process: well under a second.
        #expect(timing.recordSeconds < 1)
        let words = timing.line.split(separator: " ")
        #expect(words.first == "timed:" && words[1] == "19")
        let replay = try #require(words.firstIndex(of: "replay").flatMap { Double(words[$0 + 1]) })
        let recording = try #require(words.firstIndex(of: "recording").flatMap { Double(words[$0 + 1]) })
        #expect(abs(replay - timing.replaySeconds / 19) < 1e-12 && abs(recording - timing.recordSeconds / 19) < 1e-12)
    }

    @Test func theCommandTimesAScenarioTraceAndRefusesAnyOther() throws {
        let undo = packageRoot.appendingPathComponent("traces/undo.jsonl").path
        let timed = runApp(["replay", "--check", undo, "--time", "1"])
        #expect(timed.status == 0 && timed.output.hasPrefix("timed: 19 actions, replay "), "\(timed)")
        let folder = try TemporaryFolder()
        let copy = folder.path("not-a-scenario.jsonl")
        try String(contentsOfFile: undo, encoding: .utf8).write(toFile: copy, atomically: true, encoding: .utf8)
        let refused = runApp(["replay", "--check", copy, "--time", "1"])
        #expect(refused.status == 2 && refused.errors.contains("--time times a scenario's trace"), "\(refused)")
    }
}
