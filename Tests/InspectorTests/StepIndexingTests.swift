import Foundation
import TestSupport
import Testing

@testable import Inspector
@testable import TraceReader

/// `step` on a trace larger than its first part: the first step comes from the first part while
/// the rest is indexed in the background, and what needs the rest waits for it.
@Suite struct StepIndexingTests {
    /// A trace of `count` events of one store (seqs 1…count) with a malformed line near its end,
    /// larger than `TraceIndexing.defaultFirstBytes` for the default count.
    static func write(to path: String, count: Int = 15_000) throws {
        var text = #"{"type":"header","format":"rewind-trace","version":1,"machines":{}}"# + "\n"
        text += #"{"type":"register","seq":1,"store":"S","state":{"n":0}}"# + "\n"
        for seq in 2...count {
            text +=
                #"{"type":"transition","seq":\#(seq),"store":"S","action":"add","changed":true,"state":{"n":\#(seq),"pad":"................................"}}"#
                + "\n"
            if seq == count - 10 { text += "{not json\n" }
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func pipedStepStartsFromTheFirstPartAndGoesOnWithTheWhole() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("big.jsonl")
        try Self.write(to: path)
        #expect(try TraceIndexing(path: path).first.isPartial)
        let result = inspector(["step", path, "--at", "7"], input: "next\nlast\nquit\n")
        let lines = result.out.split(separator: "\n").map(String.init)
        // The first step says the whole trace's last step, read from the file's end.
        #expect(lines.first?.hasPrefix("step 7 of 15000: ") == true)
        #expect(lines.contains { $0.hasPrefix("step 8 of 15000: ") })
        #expect(lines.contains { $0.hasPrefix("step 15000 of 15000: ") })
        // What indexing skipped past the first part is said once the whole is indexed.
        #expect(result.err.contains(":\(15_000 - 10 + 2): warning: "))
        #expect(result.status == 0)
    }

    @Test func quitRightAfterTheFirstStepNeedsNoWholeTrace() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("big.jsonl")
        try Self.write(to: path)
        let result = inspector(["step", path, "--at", "3"], input: "quit\n")
        #expect(result.out.hasPrefix("step 3 of 15000: "))
        // The warnings of the rest are not waited for.
        #expect(result.err.isEmpty)
    }

    /// The rest of this trace is a terabyte hole (a sparse file), whose indexing would take many
    /// minutes: the first step comes at once all the same, and `quit` ends the process.
    @Test func theFirstStepComesBeforeTheRestIsIndexed() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("hole.jsonl")
        try Self.write(to: path)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try file.truncate(atOffset: 1 << 40)
        try file.close()
        let step = try ChildProcess(
            FullScreenStepTests.inspectorPath, ["step", path, "--at", "7"], input: .pipe, output: .pipe,
            errors: .pipe)
        defer { step.send(SIGKILL) }
        // (The file's end is no event: the last step it gives is the first part's.)
        #expect(step.readOutput(untilContains: "step 7 of ").contains("step 7 of "))
        try step.writeInput("quit\n")
        #expect(step.wait(timeout: 30) == .exited(0))
    }

    @Test func aStepPastTheFirstPartWaitsForTheWhole() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("big.jsonl")
        try Self.write(to: path)
        #expect(inspector(["step", path, "--at", "14000"], input: "").out.hasPrefix("step 14000 of 15000: "))
        #expect(inspector(["step", path, "--at", "15001"], input: "").status == 2)
    }

    @Test func theViewWorksOnAPartlyIndexedTrace() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("big.jsonl")
        try Self.write(to: path, count: 300)
        let indexing = try TraceIndexing(path: path, firstBytes: 2_000)
        var session = StepSession(trace: indexing.first, problems: [:])
        session.expectedLastStep = indexing.expectedLastStep
        let moved = session.go(toStep: 5)
        #expect(moved)
        var view = StepView(session: session, style: Style(enabled: false))
        view.screen.indexing = 0
        let screen = view.render(columns: 100, rows: 24).joined(separator: "\n")
        #expect(screen.contains("step 5 of 300"))
        #expect(screen.contains("indexing 0%…"))
        // Moving within the first part needs no more.
        _ = view.update(.right)
        #expect(view.session.step == 6 && view.session.trace.isPartial)
        #expect(!Step.needsWholeTrace(.right, view))
        // → at the first part's end needs the rest.
        var atEnd = view
        _ = atEnd.update(.end)  // (the view alone goes to the first part's end)
        #expect(Step.needsWholeTrace(.right, atEnd))
        // G needs the end: it waits for the whole trace, and the view stays where it was.
        #expect(Step.needsWholeTrace(.character("G"), view))
        let (effects, done) = Step.takeWholeTrace(indexing, into: &view, waiting: true)
        #expect(done && effects.contains(.redraw))
        #expect(!view.session.trace.isPartial && view.session.step == 6 && view.screen.indexing == nil)
        _ = view.update(.character("G"))
        #expect(view.session.step == 300)
        #expect(!view.render(columns: 100, rows: 24).joined().contains("indexing"))
    }

    @Test func theViewSaysHowFarIndexingIs() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("big.jsonl")
        try Self.write(to: path, count: 300)
        let indexing = try TraceIndexing(path: path, firstBytes: 2_000)
        var view = StepView(session: StepSession(trace: indexing.first, problems: [:]), style: Style(enabled: false))
        // Not started: nothing indexed yet, said once.
        #expect(Step.takeWholeTrace(indexing, into: &view, waiting: false) == ([.redraw], false))
        #expect(view.screen.indexing == 0)
        #expect(Step.takeWholeTrace(indexing, into: &view, waiting: false) == ([], false))
        indexing.start()
        _ = indexing.wait()
        #expect(Step.takeWholeTrace(indexing, into: &view, waiting: false) == ([.redraw], true))
        #expect(!view.session.trace.isPartial)
    }
}
