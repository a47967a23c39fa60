import Foundation
import TestSupport
import Testing

/// The same run gives the same bytes: two processes (each with its own random hashing seed, so
/// their dictionaries and sets iterate in different orders) record one scenario, and their traces
/// agree on every line but for `elapsed` and the header's `started`.
@Suite struct DeterministicTraceTests {
    /// The lines of the trace at `path`, with the wall-clock and monotonic times taken out.
    static func timelessLines(at path: String) throws -> [String] {
        try traceLines(at: path).map { line in
            line.replacing(/"elapsed":[0-9.e+-]+/, with: #""elapsed":0"#)
                .replacing(/"started":"[^"]*"/, with: #""started":"""#)
        }
    }

    @Test func twoProcessesRecordingOneScenarioWriteTheSameBytes() throws {
        let folder = try TemporaryFolder()
        var runs: [[String]] = []
        for run in 1...2 {
            let path = folder.path("run-\(run).jsonl")
            let probe = try Probe(arguments: [path, "60", "--inventory"])
            _ = probe.wait(for: "never")
            #expect(probe.process.wait() == .exited(0))
            runs.append(try Self.timelessLines(at: path))
        }
        #expect(runs[0].count == 3 + 60 * 2)  // header, two registers, two events an action
        #expect(runs[0].contains { $0.contains(#""tags":["tag-0","tag-1","#) })
        for (index, (first, second)) in zip(runs[0], runs[1]).enumerated() where first != second {
            Issue.record("line \(index + 1) differs:\n\(first)\n\(second)")
            break
        }
        #expect(runs[0] == runs[1])
    }
}
