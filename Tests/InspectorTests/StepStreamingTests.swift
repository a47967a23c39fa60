import Foundation
import Testing

@testable import Inspector
@testable import TraceQueries
@testable import TraceReader

/// Piped `step` prints a step as soon as validation, on another thread, has passed its line:
/// what it prints is what it printed when it validated the whole file first.
@Suite struct StepStreamingTests {
    @Test(arguments: LogStreamingTests.traces) func stepsAreThoseOfTheWholeTrace(path: String) throws {
        guard let trace = try LogStreamingTests.openOrExpectRefusal(path, ["step", path, "--at", "0"]) else { return }
        let problems = ProblemMarks(try trace.validate(with: ProblemMarks.validator))
        let printer = StateDiffPrinter(width: 100, terminalSafe: true, colors: false)
        for step in [0] + (0..<trace.eventCount).compactMap({ trace.step(ofEventAt: $0) }) {
            var session = StepSession(trace: trace, problems: problems)
            _ = session.go(toStep: step)
            var expected = try Step.describe(session) + "\n"
            switch Result(catching: { () throws(TraceReadError) in try session.readDiff() }) {
            case .success(let diff):
                if !diff.isEmpty { expected += printer.text(diff) }
            case .failure(let error):
                // A version 2 state that its patches cannot rebuild is said, and step goes on.
                guard error.kind != .changed else { throw error }
                expected += "✖ cannot show the state at step \(step): \(TTY.safe(error.description))\n"
            }
            if session.currentProblems.isEmpty { expected += "no problem at this step\n" }
            for problem in session.currentProblems {
                expected += "\(problem.severity.rawValue): \(problem.kind): \(TTY.safe(problem.message))\n"
            }
            let result = inspector(["step", path, "--at", "\(step)"], input: "problems\n")
            #expect(result.out == expected, "step \(step) of \(path)")
        }
    }

    /// The feed gives a line's problems once the reading passed it, the same as the whole report's.
    @Test(arguments: LogStreamingTests.traces) func feedGivesEachLineItsFinalProblems(path: String) throws {
        guard let trace = try LogStreamingTests.openOrExpectRefusal(path, ["step", path, "--at", "0"]) else { return }
        let problems = Dictionary(grouping: try trace.validate().problems, by: \.line)
        let feed = ProblemFeed(trace: trace)
        for index in stride(from: trace.eventCount - 1, through: 0, by: -1) {
            let line = try #require(trace.line(ofEventAt: index))
            #expect(try feed.problems(through: line)[line] == problems[line], "line \(line) of \(path)")
        }
    }
}
