import Foundation
import Recorder
import TestSupport
import Testing

@testable import Inspector
@testable import TraceReader

/// `log` reads the trace once as a stream: its rows are those the whole-file reading printed
/// (`TraceFile`, validation of the whole file first), printed as the reading reaches them.
@Suite struct LogStreamingTests {
    static let traces: [String] = {
        let root = packageRoot.appendingPathComponent("traces")
        let found = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return found.filter { $0.hasSuffix(".jsonl") }.sorted().map { root.appendingPathComponent($0).path }
    }()

    /// The traces that the streaming tests take are there: with `traces/` missing or moved, the
    /// tests that take them as arguments would run no case at all, and pass.
    @Test func theStreamingTestsHaveTracesToRead() {
        #expect(Self.traces.count >= 15, "\(Self.traces.count) traces found under traces/")
        #expect(Self.traces.contains { $0.hasSuffix("/traces/invalid/double-refresh.jsonl") })
    }

    /// The trace at `path`, opened; or nil for one that does not open (an unknown version, a
    /// machine that is not shaped), after checking that `arguments` refuse it as the command
    /// should: status 2, an error naming the file. So a trace that stops opening by mistake
    /// fails the test instead of skipping it.
    static func openOrExpectRefusal(_ path: String, _ arguments: [String]) throws -> TraceFile? {
        do {
            return try TraceFile(path: path)
        } catch {
            let refusals = ["/traces/invalid/bad-machine.jsonl", "/traces/invalid/unknown-version.jsonl"]
            #expect(refusals.contains { path.hasSuffix($0) }, "\(path) does not open: \(error)")
            let result = inspector(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.err.contains(path), "\(arguments): \(result.err)")
            return nil
        }
    }

    /// What `log` printed when it opened the whole trace and validated it before printing: the
    /// columns sized from the first 500 events, each event's row marked with its line's problems.
    /// Problems on lines that are not events come in line order among the rows, and problems
    /// found only at the end (`unresolved`) after the rows.
    static func logOfWholeTrace(_ path: String, store: String? = nil, onlyProblems: Bool = false) throws -> String {
        let trace = try TraceFile(path: path)
        let report = try trace.validate()
        let late = report.problems.filter { $0.kind == .unresolved }
        let problems = Dictionary(grouping: report.problems.filter { $0.kind != .unresolved }, by: \.line)
        let format = EventLine.fitting(
            (0..<min(trace.eventCount, 500)).compactMap { trace.event(at: $0) }, style: Style(enabled: false))
        var out = ""
        var nextLine = 1
        let sourceRoot = SourceRoot()
        func problemLines(before line: Int) {
            guard onlyProblems else { return }
            for (number, list) in problems.sorted(by: { $0.key < $1.key })
            where number >= nextLine && number < line && list.allSatisfy({ $0.seq == nil }) {
                for problem in list {
                    out +=
                        "line \(number): \(problem.severity.rawValue): \(problem.kind): \(TTY.safe(problem.message))\n"
                }
            }
            nextLine = line
        }
        for index in 0..<trace.eventCount {
            let event = try #require(trace.event(at: index))
            problemLines(before: event.line + 1)
            if let store, event.store != store { continue }
            let found = problems[event.line] ?? []
            if onlyProblems && found.isEmpty { continue }
            out += format.text(event, problems: found) + "\n"
            if onlyProblems {
                for problem in found {
                    out += "        \(problem.severity.rawValue): \(TTY.safe(problem.message))\n"
                    // The call stack, as `validate`'s text format folds it (issue 36).
                    if let note = CallStackText.note(for: problem, sourceRoot: sourceRoot) {
                        out += "        \(note)\n"
                    }
                }
            }
        }
        problemLines(before: Int.max)
        let shown = late.filter { store == nil || $0.store == store }
        if !shown.isEmpty {
            out += "found at the end of the trace:\n"
            for problem in shown {
                out +=
                    "line \(problem.line): \(problem.severity.rawValue): \(problem.kind): \(TTY.safe(problem.message))\n"
            }
        }
        return out
    }

