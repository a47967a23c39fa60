import Foundation
import TraceReader

/// The step view's search over a whole 200 MB trace for text it does not hold, the longest a
/// search takes (issue 36): the byte scan `TraceFile.forEachEvent(containing:)` that the view and
/// piped `find` run before decoding any candidate, against `grep -c` of the same text on the same
/// file, in turns; then piped `inspector step … find TEXT` as a whole process (opening included)
/// beside `grep -c` as a process.
enum SearchBenchmark {
    static func run(into table: inout ResultTable, folder: String, megabytes: Int = 200) throws {
        let path = "\(folder)/search-\(megabytes).jsonl"
        print("Search: writing a \(megabytes) MB trace…")
        let events = try TraceGenerator.write(path: path, bytes: megabytes << 20)
        let size = TraceGenerator.size(of: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard isInstalled("grep") else {
            print("  (no grep: the search row needs it)")
            return
        }
        let trace = try TraceFile(path: path)
        let token = Array("qqqnothere".utf8)
        var hits = 0
        let turns = try Measurement.interleaved([
            (
                1,
                {
                    trace.forEachEvent(containing: token, in: 0..<trace.eventCount) { _ in
                        hits += 1
                        return true
                    }
                }
            ),
            (1, { _ = timeShell("grep -c -F 'QQQNOTHERE' '\(path)'") }),
        ])
        guard hits == 0 else { throw BenchmarkError("the generated trace holds the searched text") }
        let ratio = turns[0].median / turns[1].median
        table.add(
            "search \(formatBytes(size)) (\(events) events) for absent text vs grep -c",
            figure: formatSeconds(turns[0].median), baseline: "grep -c \(formatSeconds(turns[1].median))",
            ratio: "\(formatRatio(ratio)) grep's time", target: "≤ 20× grep", met: ratio <= 20)

        guard let inspector = inspectorBesideBenchmark(peer: "grep") else { return }
        let piped = try Measurement.interleaved(
            runs: 3,
            [
                (1, { _ = timeShell("printf 'find QQQNOTHERE\\n' | '\(inspector)' step '\(path)' > /dev/null") }),
                (1, { _ = timeShell("grep -c -F 'QQQNOTHERE' '\(path)'") }),
            ])
        table.add(
            "piped step find of absent text, \(formatBytes(size)), whole process (opening included)",
            figure: formatSeconds(piped[0].median), baseline: "grep -c \(formatSeconds(piped[1].median))",
            ratio: "\(formatRatio(piped[0].median / piped[1].median)) grep's time", target: "—", met: nil)
    }
}
