import Foundation
import Testing
import TimeTravel
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
        // `r` asks the app back to its present; the view goes to the step the app says (7, its
        // last own event), not to the trace's last row, the restore the app wrote (step 8).
        StepViewTests.press(&view, .character("r"))
        #expect(view.takeAppRequest() == .present)
        #expect(view.session.step == 5)
        let present = ControlReply.restored(step: 7, present: true, stores: ["CatalogStore"], absent: [], kept: [])
        _ = view.appAnswered(.present, .success(present))
        #expect(view.session.step == 7)
        #expect(view.session.event?.type != "restore")
        #expect(view.screen.appStatus == "live (back at its present, step 7)")
        let restored = try #require(grown.event(at: 7))
        #expect(restored.restoredStep == 5)
        var list = EventLine()
        list.detailFirst = true
        list.detailWidth = 40
        #expect(list.text(restored).contains("→ loading  (restored step 5)"))
        #expect(!EventLine().text(restored).contains("restored step"))
    }
}

/// Issue 36: after `r`, the view is on the app's present: a later answer to an older request, a
/// move by the person, and the restores the app writes do not take it elsewhere; the app's own
/// new events are followed.
@Suite struct AttachedPresentTests {
    /// Appends `lines` to the trace at `path` and gives the view the grown trace.
    static func append(_ lines: [String], to path: String, _ view: inout StepView) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(lines.map { $0 + "\n" }.joined().utf8))
        try handle.close()
        _ = view.traceChanged(try TraceFile(path: path), problems: nil)
    }

    @Test func theViewFollowsTheAppsOwnEventsFromItsPresent() throws {
        let trace = try ManyProblemsTrace(cycles: 2)
        var session = StepSession(trace: try TraceFile(path: trace.path), problems: [:])
        session.last()
        var view = StepView(session: session, style: Style(enabled: false))
        view.attach()
        StepViewTests.press(&view, .left, .left, .left, .right, .left)
        #expect(view.session.step == 4)
        try Self.append(
            [
                #"{"type":"restore","seq":8,"store":"CatalogStore","case":"loading","state":{"loading":{}},"step":4}"#
            ], to: trace.path, &view)
        #expect(view.session.step == 4)
        // An answer to a request other than `r`'s moves nothing.
        _ = view.appAnswered(
            .restore(step: 4),
            .success(.restored(step: 4, present: false, stores: ["CatalogStore"], absent: [], kept: [])))
        #expect(view.session.step == 4)
        StepViewTests.press(&view, .character("r"))
        // The app's answer to `r`, after its restore of the present.
        try Self.append(
            [
                #"{"type":"restore","seq":9,"store":"CatalogStore","case":"loading","state":{"loading":{}},"step":7}"#
            ], to: trace.path, &view)
        #expect(view.session.step == 4)
        _ = view.appAnswered(
            .present, .success(.restored(step: 7, present: true, stores: ["CatalogStore"], absent: [], kept: [])))
        #expect(view.session.step == 7)
        // The app goes on: its own event is followed, the restore after it is not.
        try Self.append(
            [
                #"{"type":"transition","seq":10,"store":"CatalogStore","action":"toLoading","from":"loading","to":"loading","changed":false,"state":{"loading":{}}}"#,
                #"{"type":"restore","seq":11,"store":"CatalogStore","case":"loading","state":{"loading":{}},"step":10}"#,
            ], to: trace.path, &view)
        #expect(view.session.step == 10)
        // A move by the person ends the following, and a late answer to `r` moves nothing.
        StepViewTests.press(&view, .left)
        let stepped = view.session.step
        _ = view.appAnswered(
            .present, .success(.restored(step: 10, present: true, stores: ["CatalogStore"], absent: [], kept: [])))
        #expect(view.session.step == stepped)
    }
}
