import Foundation
import TestSupport
import Testing

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
