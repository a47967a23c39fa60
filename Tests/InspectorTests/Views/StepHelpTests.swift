import Foundation
import TestSupport
import Testing
import TraceReader

@testable import Inspector

/// What makes the step view discoverable (issue 20, item 6): `?` lists every key, the hints stay
/// on screen at 80 columns, the status line says how many problems there are and which key goes
/// to the first, and a problem's whole message can be read.
@Suite struct StepHelpTests {
    @Test func questionMarkListsEveryKeyAndAnyKeyGoesBack() throws {
        var view = try StepViewTests.view(RecordedTrace(), at: 3)
        #expect(StepViewTests.press(&view, .character("?")) == .redraw)
        #expect(view.screen.showsHelp)
        let lines = view.render(columns: 200, rows: 60)
        for entry in StepKeys.all {
            #expect(lines.contains { $0.contains(entry.keys) && $0.contains(entry.action) }, "\(entry.keys)")
        }
        // q on the help screen closes it and leaves the person where they were.
        #expect(StepViewTests.press(&view, .character("q")) == .redraw)
        #expect(!view.screen.showsHelp && view.session.step == 3)
        // Ctrl-C still quits from there.
        StepViewTests.press(&view, .character("?"))
        #expect(StepViewTests.press(&view, .interrupt) == .quit)
    }

    @Test func theHelpScrollsOnASmallScreen() throws {
        var view = try StepViewTests.view(RecordedTrace())
        StepViewTests.press(&view, .character("?"))
        let top = view.render(columns: 80, rows: 10)
        #expect(top.count == 10)
        #expect(top.contains { $0.hasPrefix("  " + StepKeys.all[0].keys) })
        #expect(top.last?.contains("↑ ↓ PgUp PgDn scroll") == true)
        StepViewTests.press(&view, .down, .down)
        let scrolled = view.render(columns: 80, rows: 10)
        #expect(!scrolled.contains { $0.hasPrefix("  " + StepKeys.all[0].keys) })
        #expect(scrolled.contains { $0.hasPrefix("  " + StepKeys.all[2].keys) })
        #expect(view.screen.showsHelp)
        // Page down stops at the end: the last key is on screen, nothing below it.
        StepViewTests.press(&view, .pageDown, .pageDown, .pageDown, .pageDown, .pageDown, .pageDown)
        let end = view.render(columns: 80, rows: 10)
        #expect(end[7].hasPrefix("  " + StepKeys.all.last!.keys))
        StepViewTests.press(&view, .up)
        #expect(!view.render(columns: 80, rows: 10)[7].hasPrefix("  " + StepKeys.all.last!.keys))
    }

    @Test(arguments: [80, 200])
    func theKeyHintsStayOnScreen(columns: Int) throws {
        let view = try StepViewTests.view(RecordedTrace(), at: 4)
        let lines = view.screen.lines(for: view.session, columns: columns, rows: 24)
        #expect(lines.count == 24)
        let hints = try #require(lines.last)
        #expect(hints.contains("←→ step") && hints.contains("/ find") && hints.contains("] [ problems"))
        #expect(hints.trimmingCharacters(in: .whitespaces).hasSuffix("? help  q quit"))
        #expect(ScreenText.width(hints) == columns)
        // The status line above it is not crowded out by the hints any more.
        #expect(lines[22].contains("step 4 of 7") && lines[22].contains("✖ illegal"))
    }

    @Test func aNarrowScreenStillShowsTheWayToHelp() {
        #expect(StepKeys.hints(width: 30) == " ←→ step  ? help  q quit")
        #expect(StepKeys.hints(width: 10).hasSuffix("? help  q quit"))
    }

    @Test func theStatusLineSaysHowManyProblemsAndTheKeyToTheFirst() throws {
        var view = try StepViewTests.view(RecordedTrace(), validated: false)
        let file = view.session.trace
        _ = view.problemsFound(try TraceOpening.problemMarks(of: file))
        let status = view.render(columns: 80, rows: 24)[22]
        #expect(status.contains("1 problem (1 error): ] goes to it"))
        StepViewTests.press(&view, .character("]"))
        #expect(view.session.step == 4)
        #expect(view.screen.message == nil)

        let problem = Problem(kind: .illegal, line: 2, seq: 1, message: "x")
        let warning = Problem(kind: .truncated, line: 9, message: "y")
        #expect(
            StepView.problemSummary([2: [problem, problem], 9: [warning]], onEvents: 1)
                == "3 problems (2 errors, 1 warning): ] goes to the first")
        #expect(
            StepView.problemSummary([9: [warning]], onEvents: 0)
                == "1 problem (1 warning): none on an event: inspector validate lists them")
        #expect(StepView.problemSummary([:], onEvents: 0) == nil)
    }

    @Test func aLongProblemMessageIsWrappedNotCut() throws {
        let trace = try RecordedTrace()
        let file = try TraceFile(path: trace.path)
        let line = try #require(file.event(at: 3)?.line)
        let message = String(repeating: "the store went from loading to loading ", count: 5) + "THE END"
        var session = StepSession(
            trace: file, problems: [line: [Problem(kind: .illegal, line: line, message: message)]])
        _ = session.go(toStep: 4)
        let lines = StepScreen(style: Style(enabled: false)).lines(for: session, columns: 80, rows: 30)
        let start = try #require(lines.firstIndex { $0.hasPrefix("✖ error: the store went") })
        let shown = lines[start...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(shown.count >= 3)
        #expect(shown.joined().filter { $0 != " " }.contains("THEEND[illegal]"))
        #expect(!shown.contains { $0.contains("…") })
        // Broken at spaces: no line starts or ends inside a word.
        let words = Set(message.split(separator: " ") + ["[illegal]"])
        for line in shown {
            let tokens = line.dropFirst("✖ error: ".count).split(separator: " ")
            #expect(tokens.first.map { words.contains($0) } == true && tokens.last.map { words.contains($0) } == true)
        }
        #expect(shown.dropFirst().allSatisfy { $0.hasPrefix("         ") && !$0.hasPrefix("          ") })
    }

    @Test func wrappingBreaksAtSpacesAndCutsOnlyLongWords() {
        #expect(ScreenText.wrapped("aaa bbb ccc", lead: "> ", width: 12) == ["> aaa bbb", "  ccc"])
        #expect(ScreenText.wrapped("aaaaaaaaaaaaa b", lead: "", width: 10) == ["aaaaaaaaaa", "aaa b"])
        #expect(ScreenText.wrapped("aaaaaaaaaa bbb", lead: "", width: 10) == ["aaaaaaaaaa", "bbb"])
        #expect(ScreenText.wrapped("", lead: "x: ", width: 20) == ["x: "])
    }

    /// The README's key table has a row for each key, as the help screen lists it.
    @Test func theReadmeListsEveryKey() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for entry in StepKeys.all {
            #expect(readme.contains("| \(entry.keys) | \(entry.action) |"), "README row for \(entry.keys)")
        }
    }

    /// Issue 36: `step --help` lists every key the view's `?` lists, with what it does (the
    /// filters, finding again, `r`), not "find a store or action".
    @Test func stepHelpListsEveryKeyAsTheViewDoes() {
        for line in StepKeys.helpLines(width: 81) {
            #expect(Step.help.contains(line + "\n"), "\(line)")
        }
        #expect(Step.help.contains("  s  "))
        #expect(!Step.help.contains("find a store or action"))
    }
}
