import Dispatch
import Foundation
@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing

@testable import TimeTravel

/// The app's side of `inspector step --attach`: a socket that sets the app to steps of its own
/// trace, answers every message (a bad one with an error), takes one inspector at a time, and
/// never stops the app.
@Suite struct ControlChannelTests {
    /// An app recording to a file, with a channel open on it, and the events of `RestoreTests`:
    /// register ×2, logIn, the subscriber's load, loaded, logOut (steps 1-6).
    final class AttachedApp {
        let folder: TemporaryFolder
        let app: SessionApp
        let channel: ControlChannel
        let restores = Lock<[RestoreReport]>([])

        init(
            limits: ControlChannel.Limits = ControlChannel.Limits(),
            perform: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil
        ) throws {
            folder = try TemporaryFolder()
            app = try SessionApp(tracePath: folder.path("shop.jsonl"))
            app.session.logIn("alice", token: "t-alice")
            app.documents.loaded("Q3 report")
            app.session.logOut()
            let restores = restores
            channel = try ControlChannel(
                tracePath: folder.path("shop.jsonl"), restorer: app.restorer, limits: limits,
                perform: perform ?? { $0() }, onRestore: { report in restores.withLock { $0.append(report) } })
        }

        func connect() throws -> ControlClient {
            try ControlClient(socketPath: channel.socketPath, timeoutMilliseconds: 5_000)
        }

        /// A raw connection, past the hello, for sending what no inspector would.
        func rawConnection() throws -> RawConnection {
            let connection = RawConnection(try SocketCalls.connect(to: channel.socketPath))
            _ = connection.readLine()
            return connection
        }
    }

    /// A connection that sends bytes as given and reads reply lines.
    final class RawConnection {
        let socket: FileDescriptor
        private var pending: [UInt8] = []

        init(_ socket: consuming FileDescriptor) { self.socket = socket }

        func send(_ text: String) throws {
            try SocketCalls.send(socket.rawValue, Array(text.utf8), timeoutMilliseconds: 2_000)
        }

        /// The next line from the app, or nil when the connection closed or 5 s passed.
        func readLine(timeout: Double = 5) -> String? {
            let deadline = Date().addingTimeInterval(timeout)
            var chunk = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline {
                if let newline = pending.firstIndex(of: 0x0A) {
                    defer { pending.removeSubrange(...newline) }
                    return String(decoding: pending[..<newline], as: UTF8.self)
                }
                _ = try? SocketCalls.waitForInput([socket.rawValue], timeoutMilliseconds: 100)
                let got = chunk.withUnsafeMutableBytes { try? SocketCalls.receive(socket.rawValue, into: $0) }
                switch got {
                case 0?: return nil
                case let count?: pending += chunk[..<count]
                case nil: continue
                }
            }
            return nil
        }

        /// Whether the app closed the connection (within 5 s).
        func isClosed() -> Bool {
            while readLine() != nil {}
            return true
        }
    }

