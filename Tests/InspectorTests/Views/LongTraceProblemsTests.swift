import Foundation
import Testing
import TraceReader

@testable import Inspector

/// Issue 36, "the step view on a long trace": every problem is marked and reachable whatever
/// their number, the count is `validate`'s, and a malformed line's problem is reachable too.
@Suite struct LongTraceProblemsTests {
    static func view(_ trace: ManyProblemsTrace, at step: Int = 0) throws -> StepView {
        let file = try TraceFile(path: trace.path)
        var session = StepSession(trace: file, problems: [:])
        _ = session.go(toStep: step)
        var view = StepView(session: session, style: Style(enabled: false))
        view.readerIssues(file.issues)
        _ = view.problemsFound(try TraceOpening.problemMarks(of: file))
        _ = view.render(columns: 100, rows: 30)
        return view
    }

    /// 1,200 problems, more than the 1,000 `validate` lists: each is reached by `]`, in order,
    /// and by `[` from the end; the status line counts what `validate` counts.
    @Test func everyProblemIsReachedPastTheFirstThousand() throws {
        let trace = try ManyProblemsTrace(cycles: 1200)
        var view = try Self.view(trace)
        #expect(view.screen.message == "1200 problems (1200 errors): ] goes to the first")
        let validate = inspector(["validate", trace.path])
        #expect(validate.out.contains("1200 errors"))
        var reached: [Int] = []
        while true {
            StepViewTests.press(&view, .character("]"))
            if view.screen.message == "no problem after this step" { break }
            reached.append(view.session.step)
            #expect(view.session.currentProblems.map(\.kind) == [.illegal])
        }
        #expect(reached == (0..<1200).map { 3 * $0 + 3 })
        // The last one, past the 1,000th, has its message, and `[` goes back through them.
        #expect(view.session.currentProblems.first?.message.contains("loading → loading") == true)
        StepViewTests.press(&view, .end, .character("["))
        #expect(view.session.step == 3 * 1199 + 3)
        StepViewTests.press(&view, .character("["))
        #expect(view.session.step == 3 * 1198 + 3)
    }

    /// The `!` filter steps through the problems without reading the events between them.
    @Test func theProblemsFilterStepsFromProblemToProblem() throws {
        let trace = try ManyProblemsTrace(cycles: 1200)
        var view = try Self.view(trace, at: 3 * 1100 + 4)
        StepViewTests.press(&view, .character("!"), .left)
        #expect(view.session.step == 3 * 1100 + 3)
        StepViewTests.press(&view, .left)
        #expect(view.session.step == 3 * 1099 + 3)
        StepViewTests.press(&view, .right, .right)
        #expect(view.session.step == 3 * 1101 + 3)
    }

    /// Past the messages kept, a problem still has its place, kind and a message that says how to
    /// read its own; the counts are every problem's.
    @Test func problemsPastTheKeptMessagesKeepTheirPlaces() {
        var report = ValidationReport(file: "t", events: 9, errors: 3, warnings: 1, omitted: 2)
        report.problems = [Problem(kind: .illegal, line: 4, message: "whole")]
        report.problems.append(Problem(kind: .seq, line: 5, message: "seq"))
        report.omittedPlaces = [ProblemPlace(line: 9, kind: .truncated), ProblemPlace(line: 7, kind: .illegal)]
        let marks = ProblemMarks(report)
        #expect(marks.lines == [4, 5, 7, 9])
        #expect(marks.count == 4 && marks.errors == 3 && marks.warnings == 1)
        #expect(marks[4]?.map(\.message) == ["whole"])
        #expect(marks[7]?.map(\.kind) == [.illegal])
        #expect(marks[7]?.first?.message.contains("inspector validate --max-problems 4") == true)
        #expect(marks[6] == nil)
    }

    /// The validator keeps the places of the problems past its maximum when asked.
    @Test func theValidatorRecordsOmittedPlaces() throws {
        let trace = try ManyProblemsTrace(cycles: 30)
        var validator = TraceValidator(maximumProblems: 10)
        validator.recordsOmittedPlaces = true
        let report = try validator.validate(file: trace.path)
        #expect(report.problems.count == 10 && report.omitted == 20)
        #expect(report.omittedPlaces.map(\.line) == (10..<30).map { 3 * $0 + 4 })
        #expect(try TraceValidator(maximumProblems: 10).validate(file: trace.path).omittedPlaces.isEmpty)
    }

