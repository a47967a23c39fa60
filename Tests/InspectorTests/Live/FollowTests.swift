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

        // Half a line: not an event yet. The next event is written only once the follower has
        // read the torn half (its count of bytes read says so, where the system keeps one).
        let read = BytesRead(pid: log.pid)
        let before = read.count
        let half = try trace.appendFirstHalf(of: 6)
        #expect(read.waitFor(atLeast: before.map { $0 + half }), "the follower never read the torn line")
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

    @Test func aFileWrittenAnewInPlaceAndLongerIsReadFromItsStart() throws {
        let trace = try GrowingTrace(events: 3)
        var follower = try TraceFollower(try TraceFile(path: trace.path))
        let inode = try FileManager.default.attributesOfItem(atPath: trace.path)[.systemFileNumber] as? Int
        // Another run truncates the file and writes its own trace, longer, in the same inode.
        let header = trace.lines[0].replacingOccurrences(of: #""app":""#, with: #""app":"Other"#)
        #expect(header != trace.lines[0])
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: trace.path))
        try file.truncate(atOffset: 0)
        try file.write(contentsOf: Data((header + trace.lines[1...5].joined()).utf8))
        try file.close()
        #expect(try FileManager.default.attributesOfItem(atPath: trace.path)[.systemFileNumber] as? Int == inode)
        #expect(follower.refresh() == .replaced)
        #expect(follower.trace.lastStep == 5)
    }

    @Test func aTornLineCompletedByAnotherWritersLineIsReported() throws {
        let trace = try GrowingTrace(events: 3)
        let errors = trace.recorded.folder.appendingPathComponent("errors.txt").path
        let log = try ChildProcess(
            FullScreenStepTests.inspectorPath, ["log", "--follow", trace.path], output: .pipe, errors: .file(errors))
        defer { log.send(SIGKILL) }
        log.readOutput(untilContains: "toLoading")
        // Half of event 4 (line 5), then another writer's whole line after it: line 5 is not an
        // event; event 5 follows on line 6.
        try trace.appendFirstHalf(of: 4)
        try trace.append(5...5)
        try trace.append(6...6)
        log.readOutput(untilContains: "\n     6  ")
        let warnings = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(warnings.contains("live.jsonl:5: warning"))
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

/// How many bytes a process has read, from Linux's `/proc/PID/io` (`rchar`, which counts `read`
/// and `pread` alike): what a test waits on to know that a follower read what was appended,
/// instead of sleeping and hoping. Elsewhere there is no count, and a wait takes one second.
struct BytesRead {
    let pid: pid_t

    /// The count now, or nil where the system keeps none.
    var count: Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("rchar:") }
        return line.flatMap { Int($0.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)) }
    }

    /// Waits until the count reaches `target` (at most 30 s); true when it did. With no count,
    /// waits one second and says true.
    func waitFor(atLeast target: Int?) -> Bool {
        guard let target else {
            Thread.sleep(forTimeInterval: 1)
            return true
        }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let now = count, now >= target { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }
}
