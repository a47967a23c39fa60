import Foundation
import TestSupport
import Testing
import TraceReader

#if canImport(Glibc)
    import Glibc
#endif

/// A process that records is killed (SIGKILL) at a random moment, a hundred times over. Each
/// trace it leaves must validate with no error and at most one `truncated` warning (the line
/// being written when the kill came), and must hold every action that had returned before the
/// kill: the guarantee that a trace survives its app being killed.
@Suite struct KillLoopTests {
    /// The seed of the kill delays; change it to explore other moments, keep it to replay a failure.
    static let seed: UInt64 = 0x5EED_C0DE
    static let iterations = 100

    @Test func everyKilledRecordingLeavesAValidTraceWithEveryReturnedAction() throws {
        let folder = try TemporaryFolder()
        var random = SeededGenerator(seed: Self.seed)
        var truncatedTraces = 0
        var sentTotal = 0
        for iteration in 0..<Self.iterations {
            let delay = UInt32.random(in: 0...30_000, using: &random)  // microseconds
            let run = try KilledRecording(
                trace: folder.path("kill-\(iteration).jsonl"), output: folder.path("kill-\(iteration).out"),
                delay: delay)
            let context = "iteration \(iteration) (seed \(Self.seed), kill after \(delay) µs)"
            #expect(run.wasReady, "\(context): the probe did not start recording")
            #expect(run.wasKilled, "\(context): the probe ended before the kill")

            let report = try TraceValidator().validate(file: run.trace)
            #expect(report.errors == 0, "\(context): \(report.problems)")
            #expect(report.problems.allSatisfy { $0.kind == .truncated }, "\(context): \(report.problems)")
            #expect(report.problems.count <= 1, "\(context): \(report.problems)")
            truncatedTraces += report.problems.isEmpty ? 0 : 1

            // Every action the probe reported as returned is in the trace: the last event's
            // counter is at least the last K of `sent K`, and the events are one per action.
            let trace = try TraceFile(path: run.trace)
            let lastSent = run.sent.last ?? 0
            sentTotal += lastSent
            #expect(run.sent == (lastSent == 0 ? [] : Array(1...lastSent)), "\(context): \(run.sent)")
            let events = trace.eventCount
            #expect(events >= 1 + lastSent, "\(context): \(events) events for \(lastSent) returned actions")
            let last = try #require(trace.event(at: events - 1), "\(context)")
            let switches = trace.state(of: "LightStore", atStep: trace.lastStep)?["switches"]?.intValue
            #expect((switches ?? -1) >= lastSent, "\(context): counter \(switches ?? -1), last sent \(lastSent)")
            #expect(last.seq == events, "\(context)")
        }
        // The loop exercised what it is meant to: kills in the middle of recording.
        #expect(sentTotal > Self.iterations, "the probe was killed before it recorded anything")
        print(
            "KillLoopTests: \(Self.iterations) kills, \(sentTotal) actions returned in all, \(truncatedTraces) traces ended in a torn line"
        )
    }
}

/// One run of `TraceProbe`: started, left to record until it prints `ready` and then for
/// `delay` microseconds more, killed with SIGKILL, and waited for. Its standard output goes to a
/// file, not a pipe, so the child never blocks on a full pipe and every `sent K` it wrote before
/// the kill can be read afterwards.
struct KilledRecording {
    let trace: String
    /// The K of every complete `sent K` line the probe printed, in order.
    let sent: [Int]
    /// Whether the probe printed `ready` (it had written its header) before the kill.
    let wasReady: Bool
    /// Whether the probe was still running when it was killed (it ends by the signal).
    let wasKilled: Bool

    init(trace: String, output: String, delay: UInt32) throws {
        self.trace = trace
        let process = try ChildProcess(Probe.executable.path, [trace, "100000000"], output: .file(output))

        // Wait for `ready` (the header and the register event are written), at most 10 s.
        let deadline = Date().addingTimeInterval(10)
        while !(Self.read(output).hasPrefix("ready\n")), !process.hasEnded, Date() < deadline {
            usleep(200)
        }
        wasReady = Self.read(output).hasPrefix("ready\n")
        usleep(delay)
        process.send(SIGKILL)
        wasKilled = process.wait() == .signalled(SIGKILL)

        // Only complete lines count: a `sent K` without its `\n` was cut by the kill.
        let text = Self.read(output)
        sent = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .compactMap { line in line.hasPrefix("sent ") ? Int(line.dropFirst(5)) : nil }
    }

    private static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}
