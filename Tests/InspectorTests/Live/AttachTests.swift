import Foundation
import Recorder
import TestSupport
import Testing
import TimeTravel
import TraceReader

@testable import Inspector

/// `step --attach SOCKET`: the inspector follows the app's trace and moves the app itself. The
/// app here is in the test process (the stores of `RecordedTrace`, recording to a file, with a
/// control channel); the inspector runs in the test process too (line commands), or as a child
/// process that is killed mid-session.
@Suite(.serialized) struct AttachTests {
    /// `RecordedTrace`'s run, live: seq 1-2 register, 3 toLoading, 4 toLoading (illegal),
    /// 5 load, 6-7 add to the cart.
    final class RunningApp {
        let folder: TemporaryFolder
        let catalog: CatalogStore
        let cart: Store<Cart>
        let channel: ControlChannel
        var socket: String { channel.socketPath }

        /// The trace's path.
        let tracePath: String

        /// - Parameter directory: the folder of the trace, within a temporary one.
        init(directory: String? = nil) throws {
            folder = try TemporaryFolder()
            tracePath = folder.path((directory.map { $0 + "/" } ?? "") + "shop.jsonl")
            if let directory {
                try FileManager.default.createDirectory(
                    atPath: folder.path(directory), withIntermediateDirectories: true)
            }
            let recorder = try TraceRecorder(path: tracePath, app: "Shop")
            catalog = CatalogStore(initialState: .idle, recorder: recorder)
            cart = Store(initialState: Cart(), name: "CartStore", recorder: recorder)
            catalog.toLoading()
            catalog.toLoading()
            catalog.load(["Dune", "Emma", "Ulysses"])
            cart.send("add") { $0.items.append("Dune") }
            cart.send("add") { $0.items.append("Emma") }
            channel = try ControlChannel(
                tracePath: tracePath,
                restorer: Restorer([RestorableStore(catalog), RestorableStore(cart)]))
        }
    }

    @Test func movingToAStepRestoresTheAppAndPresentBringsItBack() throws {
        let app = try RunningApp()
        let result = inspector(
            ["step", "--attach", app.socket], input: "goto 3\nprev\nfirst\nstate\npresent\nquit\n")
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        // It follows the app's own trace, from its last step.
        #expect(lines.first?.hasPrefix("step 7 of 7") == true)
        #expect(lines.contains("app: restored to step 3 (CatalogStore, CartStore)"))
        #expect(lines.contains("app: restored to step 2 (CatalogStore, CartStore)"))
        #expect(lines.contains("app: restored to step 0; not at that step yet: CatalogStore, CartStore"))
        #expect(lines.contains("app: back at its present, step 7 (CatalogStore, CartStore)"))
        #expect(app.catalog.state == .loaded(["Dune", "Emma", "Ulysses"]))
        #expect(app.cart.state.items == ["Dune", "Emma"])
        // The trace says what happened: restores, judged as no action, so it validates.
        let trace = try TraceFile(path: app.folder.path("shop.jsonl"))
        #expect(trace.lastStep == 7 + 2 + 2 + 2)
        let report = try trace.validate()
        #expect(report.problems.map(\.kind) == [.illegal])  // seq 4, the recorded bug, only
    }

