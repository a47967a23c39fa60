import Observation
import Recorder
@_spi(RewindInternals) import RewindSupport
import Testing
import TimeTravel
import TraceJSON
import TraceReader

/// `Restorer.restore`: every store takes its recorded state, then observers and subscribers are
/// told, and nothing they send is run or recorded.
@Suite struct RestoreTests {
    /// Records: register ×2 (1, 2), logIn (3), the subscriber's load (4), loaded (5), logOut (6).
    func recordedApp(redactedKeys: Redaction = .none) throws -> SessionApp {
        let app = try SessionApp(redactedKeys: redactedKeys)
        app.session.logIn("alice", token: "t-alice")
        app.documents.loaded("Q3 report")
        app.session.logOut()
        #expect(app.log.requestCount == 1)
        return app
    }

    @Test func everyStoreTakesItsRecordedStateBeforeAnyoneIsTold() throws {
        let app = try recordedApp()
        let trace = try app.trace()
        #expect(trace.lastStep == 6)
        let seenBefore = app.log.seen.count
        let observed = Lock(false)
        withObservationTracking {
            _ = app.session.state
        } onChange: {
            observed.withLock { $0 = true }
        }

        let report = try app.restorer.restore(from: trace, atStep: 5)

        #expect(app.session.state == .loggedIn(user: "alice", token: "t-alice"))
        #expect(app.documents.state == DocumentState(loading: false, title: "Q3 report"))
        #expect(
            report
                == RestoreReport(
                    step: 5, trace: "session.jsonl", restored: ["SessionStore", "DocumentStore"], absent: [],
                    keptValues: []))
        #expect(observed.withLock { $0 })
        // The subscriber was told once, knew it was a restore, and saw the document restored too.
        let told = Array(app.log.seen.dropFirst(seenBefore))
        #expect(
            told == [
                SubscriberLog.Entry(
                    session: .loggedIn(user: "alice", token: "t-alice"), isRestore: true,
                    document: DocumentState(loading: false, title: "Q3 report"))
            ])
        // Its reaction was not sent, and the side effect it guards was not started.
        #expect(app.log.requestCount == 1)
        let events = try app.events().suffix(2)
        #expect(events.map { $0["type"]?.stringValue } == ["restore", "restore"])
        #expect(events.map { $0["store"]?.stringValue } == ["SessionStore", "DocumentStore"])
        #expect(events.first?["case"]?.stringValue == "loggedIn")
        #expect(events.allSatisfy { $0["step"]?.intValue == 5 && $0["trace"]?.stringValue == "session.jsonl" })
        #expect(try app.events().count == 8)
    }

    @Test func aTraceWithTimeTravelInItValidates() throws {
        let app = try recordedApp()
        try app.restorer.restore(from: try app.trace(), atStep: 5)  // loggedOut → loggedIn by a restore
        app.session.logOut()  // and on from the restored case
        let report = TraceValidator().validate(bytes: app.sink.data)
        #expect(report.problems.isEmpty, "\(report.problems)")
        // The restored state is the app state at the restore's step, as the format page says.
        let trace = try app.trace()
        let restoredStep = trace.lastStep - 1
        #expect(trace.state(of: "SessionStore", atStep: restoredStep) == trace.state(of: "SessionStore", atStep: 5))
    }

    @Test func actionsSentAfterARestoreRunAsUsual() throws {
        let app = try recordedApp()
        try app.restorer.restore(from: try app.trace(), atStep: 2)
        app.session.logIn("bob", token: "t-bob")
        #expect(app.documents.state.loading)  // the reaction runs again
        #expect(app.log.requestCount == 2)
    }

    @Test func aStateThatNoLongerDecodesRestoresNothing() throws {
        let app = try recordedApp()
        // The same trace, as an older version of the app recorded it: the title was a number.
        let older = app.sink.text.replacingOccurrences(of: "\"Q3 report\"", with: "42")
        let trace = try TraceFile(bytes: Array(older.utf8), name: "older.jsonl")
        let linesBefore = app.sink.lines.count

        let error = #expect(throws: RestoreError.self) { try app.restorer.restore(from: trace, atStep: 5) }

        #expect(error?.kind == .cannotDecode)
        #expect(error?.store == "DocumentStore")
        #expect(error?.path == StatePath([.key("title")]))
        #expect(error?.type == "String")
        #expect(error?.message.contains("DocumentStore.title") == true)
        // Atomic: the session, which decodes, was not restored either, and nothing was written.
        #expect(app.session.state == .loggedOut)
        #expect(app.documents.state == DocumentState(loading: false, title: "Q3 report"))
        #expect(app.sink.lines.count == linesBefore)
    }

    @Test func aRedactedValueKeepsTheLiveValueAndSaysWhere() throws {
        let app = try SessionApp(redactedKeys: ["token"])
        app.session.logIn("alice", token: "t-alice")
        app.session.logOut()
        app.session.logIn("bob", token: "t-bob")
        let trace = try app.trace()
        #expect(trace.state(of: "SessionStore", atStep: 3)?["loggedIn"]?["token"] == .string("<redacted>"))

        let report = try app.restorer.restore(from: trace, atStep: 3)

        // Alice, with the token the app holds now: never the text "<redacted>".
        #expect(app.session.state == .loggedIn(user: "alice", token: "t-bob"))
        #expect(report.keptValues == [StatePath([.key("SessionStore"), .key("loggedIn"), .key("token")])])
        #expect(!app.sink.text.contains("t-bob") && !app.sink.text.contains("t-alice"))
    }

    @Test func aRedactedValueCanBeRefused() throws {
        let app = try SessionApp(redactedKeys: ["token"])
        app.session.logIn("alice", token: "t-alice")
        let trace = try app.trace()
        let linesBefore = app.sink.lines.count
        let error = #expect(throws: RestoreError.self) {
            try app.restorer.restore(from: trace, atStep: 3, redactedValues: .refuse)
        }
        #expect(error?.kind == .redacted)
        #expect(error?.paths.map(\.description) == ["SessionStore.loggedIn.token"])
        #expect(app.sink.lines.count == linesBefore)
    }

    @Test func aRedactedValueWithNoLiveValueToKeepRestoresNothing() throws {
        let app = try SessionApp(redactedKeys: ["token"])
        app.session.logIn("alice", token: "t-alice")
        app.documents.loaded("Q3")
        app.session.logOut()
        let trace = try app.trace()
        // Logged out now: there is no live token to keep for alice's session.
        let error = #expect(throws: RestoreError.self) { try app.restorer.restore(from: trace, atStep: 5) }
        #expect(error?.kind == .redacted)
        #expect(error?.message.contains("SessionStore.loggedIn.token") == true)
        #expect(app.session.state == .loggedOut)
        #expect(app.documents.state.title == "Q3")
    }

    @Test func aSecretKeepsItsLiveValue() throws {
        struct Login: Equatable, Codable, Sendable {
            var user: String
            var password: Secret<String>
        }
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink)
        let store = Store(initialState: Login(user: "alice", password: Secret("one")), recorder: recorder)
        store.send("typeAgain") { $0 = Login(user: "bob", password: Secret("two")) }
        try Restorer([RestorableStore(store)]).restore(from: try TraceFile(bytes: sink.data), atStep: 1)
        #expect(store.state == Login(user: "alice", password: Secret("two")))
        #expect(!sink.text.contains("two") && !sink.text.contains("one"))
    }

    @Test func onlyTheStoresNamedAreRestored() throws {
        let app = try recordedApp()
        let report = try app.restorer.restore(from: try app.trace(), atStep: 5, stores: ["DocumentStore"])
        #expect(report.restored == ["DocumentStore"])
        #expect(app.session.state == .loggedOut)
        #expect(try app.events().last?["store"]?.stringValue == "DocumentStore")
    }

    @Test func aStoreWithNoStateAtTheStepIsLeftAsItIs() throws {
        let app = try recordedApp()
        let report = try app.restorer.restore(from: try app.trace(), atStep: 1)
        #expect(report.restored == ["SessionStore"])
        #expect(report.absent == ["DocumentStore"])
        #expect(app.documents.state.title == "Q3 report")
    }

    @Test func unknownStoresAndStepsOutOfRangeAreErrors() throws {
        let app = try recordedApp()
        let trace = try app.trace()
        let unknown = #expect(throws: RestoreError.self) {
            try app.restorer.restore(from: trace, atStep: 5, stores: ["Cart"])
        }
        #expect(unknown?.kind == .unknownStore && unknown?.message.contains("SessionStore, DocumentStore") == true)
        let past = #expect(throws: RestoreError.self) { try app.restorer.restore(from: trace, atStep: 7) }
        #expect(past?.kind == .stepOutOfRange)
        #expect(app.session.state == .loggedOut)
    }

    @Test func aRecordingTakesTheStateAndTheModelIsToldOnce() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink)
        let recording = StoreRecording(name: "Wishlist", initialState: ["MUG"], recorder: recorder)
        recording.record("save", state: ["MUG", "HAT"])
        let applied = AppliedStates()
        let restorer = Restorer([
            RestorableStore(recording) { state in applied.add(state, ActionCause.current.isRestore) }
        ])
        try restorer.restore(from: try TraceFile(bytes: sink.data), atStep: 1)
        try restorer.restore(from: try TraceFile(bytes: sink.data), atStep: 1)  // the same state: not told
        #expect(applied.all == [AppliedStates.Entry(state: ["MUG"], isRestore: true)])
        #expect(recording.state == ["MUG"])
        recording.record("save", state: ["MUG", "PEN"])
        #expect(sink.lines.last?.contains("\"changed\":true") == true)
    }
}

/// What a model's `apply` was given.
final class AppliedStates: Sendable {
    struct Entry: Equatable {
        var state: [String]
        var isRestore: Bool
    }
    private let entries = Lock<[Entry]>([])
    func add(_ state: [String], _ isRestore: Bool) {
        entries.withLock { $0.append(Entry(state: state, isRestore: isRestore)) }
    }
    var all: [Entry] { entries.withLock { $0 } }
}
