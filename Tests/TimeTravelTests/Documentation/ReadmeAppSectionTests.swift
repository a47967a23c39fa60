import Dispatch
import Foundation
import Observation
import Recorder
@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing
import TimeTravel
import TraceReader

/// README.md's code for an app (`ReadmeAppSection`): each part does what the README says, and
/// the README shows each as it is compiled here.
@Suite struct ReadmeAppSectionTests {
    @Test func aDebugBuildRecordsAndAShippingBuildDoesNot() throws {
        let folder = try TemporaryFolder()
        let tracePath = folder.path("run.jsonl")
        let catalog = try ReadmeAppSection.launch(tracePath: tracePath)
        catalog.toLoading()
        #expect(catalog.state == .loading)  // the store works the same either way
        #if DEBUG
            let events = try jsonObjects(try traceLines(at: tracePath))
            #expect(events.first?["app"] as? String == "Shop")
            #expect(events.last?["action"] as? String == "toLoading")
        #else
            #expect(!FileManager.default.fileExists(atPath: tracePath))
        #endif
    }

    /// The app prints the command, and the inspector, given the trace's path it prints, finds the
    /// socket and sets the app to a step, the restore running on the main queue.
    @Test func theInspectorAttachesWithTheCommandTheAppPrints() throws {
        let folder = try TemporaryFolder()
        let tracePath = folder.path("run.jsonl")
        let catalog = try ReadmeAppSection.launch(tracePath: tracePath)
        catalog.toLoading()
        let restorer = Restorer([RestorableStore(catalog)])
        let printed = Lock<[String]>([])
        let channel = try ReadmeAppSection.openChannel(tracePath: tracePath, restorer: restorer) { line in
            printed.withLock { $0.append(line) }
        }
        defer { channel?.close() }
        #if DEBUG
            #expect(printed.withLock { $0 } == ["inspector step --attach '\(tracePath)'"])
            let restoredOnMain = Lock(false)
            let main = MainQueueMark()
            defer { main.remove() }
            let token = catalog.subscribe { _ in restoredOnMain.withLock { $0 = main.isCurrent } }
            defer { _ = token }
            let client = try ControlClient(socketPath: ControlClient.socketPath(forTrace: tracePath))
            let reply = try client.request(.restore(step: 1))  // step 1: the catalog's register, idle
            #expect(reply.isRestored, "\(reply)")
            #expect(catalog.state == .idle)
            #expect(restoredOnMain.withLock { $0 })
        #else
            #expect(channel == nil && printed.withLock { $0 }.isEmpty)
        #endif
    }

    @Test func aSubscriberDrawsEachNewStateOnTheMainQueue() throws {
        let catalog = ReadmeAppSection.CatalogStore(initialState: .idle, recorder: nil)
        let drawn = Lock<[ReadmeAppSection.CatalogState]>([])
        let offMain = Lock(0)
        let main = MainQueueMark()
        defer { main.remove() }
        var subscription: Subscription? = ReadmeAppSection.watch(catalog) { state in
            if !main.isCurrent { offMain.withLock { $0 += 1 } }
            drawn.withLock { $0.append(state) }
        }
        try Self.waitForMainThread()
        #expect(drawn.withLock { $0 } == [.idle])  // the current state, at once
        catalog.toLoading()
        catalog.toLoading()  // no change: not drawn again
        try Self.waitForMainThread()
        #expect(drawn.withLock { $0 } == [.idle, .loading])
        _ = subscription
        subscription = nil  // released: unsubscribed
        catalog.send("didCancel") { $0 = .idle }
        try Self.waitForMainThread()
        #expect(drawn.withLock { $0 } == [.idle, .loading])
        #expect(offMain.withLock { $0 } == 0)
    }

    @Test @MainActor
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func anObservableModelIsRestoredAndItsObserversAreTold() throws {
        let sink = MemorySink()
        let favorites = ReadmeAppSection.Favorites(recorder: try TraceRecorder(sink: sink, app: "Shop"))
        favorites.add("MUG")  // seq 2, step 2
        favorites.add("HAT")
        let restorer = Restorer([favorites.restorable])
        let told = Lock(0)
        withObservationTracking {
            _ = favorites.skus
        } onChange: {
            told.withLock { $0 += 1 }
        }
        let report = try restorer.restore(from: TraceFile(bytes: sink.data), atStep: 2)
        #expect(report.restored == ["Favorites"])
        #expect(favorites.skus == ["MUG"])
        #expect(told.withLock { $0 } == 1)
        favorites.add("PEN")  // recorded from the restored state
        #expect(favorites.recording.state == ["MUG", "PEN"])
    }

    @Test func theReadmeShowsTheCompiledCode() throws {
        let file = "Tests/TimeTravelTests/Documentation/ReadmeAppSection.swift"
        let source = try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
        let examples = documentationExamples(in: source)
        #expect(examples.count == 4)
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for example in examples {
            let shown = readme.contains("```swift\n\(example)```\n")
            #expect(shown, "README.md does not show this code of \(file) as it is; copy it there:\n\(example)")
        }
    }

    /// Returns once the main queue has run what was handed to it before (it is drained in a test
    /// process, as in an app); throws after 10 s.
    static func waitForMainThread() throws {
        let done = Lock(false)
        DispatchQueue.main.async { done.withLock { $0 = true } }
        let deadline = Date().addingTimeInterval(10)
        while !done.withLock({ $0 }) {
            guard Date() < deadline else { throw TestFailure("the main queue did not run within 10 s") }
            Thread.sleep(forTimeInterval: 0.001)
        }
    }
}