    @Test func aRestoreTheAppRefusesIsShownAndTheSessionGoesOn() throws {
        let app = try RunningApp()
        // The app's trace now has a cart state this app cannot read (an older version wrote it).
        let path = app.folder.path("shop.jsonl")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "\"items\":[\"Dune\"]", with: "\"items\":\"Dune\"")
            .write(toFile: path, atomically: false, encoding: .utf8)
        let result = inspector(["step", "--attach", app.socket], input: "goto 6\ngoto 3\nquit\n")
        #expect(
            result.out.contains("app: ✖ the state of CartStore at step 6 is not a Cart of this app: at CartStore.items")
        )
        #expect(result.out.contains("app: restored to step 3"))
        #expect(app.catalog.state == .loading)
    }

    /// An app in the iOS Simulator records in its container, whose path is longer than a
    /// socket's: its channel's socket is elsewhere, and `--attach TRACE` finds it.
    @Test func attachingByTheTraceFindsTheSocketOfATraceWithALongPath() throws {
        let app = try RunningApp(
            directory: "Devices/6A1B2C3D-0000-4000-8000-000000000001/data/Containers/Data/Application/"
                + "0F1E2D3C-0000-4000-8000-000000000002/Documents")
        #expect(app.tracePath.utf8.count > 108)
        let result = inspector(["step", "--attach", app.tracePath], input: "goto 3\nquit\n")
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("app: restored to step 3 (CatalogStore, CartStore)"))
        #expect(app.catalog.state == .loading)

        app.channel.close()
        let gone = inspector(["step", "--attach", app.tracePath])
        #expect(gone.status == 2)
        #expect(gone.err.contains("no app has a control channel open on"))
    }

    @Test func attachingToNoAppSaysWhy() {
        let folder = try? TemporaryFolder()
        let missing = folder?.path("none.sock") ?? "/nonexistent/none.sock"
        let result = inspector(["step", "--attach", missing])
        #expect(result.status == 2)
        #expect(result.err.contains("no control socket at"))
    }

    @Test func anInspectorKilledMidSessionLeavesTheAppRunning() throws {
        let app = try RunningApp()
        let first = try ChildProcess(
            FullScreenStepTests.inspectorPath, ["step", "--attach", app.socket], input: .pipe, output: .pipe,
            errors: .pipe)
        first.readOutput(untilContains: "step 7 of 7")
        try first.writeInput("goto 5\n")
        first.readOutput(untilContains: "app: restored to step 5")
        try first.writeInput("goto 3\n")
        first.send(SIGKILL)
        #expect(first.wait(timeout: 10) == .signalled(SIGKILL))

        // The app goes on: its stores take actions, and the next inspector attaches and sends it
        // back to its present.
        app.cart.send("add") { $0.items.append("Ulysses") }
        var result = inspector(["step", "--attach", app.socket], input: "present\nquit\n")
        let deadline = Date().addingTimeInterval(60)
        while result.status != 0 && Date() < deadline {  // until the app noticed the first one went
            Thread.sleep(forTimeInterval: 0.1)
            result = inspector(["step", "--attach", app.socket], input: "present\nquit\n")
        }
        #expect(result.out.contains("app: back at its present, step 7"), "\(result.out)\(result.err)")
        #expect(app.catalog.state == .loaded(["Dune", "Emma", "Ulysses"]))
        #expect(app.cart.state.items == ["Dune", "Emma"])
    }

    @Test func inTheViewMovingSendsARestoreAndRSendsPresent() throws {
        let trace = try RecordedTrace()
        var session = StepSession(trace: try TraceFile(path: trace.path), problems: [:])
        session.last()
        var view = StepView(session: session, style: Style(enabled: false))
        view.attach()
        #expect(view.takeAppRequest() == nil)

        StepViewTests.press(&view, .left)
        #expect(view.takeAppRequest() == .restore(step: 6))
        #expect(view.takeAppRequest() == nil)  // taken once
        StepViewTests.press(&view, .tab, .down, .character("v"))  // keys that do not move
        #expect(view.takeAppRequest() == nil)
        StepViewTests.press(&view, .character("3"), .enter)
        #expect(view.takeAppRequest() == .restore(step: 3))
        StepViewTests.press(&view, .character("/"), .character("r"), .escape)  // an r typed in a search
        #expect(view.takeAppRequest() == nil)

        _ = view.appAnswered(
            .restore(step: 3), .success(.restored(step: 3, present: false, stores: ["A"], absent: [], kept: [])))
        // The status line is the one above the key hints.
        #expect(view.render(columns: 140, rows: 30).dropLast().last?.contains("app: at step 3") == true)

        StepViewTests.press(&view, .character("r"))
        #expect(view.takeAppRequest() == .present)
        // The view goes to the app's present when the app says which step it is (issue 36).
        #expect(view.session.step == 3)
        _ = view.appAnswered(
            .present, .success(.restored(step: 7, present: true, stores: ["A"], absent: [], kept: [])))
        #expect(view.session.step == 7)
        _ = view.appAnswered(
            .present, .failure(ControlChannelError("the app closed the control channel; did it quit?")))
        #expect(view.render(columns: 140, rows: 30).dropLast().last?.contains("app: ✖ the app closed") == true)

        // Not attached: no requests.
        var plain = try StepViewTests.view(trace, at: 3)
        StepViewTests.press(&plain, .left, .character("r"))
        #expect(plain.takeAppRequest() == nil)
    }
}
