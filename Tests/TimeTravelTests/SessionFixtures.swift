import Recorder
@_spi(RewindInternals) import RewindSupport
import TimeTravel
import TraceJSON
import TraceReader

// A small app for the restore tests: a session that logs in and out, and a document store that
// the session's subscriber loads once a user is logged in (the reaction a restore must not set
// off), recorded to memory.

enum SessionState: StateMachine, Equatable, Codable, Sendable {
    case loggedOut
    case loggedIn(user: String, token: String)

    enum Case: String, CaseIterable, Sendable { case loggedOut, loggedIn }
    static let initialCase = Case.loggedOut
    var currentCase: Case {
        switch self {
        case .loggedOut: .loggedOut
        case .loggedIn: .loggedIn
        }
    }
    static func transitions(from source: Case) -> [Case] {
        switch source {
        case .loggedOut: [.loggedIn]
        case .loggedIn: [.loggedOut]
        }
    }
}

final class SessionStore: Store<SessionState>, @unchecked Sendable {
    init(recorder: TraceRecorder?) { super.init(initialState: .loggedOut, recorder: recorder) }
    func logIn(_ user: String, token: String) { send { $0 = .loggedIn(user: user, token: token) } }
    func logOut() { send { $0 = .loggedOut } }
}

struct DocumentState: Equatable, Codable, Sendable {
    var loading = false
    var title: String?
}

final class DocumentStore: Store<DocumentState>, @unchecked Sendable {
    init(recorder: TraceRecorder?) { super.init(initialState: DocumentState(), recorder: recorder) }
    func load() { send { $0.loading = true } }
    func loaded(_ title: String) { send { $0 = DocumentState(loading: false, title: title) } }
}

/// What the app's subscribers saw and did, kept across threads.
final class SubscriberLog: Sendable {
    struct Entry: Equatable {
        var session: SessionState
        var isRestore: Bool
        /// The document's state when the session's subscriber ran.
        var document: DocumentState
    }
    private let entries = Lock<[Entry]>([])
    /// Requests the app started (a side effect that is not an action), skipped on a restore.
    private let requests = Lock(0)

    func add(_ entry: Entry) { entries.withLock { $0.append(entry) } }
    func startRequest() { requests.withLock { $0 += 1 } }
    var seen: [Entry] { entries.withLock { $0 } }
    var requestCount: Int { requests.withLock { $0 } }
}

/// The app: two stores, the reaction that loads the document on a log-in, and its recording.
final class SessionApp {
    let sink = MemorySink()
    let recorder: TraceRecorder
    let session: SessionStore
    let documents: DocumentStore
    let log = SubscriberLog()
    private var subscriptions: [Subscription] = []

    /// - Parameter tracePath: a file to record to, instead of `sink`.
    init(redactedKeys: Redaction = .none, tracePath: String? = nil) throws {
        recorder =
            try tracePath.map { try TraceRecorder(path: $0, app: "SessionApp", redactedKeys: redactedKeys) }
            ?? TraceRecorder(sink: sink, app: "SessionApp", redactedKeys: redactedKeys)
        session = SessionStore(recorder: recorder)
        documents = DocumentStore(recorder: recorder)
        let documents = documents
        let log = log
        let first = Lock(true)  // `subscribe` calls at once with the current state: not a change
        subscriptions.append(
            session.subscribe { state in
                guard
                    !first.withLock({ isFirst in
                        defer { isFirst = false }
                        return isFirst
                    })
                else { return }
                log.add(
                    SubscriberLog.Entry(
                        session: state, isRestore: ActionCause.current.isRestore, document: documents.state))
                if case .loggedIn = state {
                    documents.load()  // an action: a restore drops it
                    if !ActionCause.current.isRestore { log.startRequest() }  // a side effect the app skips
                }
            })
    }

    var restorer: Restorer { Restorer([RestorableStore(session), RestorableStore(documents)]) }

    /// The trace as recorded so far.
    func trace() throws -> TraceFile { try TraceFile(bytes: sink.data, name: "session.jsonl") }

    /// The events recorded so far, parsed.
    func events() throws -> [JSONObject] {
        try sink.lines.dropFirst().map { line in
            guard case .object(let object) = try JSONParser.parse(line) else { throw TestError("not an object") }
            return object
        }
    }
}

struct TestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
