import Foundation
import TestSupport
import Testing
import TraceReader

@testable import Inspector

/// Issue 36 in a real terminal: a trace with 1,200 problems, more than `validate` lists, has all
/// of them counted on the status line and marked; `]` reaches those past the 1,000th; a search
/// runs and finds, and a malformed line's warning is shown in the view.
@Suite(.serialized) struct LongTraceScreenTests {
    @Test func everyProblemIsCountedMarkedAndReached() throws {
        let trace = try ManyProblemsTrace(cycles: 1200)
        let tmux = try FullScreenStepTests.start(trace.path, columns: 80, rows: 24, options: "--at 3400")
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        var screen = try tmux.wait(for: "the problems counted") {
            $0.contains("1200 problems (1200 errors)")
        }
        try tmux.keys("]")
        screen = try tmux.wait(for: "the next problem, past the 1,000th") { $0.contains("step 3402 of 3601") }
        #expect(screen.contains("✖ illegal"), "\(screen)")
        #expect(screen.contains("loading → loading"))
        try tmux.keys("/", "d", "i", "d", "L", "o", "a", "d", "Enter")
        screen = try tmux.wait(for: "a search") { $0.contains("step 3403 of 3601") }
        try tmux.keys("q")
        _ = try tmux.wait(for: "the program to exit") { $0.contains("EXITED-0") }
    }

    @Test func aMalformedLinesWarningIsInTheView() throws {
        let trace = try ManyProblemsTrace(cycles: 5, malformedLine: 6)
        let tmux = try FullScreenStepTests.start(trace.path, columns: 120, rows: 24)
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        _ = try tmux.wait(for: "the warning") { $0.contains("⚠ line 6: not one JSON object") }
        try tmux.keys("5", "Enter")
        let screen = try tmux.wait(for: "the next step") { $0.contains("step 6 of 16") }
        #expect(screen.contains("no event has step 5"), "\(screen)")
        try tmux.keys("q")
        _ = try tmux.wait(for: "the program to exit") { $0.contains("EXITED-0") }
    }
}

/// Issue 36's columns: in the step view's list, from → to comes before the arguments and the
/// time, a problem's glyph is apart from a six-digit step, times have six decimals and line up,
/// and the step and store columns are sized for the whole trace (they do not move as it scrolls).
@Suite struct StepListColumnsTests {
    @Test func whatIsReadFirstComesFirstAndColumnsStayPut() throws {
        let trace = try ManyProblemsTrace(cycles: 40)
        let file = try TraceFile(path: trace.path)
        var session = StepSession(trace: file, problems: [:])
        _ = session.go(toStep: 3)
        var view = StepView(session: session, style: Style(enabled: false))
        _ = view.problemsFound(try TraceOpening.problemMarks(of: file))
        let rows = view.render(columns: 80, rows: 24)
        let illegal = try #require(rows.first { $0.hasPrefix("▶✖ ") })
        #expect(illegal.contains("toLoading  loading → loading"), "\(illegal)")
        let start = try #require(rows.first { $0.contains("didLoad") })
        #expect(start.contains("loading → loaded"))
        // Times of six decimals, ending at the same column, where there is room for them.
        let wide = view.render(columns: 120, rows: 24).filter { $0.contains("  CatalogStore  ") }
        let ends = wide.compactMap { $0.range(of: #"\+\d+\.\d{6}s"#, options: .regularExpression) }
        #expect(wide.count > 3 && ends.count == wide.count, "\(wide)")
        #expect(
            Set(
                wide.compactMap { row in
                    row.range(of: #"\+\d+\.\d{6}s"#, options: .regularExpression).map {
                        row.distance(from: row.startIndex, to: $0.upperBound)
                    }
                }
            ).count == 1)
        // The columns of a later screen start where the first's did.
        _ = view.session.go(toStep: 100)
        let later = view.render(columns: 80, rows: 24)
        let first = rows.first { $0.contains("didLoad") }.map {
            $0.distance(from: $0.startIndex, to: $0.range(of: "didLoad")!.lowerBound)
        }
        let second = later.first { $0.contains("didLoad") }.map {
            $0.distance(from: $0.startIndex, to: $0.range(of: "didLoad")!.lowerBound)
        }
        #expect(first != nil && first == second)
        #expect(EventLine.fixedTime(114.7193) == "+114.719300s")
    }
}
