import Foundation
import TestSupport
import Testing
import TraceReader

@testable import Inspector

/// `log --follow` and `step --follow`: a trace read as the app appends to it.
@Suite(.serialized) struct FollowTests {
    @Test func logFollowPrintsEachEventOnceAsItComesATornLineOnceComplete() throws {
        let trace = try GrowingTrace(events: 3)
        let log = try ChildProcess(
            FullScreenStepTests.inspectorPath, ["log", "--follow", trace.path], output: .pipe, errors: .pipe)
        defer { log.send(SIGKILL) }
        #expect(loggedSeqs(log.readOutput(untilContains: "toLoading")) == [1, 2, 3])

        try trace.append(4...5)
        var output = log.readOutput(untilContains: "load ")
        #expect(loggedSeqs(output) == [1, 2, 3, 4, 5])
        // Problems are marked as the events come: 4 is loading → loading.
        #expect(output.split(separator: "\n")[3].contains("✖ illegal"))

        // Half a line: not an event yet. The follower looks at the file every 200 ms; the next
        // event is written only after several looks at the torn line.
        try trace.appendFirstHalf(of: 6)
        Thread.sleep(forTimeInterval: 0.8)
        try trace.appendSecondHalf(of: 6)
        try trace.append(7...7)
        output = log.readOutput(untilContains: "\n     7  ")
        #expect(loggedSeqs(output) == [1, 2, 3, 4, 5, 6, 7])
        #expect(!output.contains("truncated") && !output.contains("malformed"))
        #expect(!log.hasEnded)  // it goes on following
    }

    @Test func followingAPipeIsRefused() throws {
        let trace = try RecordedTrace()
        let result = try ChildProcess.run(
            FullScreenStepTests.inspectorPath, ["log", "--follow", "/dev/stdin"],
            input: try Data(contentsOf: URL(fileURLWithPath: trace.path)))
        #expect(result.termination == .exited(2))
        #expect(result.errorText.contains("--follow reads a trace file as it grows"))
    }

    @Test func stepFollowSeesNewEventsAndStaysOnTheStepLookedAt() throws {
        let trace = try GrowingTrace(events: 3)
        let step = try ChildProcess(
            FullScreenStepTests.inspectorPath, ["step", "--follow", trace.path], input: .pipe, output: .pipe,
            errors: .pipe)
        defer { step.send(SIGKILL) }
        // It starts at the last step.
        #expect(step.readOutput(untilContains: "step 3 of 3").contains("toLoading"))
        try step.writeInput("prev\n")
        step.readOutput(untilContains: "step 2 of 3")
        try trace.append(4...5)
        // Still at step 2: the next step is 3, not the new end.
        try step.writeInput("next\n")
        #expect(step.readOutput(untilContains: "step 3 of 5").contains("step 3 of 5"))
        try step.writeInput("last\n")
        #expect(step.readOutput(untilContains: "step 5 of 5").contains("step 5 of 5"))
        try step.writeInput("quit\n")
        #expect(step.wait(timeout: 10) == .exited(0))
    }

    @Test func theFollowerOfStepSeesATornLineOnlyOnceItIsComplete() throws {
        let trace = try GrowingTrace(events: 5)
        var follower = try TraceFollower(try TraceFile(path: trace.path))
        #expect(follower.refresh() == nil)  // nothing new
        try trace.appendFirstHalf(of: 6)
        #expect(follower.refresh() == .grew)
        #expect(follower.trace.lastStep == 5)  // half a line is not an event
        try trace.appendSecondHalf(of: 6)
        #expect(follower.refresh() == .grew)
        #expect(follower.trace.lastStep == 6)
        #expect(follower.trace.event(at: 5)?.action == "add")  // seq 6, whole
        #expect(
            try TraceOpening.problemsByLine(of: follower.trace)
                == (try TraceOpening.problemsByLine(of: trace.file(upTo: 6))))
    }

    @Test func theViewFollowsTheEndOnlyWhenItIsAtTheEnd() throws {
        let trace = try GrowingTrace(events: 3)
        var atEnd = try Self.followingView(trace.file(upTo: 3), at: 3)
        #expect(atEnd.traceChanged(try trace.file(upTo: 5), problems: nil) == .redraw)
        #expect(atEnd.session.step == 5)
        // The status line is the one above the key hints.
        #expect(atEnd.render(columns: 120, rows: 30).dropLast().last?.contains("following") == true)

        var behind = try Self.followingView(trace.file(upTo: 3), at: 2)
        _ = behind.traceChanged(try trace.file(upTo: 5), problems: nil)
        #expect(behind.session.step == 2)
        #expect(behind.render(columns: 120, rows: 30).dropLast().last?.contains("paused (G: follow)") == true)
        StepViewTests.press(&behind, .end)
        _ = behind.traceChanged(try trace.file(upTo: 7), problems: nil)
        #expect(behind.session.step == 7)

        // Problems found in the grown trace are marked.
        let grown = try trace.file(upTo: 5)
        _ = behind.traceChanged(grown, problems: try TraceOpening.problemMarks(of: grown))
        #expect(behind.session.problemEvents == [3])
    }

    static func followingView(_ trace: TraceFile, at step: Int) -> StepView {
        var session = StepSession(trace: trace, problems: [:])
        _ = session.go(toStep: step)
        var view = StepView(session: session, style: Style(enabled: false))
        view.follow()
        _ = view.render(columns: 120, rows: 30)
        return view
    }
}
