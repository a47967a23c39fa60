import Foundation
@_spi(RewindInternals) import RewindSupport
import Testing
import TraceReader

@testable import Inspector

/// Issue 36's columns in the step view's list, on the screen's text: the columns start at the
/// same place on every screen while a person steps over rows whose actions and arguments have
/// many lengths, and a problem's tag is always whole, at 80 and at 120 columns.
@Suite struct ListColumnsTests {
    /// Where a list row's columns start (in characters, each one column wide here): the store,
    /// the action, what the event did, the arguments (nil when the row has none shown) and where
    /// the time ends (nil when the screen's edge cut it).
    struct Starts: Hashable {
        var store: Int
        var action: Int
        var detail: Int
        var args: Int?
        var timeEnd: Int?
    }

    /// The list's rows of a screen: its lines that start with a mark, a glyph and a step.
    static func listRows(_ screen: [String]) -> [String] {
        screen.dropFirst().prefix { !$0.hasPrefix("── ") }.filter { row in
            row.count > 3 && row.dropFirst(3).split(separator: " ").first.map { Int($0) != nil } == true
        }
    }

    /// The columns of `row`: the starts of its second to fourth words (after the mark and the
    /// glyph), of its arguments, and the end of its time.
    static func starts(_ row: String) -> Starts {
        let characters = Array(row)
        var words: [Int] = []
        for index in 3..<characters.count where characters[index] != " " && characters[index - 1] == " " {
            words.append(index)
        }
        func offset(_ pattern: String, end: Bool) -> Int? {
            row.range(of: pattern, options: .regularExpression).map {
                row.distance(from: row.startIndex, to: end ? $0.upperBound : $0.lowerBound)
            }
        }
        return Starts(
            store: words[1], action: words[2], detail: words[3],
            args: offset(#"(count|sku|reason|attempt): "#, end: false),
            timeEnd: offset(#"\+\d+\.\d{6}s"#, end: true))
    }

    static func view(of path: String) throws -> StepView {
        let file = try TraceFile(path: path)
        var view = StepView(session: StepSession(trace: file, problems: [:]), style: Style(enabled: false))
        _ = view.problemsFound(try TraceOpening.problemMarks(of: file))
        // As the full-screen loop does once its scan of the file is done.
        _ = view.listWidthsFound(try #require(ListTextWidths.ofFile(atPath: path)))
        return view
    }

    @Test(arguments: [80, 120, 200])
    func columnsStartAtTheSamePlaceOnEveryScreen(columns: Int) throws {
        let trace = try MixedWidthTrace(cycles: 7)
        var view = try Self.view(of: trace.path)
        var seen = Set<Starts>()
        var tags = 0
        var actions = Set<String>()
        for _ in 0...view.session.trace.eventCount {
            let screen = view.render(columns: columns, rows: 24)
            #expect(screen.allSatisfy { ScreenText.width($0) <= columns })
            for row in Self.listRows(screen) {
                seen.insert(Self.starts(row))
                actions.insert(String(row.split(separator: " ")[3]))
                // A problem's glyph up front, and its tag whole after what the event did.
                if Array(row)[1] == "✖" {
                    #expect(row.contains("loading → loading") && row.contains("  ✖ illegal"), "\(row)")
                    if columns >= 120 { #expect(row.contains("loading → loading  (no change)  ✖ illegal"), "\(row)") }
                    tags += 1
                }
            }
            _ = StepViewTests.press(&view, .right)
        }
        #expect(actions.count >= 9, "\(actions)")  // every length of action was listed
        #expect(tags > 0)
        // One place per column: the store, the action, the from → to, the arguments.
        #expect(Set(seen.map(\.store)).count == 1, "\(seen)")
        #expect(Set(seen.map(\.action)).count == 1, "\(seen)")
        #expect(Set(seen.map(\.detail)).count == 1, "\(seen)")
        // At 80 columns the arguments are cut whole; from 120 on they are shown.
        #expect(Set(seen.compactMap(\.args)).count == (columns >= 120 ? 1 : 0), "\(seen)")
        #expect(Set(seen.compactMap(\.timeEnd)).count <= 1, "\(seen)")
        if columns >= 200 { #expect(seen.allSatisfy { $0.timeEnd != nil }, "\(seen)") }
        // Names longer than their column end in `…`; none pushes a column.
        if columns < 200 { #expect(actions.contains { $0.hasSuffix("…") }) }
    }

    /// The known-bad trace's illegal step, and a row with a long action and long arguments: the
    /// step, store, action, from → to and the tag are whole; the time and arguments, read last,
    /// are what the screen's edge cuts.
    @Test(arguments: [80, 120])
    func theProblemsTagIsWholeAt(columns: Int) throws {
        let root = SourceRootTests.packageRoot
        var view = try Self.view(of: root + "/traces/invalid/double-refresh.jsonl")
        _ = view.session.go(toStep: 6)
        var row = try #require(view.render(columns: columns, rows: 24).first { $0.hasPrefix("▶✖ ") })
        #expect(
            row.range(
                of: #"6  CatalogStore +toLoading +loading → loading  \(no change\)  ✖ illegal"#,
                options: .regularExpression)
                != nil, "\(row)")

        let trace = try MixedWidthTrace(cycles: 3)
        view = try Self.view(of: trace.path)
        _ = view.session.go(toStep: 22)  // the long action of the third cycle
        let screen = view.render(columns: columns, rows: 24)
        row = try #require(screen.first { $0.hasPrefix("▶✖ ") })
        #expect(row.contains("  CatalogStore  refresh"), "\(row)")
        #expect(row.contains("  loading → loading") && row.contains("  ✖ illegal"), "\(row)")
        #expect(ScreenText.width(row) <= columns)
        // The arguments are cut before anything read first is.
        #expect(row.hasSuffix("…") || row.contains(#"reason: "the"#), "\(row)")
    }

    @Test func theScanFindsTheWidestActionAndBoundsTheArguments() throws {
        let trace = try MixedWidthTrace(cycles: 3)
        let scanned = try #require(ListTextWidths.ofFile(atPath: trace.path))
        let file = try TraceFile(path: trace.path)
        var decoded = ListTextWidths()
        decoded.include((0..<file.eventCount).compactMap { file.event(at: $0) })
        #expect(scanned.action == MixedWidthTrace.longestAction.count)
        #expect(scanned.action == decoded.action)
        #expect(scanned.args >= decoded.args && scanned.args <= decoded.args + 4, "\(scanned) \(decoded)")
    }

    @Test func onlyARegularFileIsScanned() throws {
        let folder = try ValidateTesting.Folder()
        #expect(ListTextWidths.ofFile(atPath: folder.path) == nil)
        #expect(ListTextWidths.ofFile(atPath: folder.path + "/missing.jsonl") == nil)
        let fifo = folder.path + "/pipe.jsonl"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Not opened: opening a pipe without a writer would wait for one.
        #expect(ListTextWidths.ofFile(atPath: fifo) == nil)
    }

    @Test func theScanReadsEscapesAndTheFirstActionOfALine() {
        var widths = ListTextWidths()
        let lines = [
            // An escaped name: its text's columns, not its bytes.
            #"{"type":"transition","seq":2,"store":"S","action":"\u00e9t\u00e9","from":"a","to":"b","changed":true,"state":{}}"#,
            // The event's action, not its state's, which comes later.
            #"{"type":"transition","seq":3,"store":"S","action":"go","state":{"action":"a state's very long action"}}"#,
            // Arguments with a brace in a string and a nested object.
            #"{"type":"transition","seq":4,"store":"S","action":"x","args":{"a":"}{","b":{"c":[1,2]}},"state":{}}"#,
        ]
        ByteView.withBytes(of: Array((lines.joined(separator: "\n") + "\n").utf8)) { widths.scan($0) }
        #expect(widths.action == 3)
        #expect(widths.args == #""a":"}{","b":{"c":[1,2]}"#.count)
    }
}