    @Test(arguments: traces) func rowsAreThoseOfTheWholeTrace(path: String) throws {
        let opened = Result { () throws(TraceOpenError) in try TraceFile(path: path) }
        if case .failure(let error) = opened {
            // Not a trace: the same error as opening it says, and no row.
            let result = inspector(["log", path])
            #expect(result.status == 2 && result.out.isEmpty && result.err.contains(error.message))
            return
        }
        if path.hasSuffix("cause-loop.jsonl") {
            // The loop's problem is printed when reached, then with its final count at the end.
            let out = inspector(["log", path, "--problems"]).out
            let final = try #require(try TraceFile(path: path).validate().problems.first)
            #expect(
                out.hasSuffix(
                    "found at the end of the trace:\nline \(final.line): warning: cause-loop: \(final.message)\n"))
            #expect(out.hasPrefix(try Self.logOfWholeTrace(path, onlyProblems: true).split(separator: "\n")[0] + "\n"))
        } else {
            #expect(inspector(["log", path, "--problems"]).out == (try Self.logOfWholeTrace(path, onlyProblems: true)))
        }
        #expect(inspector(["log", path]).out == (try Self.logOfWholeTrace(path)))
        if let store = try TraceFile(path: path).storeNames.last {
            #expect(inspector(["log", path, "--store", store]).out == (try Self.logOfWholeTrace(path, store: store)))
        }
    }

    @Test func committedTracesAreFound() {
        #expect(Self.traces.count >= 10)
    }

    /// Rows are printed as the reading reaches them: once the columns are sized (the first 500
    /// events), each event's row is out (in the output's buffers: the stream's, or the rows
    /// gathered for it, less than 64 KB) before the next line is read, and no more than 500 rows
    /// are ever held before their columns are sized.
    @Test func rowsArePrintedBeforeTheTraceEnds() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink)
        let store = Store(initialState: Cart(), name: "CartStore", recorder: recorder)
        for index in 0..<1200 { store.send("add") { $0.items.append("item \(index)") } }
        let console = Console.capturing()
        var rows = LogRows(path: "t", options: LogRows.Options(), console: console)
        var printedWhenRead: [Int] = []
        try TraceStream(bytes: sink.data).forEachScannedLine { line in
            _ = rows.add(line)
            #expect(rows.gatheredText.utf8.count < LogRowBuffer.flushSize)
            printedWhenRead.append((console.out.text + rows.gatheredText).split(separator: "\n").count)
            return true
        }
        #expect(printedWhenRead.count == 1201)
        #expect(printedWhenRead[..<(LogRows.sampleEvents - 1)].allSatisfy { $0 == 0 })
        for (index, printed) in printedWhenRead.enumerated() where index >= LogRows.sampleEvents - 1 {
            #expect(printed == index + 1)
        }
    }

    /// On a trace of large states the columns are sized from the first 4 MB, so the first rows
    /// do not wait for 500 large events.
    @Test func columnsOfLargeStatesAreSizedFromTheFirstMegabytes() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink)
        let store = Store(initialState: Cart(), name: "CartStore", recorder: recorder)
        let large = String(repeating: "x", count: 1 << 20)
        for _ in 0..<8 { store.send("add") { $0.items = [large] } }
        let console = Console.capturing()
        var rows = LogRows(path: "t", options: LogRows.Options(), console: console)
        var firstPrintedAt: Int?
        try TraceStream(bytes: sink.data).forEachScannedLine { line in
            _ = rows.add(line)
            if firstPrintedAt == nil && !console.out.text.isEmpty { firstPrintedAt = line.end }
            return true
        }
        let end = try #require(firstPrintedAt)
        #expect(end >= LogRows.sampleBytes && end < LogRows.sampleBytes + (2 << 20))
    }

    /// A generated trace longer than the rows that size the columns, so that most rows are
    /// written from their bytes (`EventLineWriter`): recorder lines among awkward ones (escaped,
    /// non-ASCII and control characters, wrong types, numbers in every spelling, problems),
    /// version 1 and 2 (patches, one that does not apply), a torn last line.
    static func generatedTrace(seed: UInt64, version: Int, torn: Bool) -> String {
        var random = SeededGenerator(seed: seed)
        let awkward = EventLineWriterTests.randomLines(seed: seed, count: 300)
        var lines = [
            #"{"type":"header","format":"rewind-trace","version":\#(version),"machines":{"CatalogStore":{"initial":"idle","transitions":{"idle":["loading"],"loading":["loaded"],"loaded":["loading"]}}}}"#,
            #"{"type":"register","seq":1,"elapsed":0.0001,"store":"CatalogStore","case":"idle","state":{"idle":{}}}"#,
            #"{"type":"register","seq":2,"elapsed":0.0002,"store":"CartStore","state":{"skus":[]}}"#,
        ]
        var seq = 2
        var phase = "idle"
        for index in 0..<1500 {
            seq += 1
            let elapsed = String(format: "%.6f", Double(index) * 0.000137)
            switch Int.random(in: 0..<10, using: &random) {
            case 0:
                lines.append(awkward[index % awkward.count])
            case 1, 2, 3:
                let next = phase == "loading" ? "loaded" : "loading"
                lines.append(
                    #"{"type":"transition","seq":\#(seq),"elapsed":\#(elapsed),"store":"CatalogStore","action":"to\#(next)","from":"\#(phase)","to":"\#(next)","changed":true,"state":{"\#(next)":{}},"source":"CatalogView.swift:12"}"#
                )
                phase = next
            case 4 where version == 2:
                let path = Int.random(in: 0..<8, using: &random) == 0 ? "/missing/0" : "/skus/-"
                lines.append(
                    #"{"type":"transition","seq":\#(seq),"elapsed":\#(elapsed),"store":"CartStore","action":"add","changed":true,"patch":[{"op":"add","path":"\#(path)","value":"SKU-\#(index)"}],"source":"CartView.swift:40","cause":2,"args":{"sku":"SKU-\#(index)"}}"#
                )
            case 5:
                lines.append(
                    #"{"type":"transition","seq":\#(seq),"elapsed":\#(elapsed),"store":"\#(index % 2 == 0 ? "Unknown\(index % 3)" : "Caf\u{E9}")","action":"poke","changed":false,"state":{},"source":"X.swift:1"}"#
                )
            case 6:
                lines.append(#"{"type":"transition","seq":\#(seq + 5),"store":"CartStore","action":"skip"}"#)
            default:
                lines.append(
                    #"{"type":"transition","seq":\#(seq),"elapsed":\#(elapsed),"store":"CartStore","action":"add","changed":\#(index % 7 != 0),"state":{"skus":["SKU-\#(index)"],"note":"gift wrap, please"},"source":"CartView.swift:40","cause":2,"args":{"sku":"SKU-\#(index)","quantity":\#(index % 5)}}"#
                )
            }
        }
        var text = lines.joined(separator: "\n") + "\n"
        if torn { text += #"{"type":"transition","seq":99999,"store":"CartSt"# }
        return text
    }

    /// `log` of long generated traces is what the whole-file reading printed, row for row, with
    /// and without options.
    @Test(arguments: [(1, 1, false), (2, 1, true), (3, 2, false), (4, 2, true)] as [(UInt64, Int, Bool)])
    func rowsOfLongGeneratedTracesAreThoseOfTheWholeTrace(seed: UInt64, version: Int, torn: Bool) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("generated.jsonl")
        try Self.generatedTrace(seed: seed, version: version, torn: torn).write(
            toFile: path, atomically: false, encoding: .utf8)
        #expect(inspector(["log", path]).out == (try Self.logOfWholeTrace(path)))
        #expect(
            inspector(["log", path, "--store", "CartStore"]).out == (try Self.logOfWholeTrace(path, store: "CartStore"))
        )
        #expect(inspector(["log", path, "--problems"]).out == (try Self.logOfWholeTrace(path, onlyProblems: true)))
        // A name equal as a `String` but not in bytes (`é` decomposed) selects the same store.
        let decomposed = "Cafe\u{301}"
        let selected = inspector(["log", path, "--store", decomposed]).out
        #expect(selected == (try Self.logOfWholeTrace(path, store: decomposed)) && selected.contains("poke"))
    }

    /// A trace of several parts of 1 MB, whose later rows are written on the thread that scans
    /// the file (`EventPreparer`) while the rules check the lines before them: `log` prints the
    /// rows of the whole-file reading, in order, each with its problem marks, problems on the
    /// first and last lines of a part included.
    @Test func rowsOfATraceOfSeveralPartsAreThoseOfTheWholeTrace() throws {
        var text =
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{}}"# + "\n"
            + #"{"type":"register","seq":1,"elapsed":0.0001,"store":"CartStore","state":{"skus":[]}}"# + "\n"
        var seq = 1
        func event(padding: Int, seq: Int, changed: Bool = true) -> String {
            #"{"type":"transition","seq":\#(seq),"elapsed":\#(String(format: "%.6f", Double(seq) * 0.000137)),"store":"CartStore","action":"add","changed":\#(changed),"state":{"note":"\#(String(repeating: "x", count: padding))"},"source":"CartView.swift:40","args":{"sku":"SKU-\#(seq)"}}"#
                + "\n"
        }
        /// Events up to exactly `offset` bytes into the file (at least the shortest event away).
        func fill(to offset: Int) {
            while text.utf8.count < offset {
                let left = offset - text.utf8.count
                seq += 1
                let shortest = event(padding: 0, seq: seq).utf8.count
                let padding =
                    left - shortest >= 1_500 ? Int.random(in: 100..<min(1_000, left - shortest - 400)) : left - shortest
                text += event(padding: padding, seq: seq)
            }
        }
        fill(to: 1 << 20)
        // A malformed line first in part 1, and the event after it.
        text += #"{"type":"transition","seq":"# + "\n"
        fill(to: (2 << 20) - 2_000)
        // A line that ends a part with a problem (a gap in the seqs), and the next part starts
        // with another (no change, and a seq that goes back).
        let gap = event(padding: 0, seq: seq + 3)
        seq += 3
        fill(to: (2 << 20) - gap.utf8.count)
        text += gap
        text += event(padding: 10, seq: seq - 1, changed: false)
        fill(to: 4 << 20)
        let folder = try TemporaryFolder()
        let path = folder.path("parts.jsonl")
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let whole = try Self.logOfWholeTrace(path)
        #expect(whole.contains("✖ malformed") || whole.contains("✖ seq") || whole.contains("seq"))
        #expect(inspector(["log", path]).out == whole)
        #expect(
            inspector(["log", path, "--store", "CartStore"]).out == (try Self.logOfWholeTrace(path, store: "CartStore"))
        )
        #expect(inspector(["log", path, "--problems"]).out == (try Self.logOfWholeTrace(path, onlyProblems: true)))
    }
}
