import Foundation
import Testing
import TraceReader

@testable import Inspector

/// Issue 36: with `--attach`, the restores the app writes for each move do not move the view,
/// and a restore row says which step it restored; the app's own new events are still followed.
@Suite struct AttachedRestoreTests {
    @Test func restoresDoNotMoveTheViewAndSayTheirStep() throws {
        let trace = try ManyProblemsTrace(cycles: 2)
        let first = try TraceFile(path: trace.path)
        var session = StepSession(trace: first, problems: [:])
        session.last()
        var view = StepView(session: session, style: Style(enabled: false))
        view.attach()
        StepViewTests.press(&view, .left, .left)
        #expect(view.session.step == 5)
        #expect(view.takeAppRequest() == .restore(step: 5))
        // The app restores step 5: one restore per store, appended to the trace.
        let restore =
            #"{"type":"restore","seq":8,"elapsed":1.0,"store":"CatalogStore","case":"loading","state":{"loading":{}},"step":5}"#
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: trace.path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((restore + "\n").utf8))
        try handle.close()
        let grown = try TraceFile(path: trace.path)
        _ = view.traceChanged(grown, problems: nil)
        #expect(view.session.step == 5)
        // `r` asks the app back to its present, the last step.
        StepViewTests.press(&view, .character("r"))
        #expect(view.session.step == 8)
        let restored = try #require(grown.event(at: 7))
        #expect(restored.restoredStep == 5)
        var list = EventLine()
        list.detailFirst = true
        list.detailWidth = 40
        #expect(list.text(restored).contains("→ loading  (restored step 5)"))
        #expect(!EventLine().text(restored).contains("restored step"))
    }
}
