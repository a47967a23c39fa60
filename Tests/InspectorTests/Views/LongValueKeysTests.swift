import Foundation
import Testing
import TraceReader

@testable import Inspector

/// The keys for long and deep values (issue 20, item 3), through the view's pure update:
/// `<` `>` scroll the lower pane sideways, `+` `-` open and fold levels of the state, `e` shows a
/// value whole. The trace is `LongAndDeepTrace`'s.
@Suite struct LongValueKeysTests {
    static func view(_ trace: LongAndDeepTrace, at step: Int, columns: Int = 80, rows: Int = 24) throws -> StepView {
        let file = try TraceFile(path: trace.path)
        var session = StepSession(trace: file, problems: [:])
        _ = session.go(toStep: step)
        var view = StepView(session: session, style: Style(enabled: false))
        _ = view.problemsFound([:])
        _ = view.render(columns: columns, rows: rows)
        return view
    }

    /// The pane's lines of a screen: between its heading and the status line.
    static func pane(_ lines: [String]) -> [String] {
        let heading = lines.firstIndex { $0.hasPrefix("──") } ?? 0
        return lines[(heading + 1)..<(lines.count - 2)].map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }

    @Test func sidewaysScrollReachesTheEndOfALongLineAndComesBack() throws {
        let trace = try LongAndDeepTrace()
        var view = try Self.view(trace, at: 3)
        StepViewTests.press(&view, .tab)
        var lines = view.render(columns: 80, rows: 24)
        #expect(!lines.joined().contains("word50"))
        var presses = 0
        while !lines.joined().contains("word50\"") && presses < 20 {
            StepViewTests.press(&view, .character(">"))
            lines = view.render(columns: 80, rows: 24)
            presses += 1
        }
        #expect(lines.joined().contains("word50\""), "\(lines.joined(separator: "\n"))")
        #expect(presses > 1 && presses < 10)
        #expect(lines.contains { $0.contains("from column \(view.screen.column + 1) (< >)") })
        // The text line starts with … where it is cut; the status and hint rows are as they were.
        #expect(Self.pane(lines).contains { $0.hasPrefix("…") && $0.contains("word50\"") })
        #expect(
            lines[22].contains("step 3 of 4")
                && lines[23].trimmingCharacters(in: .whitespaces).hasSuffix("? help  q quit"))
        // At the end, > goes no further and says so.
        let end = view.screen.column
        StepViewTests.press(&view, .character(">"))
        #expect(view.screen.column == end && view.screen.message == "the pane's lines end here")
        // The help and a value shown whole leave the sideways scroll as it was.
        StepViewTests.press(&view, .character("?"))
        _ = view.render(columns: 80, rows: 24)
        StepViewTests.press(&view, .character("q"), .character("e"))
        _ = view.render(columns: 80, rows: 24)
        StepViewTests.press(&view, .character("q"))
        _ = view.render(columns: 80, rows: 24)
        #expect(view.screen.column == end)
        for _ in 0..<presses { StepViewTests.press(&view, .character("<")) }
        #expect(view.screen.column == 0)
        #expect(view.render(columns: 80, rows: 24).contains { $0.contains("\"text\": \"word1 word2") })
        StepViewTests.press(&view, .character("<"))
        #expect(view.screen.column == 0)
    }

    @Test func plusAndMinusOpenAndFoldLevelsOfTheState() throws {
        let trace = try LongAndDeepTrace()
        var view = try Self.view(trace, at: 4, columns: 100, rows: 60)
        // From the diff, + shows the state pane as it is.
        StepViewTests.press(&view, .character("+"))
        #expect(view.screen.pane == .state && view.screen.levels == StepScreen.defaultLevels)
        var pane = Self.pane(view.render(columns: 100, rows: 60))
        #expect(pane.contains { $0.hasSuffix("\"next\": {…} 2 members") })
        #expect(pane.contains { $0.hasSuffix("↳ next.next.…50 levels….next.note: \"deep change\"") })
        StepViewTests.press(&view, .character("+"), .character("+"))
        #expect(view.screen.levels == StepScreen.defaultLevels + 2)
        pane = Self.pane(view.render(columns: 100, rows: 60))
        #expect(pane.contains { $0.hasSuffix("\"depth\": 8,") } && !pane.contains { $0.hasSuffix("\"depth\": 9,") })
        for _ in 0..<20 { StepViewTests.press(&view, .character("-")) }
        #expect(view.screen.levels == 0)
        #expect(view.screen.message == "every store folded (+ opens a level)")
        pane = Self.pane(view.render(columns: 100, rows: 60))
        #expect(pane.contains("  \"NotesStore\": {…} 1 member,"))
        #expect(pane.contains("  \"DeepStore\": {…} 2 members"))
    }

    @Test func aDeepChangeIsDiffedFromNearIt() throws {
        let trace = try LongAndDeepTrace()
        var view = try Self.view(trace, at: 4)
        let pane = Self.pane(view.render(columns: 80, rows: 24))
        #expect(pane.first == "in DeepStore.next.…55 levels….next.next (59 levels down; e: its whole path):")
        #expect(pane.contains("  -   note: \"start\"") && pane.contains("  +   note: \"deep change\""))
        #expect(pane.contains("      depth: 60"))
        // With more levels open than the change is deep, the whole diff as before.
        view.screen.levels = 60
        let whole = Self.pane(view.render(columns: 300, rows: 600))
        #expect(whole.first == "  DeepStore: {")
        #expect(whole.contains { $0.hasSuffix("note: \"deep change\"") })
    }

    @Test func eShowsTheChangedStringWholeAndGoesBack() throws {
        let trace = try LongAndDeepTrace()
        var view = try Self.view(trace, at: 3)
        StepViewTests.press(&view, .character("e"))
        let lines = view.render(columns: 80, rows: 24)
        #expect(lines[0].contains("NotesStore.text at step 3"))
        let body = lines.dropFirst().prefix(21)
        let after = try #require(body.firstIndex(of: "after:" + String(repeating: " ", count: 74)))
        let value = body[(after + 1)...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        // Every character is there (the screen pads each line with spaces, so they are left out).
        let text = value.map { $0.dropFirst(2) }.joined().filter { $0 != " " }
        #expect(text == ("\"" + LongAndDeepTrace.editedText + "\"").filter { $0 != " " })
        #expect(body.contains { $0.hasPrefix("before:") })
        // An arrow does not move the step behind the page; q, Esc, e and Enter go back.
        StepViewTests.press(&view, .right)
        #expect(view.session.step == 3 && view.screen.page != nil)
        StepViewTests.press(&view, .escape)
        for key in [Key.character("q"), .escape, .character("e"), .enter] {
            StepViewTests.press(&view, .character("e"))
            #expect(view.screen.page != nil)
            #expect(StepViewTests.press(&view, key) == .redraw)
            #expect(view.screen.page == nil && view.session.step == 3)
        }
        StepViewTests.press(&view, .character("e"))
        #expect(StepViewTests.press(&view, .interrupt) == .quit)
    }

    @Test func eShowsADeepValueWholeAndScrolls() throws {
        let trace = try LongAndDeepTrace()
        // Step 2 registers the deep store: its whole state is the value it added.
        var view = try Self.view(trace, at: 2)
        StepViewTests.press(&view, .character("e"))
        var lines = view.render(columns: 80, rows: 24)
        #expect(lines[0].contains("DeepStore at step 2"))
        #expect(lines.contains { $0.contains("\"depth\": 1,") })
        #expect(!lines.contains { $0.contains("\"start\"") })
        var pages = 0
        while !lines.contains(where: { $0.contains("\"note\": \"start\"") }) && pages < 20 {
            StepViewTests.press(&view, .pageDown)
            lines = view.render(columns: 80, rows: 24)
            pages += 1
        }
        #expect(pages > 2 && pages < 20)
        #expect(lines.allSatisfy { ScreenText.width($0) == 80 })
        #expect(lines[23].contains("↑ ↓ PgUp PgDn scroll  q Esc e: back to the step"))
        StepViewTests.press(&view, .home)
        #expect(view.render(columns: 80, rows: 24).contains { $0.contains("\"depth\": 1,") })
    }
}