    @Test func theInspectorMovesTheAppAndBringsItBackToItsPresent() throws {
        let attached = try AttachedApp()
        let client = try attached.connect()
        #expect(client.tracePath == attached.folder.path("shop.jsonl"))
        #expect(client.pid == Int(ProcessInfo.processInfo.processIdentifier))

        let reply = try client.request(.restore(step: 5))
        #expect(
            reply
                == .restored(
                    step: 5, present: false, stores: ["SessionStore", "DocumentStore"], absent: [], kept: []))
        #expect(attached.app.session.state == .loggedIn(user: "alice", token: "t-alice"))
        #expect(attached.restores.withLock { $0.map(\.step) } == [5])
        #expect(
            try client.request(.restore(step: 2))
                == .restored(step: 2, present: false, stores: ["SessionStore", "DocumentStore"], absent: [], kept: []))
        #expect(attached.app.documents.state == DocumentState())

        // The present is the last step before the first restore: logged out, the report loaded.
        let back = try client.request(.present)
        #expect(
            back == .restored(step: 6, present: true, stores: ["SessionStore", "DocumentStore"], absent: [], kept: []))
        #expect(attached.app.session.state == .loggedOut)
        #expect(attached.app.documents.state == DocumentState(loading: false, title: "Q3 report"))
        // Back at the present, `present` has nothing to do.
        let again = try client.request(.present)
        guard case .restored(_, true, let stores, _, _) = again else {
            Issue.record("not a present reply: \(again)")
            return
        }
        #expect(stores.isEmpty)
    }

    @Test func aBadMessageGetsAnErrorAndTheConnectionGoesOn() throws {
        let attached = try AttachedApp()
        let connection = try attached.rawConnection()
        for message in [
            "hello?", "[1,2]", "{\"type\":\"restore\"}", "{\"type\":\"restore\",\"step\":-1}",
            "{\"type\":\"restore\",\"step\":\"5\"}", "{\"type\":\"erase\"}", "{\"type\":\"restore\",\"step\":99}",
            "\u{1B}[2J\u{0}\u{FF}", "{\"type\":\"restore\",\"step\":1e400}", String(repeating: "[", count: 5000),
        ] {
            try connection.send(message + "\n")
            let reply = try #require(connection.readLine(), "no reply to \(message)")
            #expect(reply.hasPrefix("{\"type\":\"error\",\"message\":"), "\(message) → \(reply)")
        }
        try connection.send("\n  \n{\"type\":\"restore\",\"step\":3}\r\n")
        #expect(connection.readLine()?.hasPrefix("{\"type\":\"restored\",\"step\":3,") == true)
        #expect(attached.app.session.state == .loggedIn(user: "alice", token: "t-alice"))
    }

    @Test func aMessageTooLongOrTooSlowIsRefusedAndTheAppGoesOn() throws {
        var limits = ControlChannel.Limits()
        limits.maximumMessageBytes = 1_000
        limits.messageMilliseconds = 300
        let attached = try AttachedApp(limits: limits)

        let long = try attached.rawConnection()
        try long.send(String(repeating: "x", count: 5_000))
        #expect(long.readLine()?.contains("at most 1000 bytes") == true)
        #expect(long.isClosed())

        let slow = try attached.rawConnection()
        try slow.send("{\"type\":\"rest")
        #expect(slow.readLine()?.contains("within 300 ms") == true)
        #expect(slow.isClosed())

        // The next inspector is served.
        #expect(try attached.connect().request(.restore(step: 1)).isRestored)
    }

    @Test func oneInspectorAtATime() throws {
        let attached = try AttachedApp()
        var first: ControlClient? = try attached.connect()
        let refused = #expect(throws: ControlChannelError.self) { try attached.connect() }
        #expect(refused?.message.contains("another inspector is attached") == true)
        #expect(try first?.request(.restore(step: 3)).isRestored == true)
        first = nil  // quits
        #expect(try attached.connect().request(.restore(step: 4)).isRestored)
    }

    @Test func anInspectorThatGoesAwayMidRequestLeavesTheAppRunning() throws {
        let attached = try AttachedApp()
        do {
            let connection = try attached.rawConnection()
            try connection.send("{\"type\":\"restore\",\"step\":5}\n{\"type\":\"restore\",\"step\":4}\n")
        }  // closed before reading its replies
        // The app restored what it was sent, and takes the next inspector, which finds the present.
        let client = try waitForConnection(attached)
        #expect(try client.request(.present).isRestored)
        #expect(attached.app.session.state == .loggedOut)
        attached.app.session.logIn("bob", token: "t-bob")  // and the app goes on
        #expect(attached.app.documents.state.loading)
    }

    @Test func restoresRunWhereTheAppSaysAndABusyAppIsReported() throws {
        let queue = DispatchQueue(label: "the app's thread")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let ranOnQueue = Lock<[Bool]>([])
        let attached = try AttachedApp(perform: { work in
            queue.async {
                ranOnQueue.withLock { $0.append(DispatchQueue.getSpecific(key: key) == true) }
                work()
            }
        })
        #expect(try attached.connect().request(.restore(step: 3)).isRestored)
        #expect(ranOnQueue.withLock { $0 } == [true])

        var limits = ControlChannel.Limits()
        limits.restoreMilliseconds = 200
        let busy = try AttachedApp(limits: limits, perform: { _ in })  // never runs it
        let reply = try busy.connect().request(.restore(step: 3))
        #expect(
            reply
                == .error("the app did not run the restore within 200 ms: its thread is busy; the restore will not run")
        )
    }

    @Test func aRestoreAnsweredAsBusyNeverRunsLater() throws {
        var limits = ControlChannel.Limits()
        limits.restoreMilliseconds = 100
        let held = Lock<[@Sendable () -> Void]>([])  // the work the app's thread has not run yet
        let late = try AttachedApp(limits: limits, perform: { work in held.withLock { $0.append(work) } })
        let reply = try late.connect().request(.restore(step: 3))
        #expect(reply.isRestored == false)
        let traceBefore = try String(contentsOfFile: late.folder.path("shop.jsonl"), encoding: .utf8)
        // The app's thread gets to it at last: it must not restore.
        for work in held.withLock({ $0 }) { work() }
        #expect(late.app.session.state == .loggedOut)
        #expect(late.restores.withLock { $0 }.isEmpty)
        #expect(try String(contentsOfFile: late.folder.path("shop.jsonl"), encoding: .utf8) == traceBefore)
    }

    @Test func anInspectorAttachesOnlyToItsOwnUsersProgram() throws {
        let attached = try AttachedApp()
        let path = attached.channel.socketPath
        // The app runs as this user: for an inspector of another user, the socket is a stranger's.
        let stranger = #expect(throws: ControlChannelError.self) {
            try ControlClient(socketPath: path, user: SocketCalls.currentUserID &+ 1)
        }
        #expect(stranger?.message.contains("not to you") == true)
        #expect(stranger?.message.contains("not attaching to it") == true)
        #expect(try attached.connect().request(.present).isRestored)
    }

    @Test(.enabled(if: getuid() == 0, "changing a file's owner needs root"))
    func aSocketFileOfAnotherUserIsRefused() throws {
        let attached = try AttachedApp()
        let path = attached.channel.socketPath
        // Another user's socket, open to all (mode 0777), at the path where the app's was.
        #expect(chown(path, 65534, 65534) == 0)
        #expect(chmod(path, 0o777) == 0)
        let refused = #expect(throws: ControlChannelError.self) { try attached.connect() }
        #expect(refused?.message.contains("belongs to user 65534") == true)
    }

    @Test func aTraceReplacedByAnotherAppsIsRefusedAndReported() throws {
        let folder = try TemporaryFolder()
        let app = try SessionApp(tracePath: folder.path("shop.jsonl"))
        app.session.logIn("alice", token: "t-alice")
        let errors = Lock<[ControlChannelError]>([])
        let channel = try ControlChannel(
            tracePath: folder.path("shop.jsonl"), restorer: app.restorer,
            onError: { error in errors.withLock { $0.append(error) } })
        let client = try ControlClient(socketPath: channel.socketPath)
        #expect(try client.request(.restore(step: 2)).isRestored)
        #expect(try client.request(.present).isRestored)

        // A second app started with the same trace path: its file replaces this app's.
        let other = try SessionApp(tracePath: folder.path("other.jsonl"))
        other.session.logIn("mallory", token: "t-mallory")
        other.session.logOut()
        #expect(rename(folder.path("other.jsonl"), folder.path("shop.jsonl")) == 0)

        let refused = try client.request(.restore(step: 2))
        guard case .error(let message) = refused else {
            Issue.record("restored from another app's trace: \(refused)")
            return
        }
        #expect(message.contains("is no longer the trace this app writes"))
        #expect(try client.request(.restore(step: 1)).isRestored == false)
        #expect(app.session.state != .loggedOut)  // still alice's: nothing of the other run
        #expect(errors.withLock { $0.count } == 1)  // told once
        #expect(errors.withLock { $0.first?.message } == message)
    }

    /// The file is replaced before the channel's first request, here before it even opens: the
    /// channel takes the identity of the file the app's recorder writes (its open descriptor),
    /// not of whatever is at the path then, so it refuses the other app's trace and says so once.
    /// (It looked the path up when it opened, and adopted the other app's file.)
    @Test func aTraceReplacedBeforeTheChannelOpensIsRefusedAndReported() throws {
        let folder = try TemporaryFolder()
        let app = try SessionApp(tracePath: folder.path("shop.jsonl"))
        app.session.logIn("alice", token: "t-alice")
        let other = try SessionApp(tracePath: folder.path("other.jsonl"))
        other.session.logIn("mallory", token: "t-mallory")
        other.session.logOut()
        #expect(rename(folder.path("other.jsonl"), folder.path("shop.jsonl")) == 0)

        let errors = Lock<[ControlChannelError]>([])
        let channel = try ControlChannel(
            tracePath: folder.path("shop.jsonl"), restorer: app.restorer,
            onError: { error in errors.withLock { $0.append(error) } })
        let client = try ControlClient(socketPath: channel.socketPath)
        let refused = try client.request(.restore(step: 4))
        guard case .error(let message) = refused else {
            Issue.record("restored from another app's trace: \(refused)")
            return
        }
        #expect(message.contains("is no longer the trace this app writes"))
        #expect(try client.request(.present).isRestored == false)
        #expect(app.session.state == .loggedIn(user: "alice", token: "t-alice"))
        #expect(errors.withLock { $0.count } == 1)  // told once
    }

    @Test func theSocketIsPrivateAndRemovedOnClose() throws {
        let attached = try AttachedApp()
        let status = try SystemCalls.status(ofPath: attached.channel.socketPath, followingLinks: false)
        #expect(status.kind == .socket)
        #expect(status.permissions == 0o600)
        #expect(attached.channel.socketPath == attached.folder.path("shop.sock"))
        attached.channel.close()
        #expect(!FileManager.default.fileExists(atPath: attached.channel.socketPath))
        #expect(throws: ControlChannelError.self) { try attached.connect() }
    }

    @Test func aStaleSocketIsReplacedAndAnyOtherFileIsNot() throws {
        let folder = try TemporaryFolder()
        let app = try SessionApp(tracePath: folder.path("run.jsonl"))
        // A socket that an app left behind (no one listens on it).
        do { _ = try SocketCalls.listen(at: folder.path("stale.sock")) }
        let channel = try ControlChannel(
            socketPath: folder.path("stale.sock"), tracePath: folder.path("run.jsonl"), restorer: app.restorer)
        #expect(try ControlClient(socketPath: channel.socketPath).request(.restore(step: 1)).isRestored)

        // One that a running app listens on.
        let twice = #expect(throws: ControlChannelError.self) {
            try ControlChannel(
                socketPath: channel.socketPath, tracePath: folder.path("run.jsonl"), restorer: app.restorer)
        }
        #expect(twice?.message.contains("another program listens") == true)

        // A file that is not a socket.
        try "keep me".write(toFile: folder.path("notes.txt"), atomically: true, encoding: .utf8)
        let other = #expect(throws: ControlChannelError.self) {
            try ControlChannel(
                socketPath: folder.path("notes.txt"), tracePath: folder.path("run.jsonl"), restorer: app.restorer)
        }
        #expect(other?.message.contains("is not a socket") == true)
        #expect(try String(contentsOfFile: folder.path("notes.txt"), encoding: .utf8) == "keep me")

        let long = "/tmp/" + String(repeating: "d", count: 120) + ".sock"
        let tooLong = #expect(throws: ControlChannelError.self) {
            try ControlChannel(socketPath: long, tracePath: folder.path("run.jsonl"), restorer: app.restorer)
        }
        #expect(tooLong?.message.contains("use a shorter one") == true)
    }

    /// A new client, once the channel has noticed that the last one went away.
    private func waitForConnection(_ attached: AttachedApp) throws -> ControlClient {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let client = try? attached.connect() { return client }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return try attached.connect()
    }
}

extension ControlReply {
    var isRestored: Bool {
        if case .restored = self { true } else { false }
    }
}