    /// A malformed line (line 6, which held step 5): its problem is shown on the next event and
    /// reached with `]`, the reader's warning is on the status line, and `5` Enter goes to the
    /// step after it, saying why.
    @Test func aMalformedLineIsReachedAndSaid() throws {
        let trace = try ManyProblemsTrace(cycles: 5, malformedLine: 6)
        var view = try Self.view(trace)
        let message = try #require(view.screen.message)
        #expect(
            message.hasPrefix("7 problems (7 errors): ] goes to the first · ⚠ line 6: not one JSON object"),
            "\(message)")
        var reached: [Int] = []
        while true {
            StepViewTests.press(&view, .character("]"))
            if view.screen.message == "no problem after this step" { break }
            reached.append(view.session.step)
        }
        #expect(reached == [3, 6, 9, 12, 15])
        StepViewTests.press(&view, .home, .character("]"), .character("]"))
        #expect(view.session.currentProblems.map(\.kind).contains(.malformed))
        StepViewTests.press(&view, .home, .character("5"), .enter)
        #expect(view.session.step == 6)
        #expect(view.screen.message == StepView.noEvent(5, showing: 6))
    }

    /// Piped, `goto` past the 1,000th problem shows it, `goto` to a skipped step goes to the next,
    /// and a step shows its event's arguments.
    @Test func pipedStepShowsEveryProblemAndTheArguments() throws {
        let trace = try ManyProblemsTrace(cycles: 1200)
        let result = inspector(["step", trace.path], input: "goto \(3 * 1150 + 3)\ngoto 4\n")
        #expect(result.status == 0)
        #expect(result.out.contains("step 3453 of 3601: "))
        #expect(result.out.contains("error: illegal transition loading → loading"))
        #expect(result.out.contains("products: 4"), "\(result.out)")
        let broken = try ManyProblemsTrace(cycles: 5, malformedLine: 6)
        let skipped = inspector(["step", broken.path], input: "goto 5\n")
        #expect(skipped.out.contains(StepView.noEvent(5, showing: 6)))
        #expect(skipped.out.contains("step 6 of 16"))
        #expect(skipped.out.contains("error: the line is not valid JSON"), "\(skipped.out)")
    }
}

/// The search off the input thread, as the view sees it: Enter asks for it, the status line
/// shows its progress, Esc cancels it (a late outcome is then ignored), and an outcome moves.
@Suite struct BackgroundSearchKeysTests {
    @Test func escCancelsAndAnOutcomeMoves() throws {
        let trace = try ManyProblemsTrace(cycles: 10)
        var view = try LongTraceProblemsTests.view(trace)
        view.searchesInBackground = true
        StepViewTests.press(&view, .character("/"))
        StepViewTests.type(&view, "didload")
        StepViewTests.press(&view, .enter)
        let request = view.takeSearchRequest()
        #expect(request?.text == "didload" && request?.backward == false)
        #expect(view.searchProgress(40) == .redraw)
        #expect(view.screen.message == StepView.searchingMessage("didload", percent: 40))
        // Keys still work meanwhile, and Esc cancels.
        StepViewTests.press(&view, .right)
        #expect(view.session.step == 1)
        StepViewTests.press(&view, .escape)
        #expect(view.searching == nil && view.screen.message == "search cancelled")
        #expect(view.searchFinished("didload", found: 3) == [])
        #expect(view.session.step == 1)
        // A search that ends moves to what it found; the real search finds the same.
        StepViewTests.press(&view, .character("/"))
        StepViewTests.type(&view, "didload")
        StepViewTests.press(&view, .enter)
        let found = view.session.search(for: "didload")
        #expect(found == 3)
        #expect(view.searchFinished("didload", found: found) == .redraw)
        #expect(view.session.step == 4)
        let search = BackgroundSearch(view.session, text: "QQQ", backward: false)
        while search.take() == nil { usleep(1000) }
        #expect(search.take() == BackgroundSearch.Outcome(text: "QQQ", found: nil))
    }

    /// Candidates come from the bytes: a word of the text is enough, case aside, and text
    /// printed otherwise than the file writes it is still found.
    @Test func theByteScanFindsWhatTheViewPrints() throws {
        let trace = try ManyProblemsTrace(cycles: 10)
        let session = StepSession(trace: try TraceFile(path: trace.path), problems: [:])
        #expect(StepSession.searchTokens("products: 4") == [Array("products".utf8), Array("4".utf8)])
        #expect(StepSession.searchTokens("a loading load") == [Array("loading".utf8)])
        #expect(StepSession.searchTokens("→").isEmpty)
        #expect(session.search(for: "PRODUCTS: 4") == 3)
        #expect(session.search(for: "CatalogStore.didLoad") == 3)
        #expect(session.search(for: "→") == nil)
        #expect(session.search(for: "didLoad", backward: true) == 30)
    }

    /// Issue 36: the byte scan keeps only lines that hold every word of the text, so a common
    /// word beside an absent one gives no line to decode, and a found text is found as before.
    @Test func theByteScanKeepsOnlyLinesWithEveryWord() throws {
        let trace = try ManyProblemsTrace(cycles: 10)
        let file = try TraceFile(path: trace.path)
        func candidates(_ token: String, _ others: [String]) -> [Int] {
            var found: [Int] = []
            file.forEachEvent(
                containing: Array(token.utf8), andAll: others.map { Array($0.utf8) }, in: 0..<file.eventCount
            ) {
                found.append($0)
                return true
            }
            return found
        }
        #expect(candidates("loading", []).count == 30)
        #expect(candidates("loading", ["qqq"]).isEmpty)
        #expect(candidates("loading", ["PRODUCTS"]) == Array(stride(from: 3, through: 30, by: 3)))
        #expect(candidates("products", ["4", "didload"]).count == 10)
        let session = StepSession(trace: file, problems: [:])
        #expect(session.search(for: "QQQ loading") == nil)
        #expect(session.search(for: "catalogstore.DIDLOAD") == 3)
        #expect(session.search(for: "didLoad  products: 4") == nil)
        #expect(session.search(for: "products: 4", backward: true) == 30)
    }
}
