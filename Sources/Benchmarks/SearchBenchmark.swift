import Foundation
import TraceQueries
import TraceReader

/// The step view's search over a whole 200 MB trace for text it does not hold, the longest a
/// search takes (issue 36): the byte scan `TraceFile.forEachEvent(containing:)` that the view and
/// piped `find` run before decoding any candidate, against `grep -c` of the same text on the same
/// file, in turns; the same for absent text beside a common word (`QQQ loading`), where only the
/// lines that hold every word are decoded; the step view's filters on that trace (a move in a
/// store filter, the one scan of an action's events); then piped `inspector step … find TEXT`
/// as a whole process (opening included) beside `grep -c` as a process.
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

        try commonWord(trace, path: path, size: size, into: &table)
        try filterMoves(trace, path: path, size: size, into: &table)

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

    /// Absent text beside a word most lines hold: the byte scan for the longest word (`loading`)
    /// keeps only the lines that hold the other too, and each line kept is decoded, as the view's
    /// search decodes it; against `grep -c` of the text.
    static func commonWord(_ trace: TraceFile, path: String, size: Int, into table: inout ResultTable) throws {
        var decoded = 0
        let turns = try Measurement.interleaved([
            (
                1,
                {
                    trace.forEachEvent(
                        containing: Array("loading".utf8), andAll: [Array("qqq".utf8)], in: 0..<trace.eventCount
                    ) { index in
                        if trace.event(at: index) != nil { decoded += 1 }
                        return true
                    }
                }
            ),
            (1, { _ = timeShell("grep -c -F 'QQQ loading' '\(path)'") }),
        ])
        guard decoded == 0 else { throw BenchmarkError("the generated trace holds the searched text") }
        let ratio = turns[0].median / turns[1].median
        table.add(
            "search \(formatBytes(size)) for absent text with a common word (`QQQ loading`) vs grep -c",
            figure: formatSeconds(turns[0].median), baseline: "grep -c \(formatSeconds(turns[1].median))",
            ratio: "\(formatRatio(ratio)) grep's time", target: "≤ 20× grep", met: ratio <= 20)
    }

    /// The step view's filters: → and ← in a store filter (binary search over the store's events
    /// in the index, from 1,000 places across the trace), and the one scan an action filter makes,
    /// in the background, of its action's events (after which it moves as the store filter does).
    static func filterMoves(_ trace: TraceFile, path: String, size: Int, into table: inout ResultTable) throws {
        let places = (0..<1000).map { $0 * trace.eventCount / 1000 }
        var found = 0
        let moves = Measurement.run(operations: 2 * places.count) {
            for place in places {
                if trace.eventIndex(of: "CartStore", after: place) != nil { found += 1 }
                if trace.eventIndex(of: "CartStore", before: place) != nil { found += 1 }
            }
        }
        guard found > 0 else { throw BenchmarkError("the generated trace has no CartStore event") }
        table.add(
            "step view: → or ← in a store filter, \(formatBytes(size)) (the index's events of the store)",
            figure: formatSeconds(moves.median), baseline: "-", ratio: "-", target: "< 100 ms", met: moves.median < 0.1)
        var adds = 0
        let scans = try Measurement.interleaved(
            runs: 3,
            [
                (1, { adds = trace.eventIndices(ofAction: "add")?.count ?? 0 }),
                (1, { _ = timeShell("grep -c -F '\"action\":\"add\"' '\(path)'") }),
            ])
        guard adds > 0 else { throw BenchmarkError("the generated trace has no add event") }
        table.add(
            "step view: an action filter's one scan of its events (in the background), \(formatBytes(size))",
            figure: formatSeconds(scans[0].median), baseline: "grep -c \(formatSeconds(scans[1].median))",
            ratio: "\(formatRatio(scans[0].median / scans[1].median)) grep's time", target: "(for scale)", met: nil)
    }
}
