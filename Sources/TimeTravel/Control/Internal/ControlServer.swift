import Dispatch
@_spi(RewindInternals) internal import RewindSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The thread behind a `ControlChannel`: it waits (`poll`) on the listening socket, the one
/// connection and a pipe that wakes it to stop; it reads messages, hands each restore to
/// `perform` and waits for it, and sends the reply. Nothing it does blocks the app: its waits
/// are bounded (`ControlChannel.Limits`), and the app's thread only runs the restore itself.
///
/// A class: it owns the socket and the thread. Its mutable state (the connection) is only
/// touched by its thread; other threads only call `stop`, which writes to the pipe.
final class ControlServer: @unchecked Sendable {
    private let socketPath: String
    private let listener: FileDescriptor
    /// The socket file as created, so that `stop` removes only it.
    private let socketFile: FileStatus?
    private let wake: SocketCalls.Pipe
    private let job: RestoreJob
    private let limits: ControlChannel.Limits
    private let perform: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let stopping = AtomicCell<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(
        socketPath: String, job: RestoreJob, limits: ControlChannel.Limits,
        perform: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void
    ) throws(ControlChannelError) {
        self.socketPath = socketPath
        self.job = job
        self.limits = limits
        self.perform = perform
        try Self.clearStaleSocket(at: socketPath)
        do {
            listener = try SocketCalls.listen(at: socketPath)
            wake = try SocketCalls.makePipe()
        } catch {
            throw ControlChannelError(Self.openMessage(socketPath, error))
        }
        socketFile = try? SystemCalls.status(ofPath: socketPath, followingLinks: false)
    }

    func start() {
        // A queue of its own (a thread of its own for as long as `serve` runs), named for a
        // debugger's list of threads; not Foundation's `Thread`, which would bring all of
        // Foundation (and ICU) into every process that links TimeTravel.
        DispatchQueue(label: "Rewind control channel").async { [self] in
            serve()
            finished.signal()
        }
    }

    /// Stops the thread (waiting for it a little) and removes the socket file.
    func stop() {
        guard !stopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        try? wake.write.writeAll([1])
        _ = finished.wait(timeout: .now() + .milliseconds(2_000))
        if let created = socketFile,
            let now = try? SystemCalls.status(ofPath: socketPath, followingLinks: false), now.isSameFile(as: created)
        {
            try? SystemCalls.unlink(socketPath)
        }
    }

    // MARK: The thread

    /// One inspector's connection.
    private final class Connection {
        let socket: FileDescriptor
        var buffer: LineBuffer
        /// When the part of a line in `buffer` started to come.
        var partialSince: UInt64?

        init(socket: consuming FileDescriptor, limit: Int) {
            self.socket = socket
            buffer = LineBuffer(limit: limit)
        }
    }

    private func serve() {
        var connection: Connection?
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while !stopping.load(ordering: .sequentiallyConsistent) {
            var watched = [wake.read.rawValue, listener.rawValue]
            if let connection { watched.append(connection.socket.rawValue) }
            var timeout: Int32 = -1
            if let since = connection?.partialSince {
                let waited = Int64((monotonicNanoseconds() &- since) / 1_000_000)
                timeout = Int32(max(0, min(Int64(limits.messageMilliseconds) - waited, Int64(Int32.max))))
            }
            guard let ready = try? SocketCalls.waitForInput(watched, timeoutMilliseconds: timeout) else {
                SystemCalls.sleep(nanoseconds: 50_000_000)  // a poll that fails: try again, without spinning
                continue
            }
            if ready[0] { break }
            // The connection first: an inspector that quit and one that attaches in its place
            // may come in the same wait.
            if let current = connection, ready.count > 2, ready[2] {
                if !read(current, chunk: &chunk) { connection = nil }
            }
            if ready[1] { accept(into: &connection, chunk: &chunk) }
            if let current = connection, let since = current.partialSince,
                monotonicNanoseconds() &- since >= UInt64(limits.messageMilliseconds) * 1_000_000
            {
                reply(
                    .error(
                        "a message must end with a newline within \(limits.messageMilliseconds) ms; disconnecting"),
                    on: current)
                connection = nil
            }
        }
    }

    /// Accepts the connections waiting: the first becomes the connection, unless one is there
    /// already or it comes from another user.
    private func accept(into connection: inout Connection?, chunk: inout [UInt8]) {
        while let socket = try? SocketCalls.accept(listener.rawValue) {
            let incoming = Connection(socket: socket, limit: limits.maximumMessageBytes)
            // An inspector that quit a moment ago may not have been noticed yet.
            if let current = connection,
                (try? SocketCalls.waitForInput([current.socket.rawValue], timeoutMilliseconds: 0))?.first == true,
                !read(current, chunk: &chunk)
            {
                connection = nil
            }
            if SocketCalls.peerUserID(incoming.socket.rawValue) != SocketCalls.currentUserID {
                reply(.error("this app accepts an inspector of its own user only"), on: incoming)
            } else if connection != nil {
                reply(
                    .error("another inspector is attached to this app; only one at a time: quit it first"), on: incoming
                )
            } else if reply(
                .hello(trace: job.tracePath, pid: Int(ProcessInfo.processInfo.processIdentifier)), on: incoming)
            {
                connection = incoming
            }
        }
    }

    /// Reads what the connection has and answers each whole message; returns false when the
    /// connection is over (closed by the inspector, or by a message that breaks the rules).
    private func read(_ connection: Connection, chunk: inout [UInt8]) -> Bool {
        while true {
            let received = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in try SocketCalls.receive(connection.socket.rawValue, into: buffer) }
            }
            guard case .success(let got) = received else { return false }  // a reset connection
            guard let count = got else { break }  // nothing more for now
            if count == 0 { return false }  // the inspector closed it
            chunk.withUnsafeBytes { connection.buffer.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            while let line = connection.buffer.nextLine() {
                if line.count > limits.maximumMessageBytes {
                    reply(tooLong, on: connection)
                    return false
                }
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                guard reply(answer(line), on: connection) else { return false }
            }
            if connection.buffer.isOverLimit {
                reply(tooLong, on: connection)
                return false
            }
        }
        connection.partialSince =
            connection.buffer.hasPartialLine ? (connection.partialSince ?? monotonicNanoseconds()) : nil
        return true
    }

    private var tooLong: ControlReply {
        .error("a message is at most \(limits.maximumMessageBytes) bytes, one JSON object per line; disconnecting")
    }

    /// The reply to one message line: the restore's, run through `perform`, or an error.
    private func answer(_ line: [UInt8]) -> ControlReply {
        let request: ControlRequest
        do {
            request = try ControlRequest.parse(line)
        } catch {
            return .error(error.message)
        }
        let outcome = Lock<ControlReply?>(nil)
        let done = DispatchSemaphore(value: 0)
        // Whether the restore ran: `waiting` until the app's thread starts it (`running`) or the
        // server gives up on it (`abandoned`), whichever comes first, so that a restore answered
        // as not run never runs later (it would write restore events the inspector never asked
        // for any more).
        let turn = AtomicCell<Int>(RestoreTurn.waiting)
        let job = job
        perform {
            guard
                turn.compareExchange(
                    expected: RestoreTurn.waiting, desired: RestoreTurn.running, ordering: .acquiringAndReleasing
                ).exchanged
            else { return }  // given up on: the inspector was told it did not run
            let reply = job.run(request)
            outcome.withLock { $0 = reply }
            done.signal()
        }
        // Waited for in slices, so that `stop` is not held up by an app that never runs it.
        var waited = 0
        while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            waited += 50
            let stopping = stopping.load(ordering: .sequentiallyConsistent)
            guard waited >= limits.restoreMilliseconds || stopping else { continue }
            if turn.compareExchange(
                expected: RestoreTurn.waiting, desired: RestoreTurn.abandoned, ordering: .acquiringAndReleasing
            ).exchanged {
                return .error(
                    "the app did not run the restore within \(limits.restoreMilliseconds) ms: its thread is busy; the restore will not run"
                )
            }
            // It started: it ends by itself, so its reply is waited for, unless the channel stops.
            if stopping {
                return .error("the channel is closing while the restore runs; it will finish, but is not reported")
            }
        }
        return outcome.withLock { $0 } ?? .error("the restore ended without a reply")
    }

    /// Sends `message`; returns false (the connection is to be dropped) when the inspector does
    /// not take it within `Limits.replyMilliseconds` or is gone.
    @discardableResult
    private func reply(_ message: ControlReply, on connection: Connection) -> Bool {
        let bytes = Array((message.line + "\n").utf8)
        do {
            try SocketCalls.send(connection.socket.rawValue, bytes, timeoutMilliseconds: limits.replyMilliseconds)
            return true
        } catch {
            return false
        }
    }

    /// The states of a restore request (`answer`): waiting for the app's thread, running there,
    /// or abandoned by the server, which then never lets it run.
    private enum RestoreTurn {
        static let waiting = 0
        static let running = 1
        static let abandoned = 2
    }

    // MARK: Opening

    /// Removes a socket file at `path` that no program listens on (left by an app that ended
    /// without closing its channel). Anything else at `path` is an error: it is never removed.
    private static func clearStaleSocket(at path: String) throws(ControlChannelError) {
        guard let existing = try? SystemCalls.status(ofPath: path, followingLinks: false) else { return }
        guard existing.kind == .socket else {
            throw ControlChannelError(
                "\(path) exists and is not a socket; the control channel will not replace it: choose another path")
        }
        do {
            _ = try SocketCalls.connect(to: path)
            throw ControlChannelError(
                "another program listens at \(path) (is the app running twice?); choose another path")
        } catch let error as SystemError where error.code == ECONNREFUSED {
            try? SystemCalls.unlink(path)
        } catch let error as ControlChannelError {
            throw error
        } catch {
            throw ControlChannelError(openMessage(path, error as? SystemError ?? SystemError(code: EIO)))
        }
    }

    private static func openMessage(_ path: String, _ error: SystemError) -> String {
        if error.code == ENAMETOOLONG {
            return
                "the socket path \(path) is longer than \(SocketCalls.maximumPathLength) bytes, the most a Unix socket's path can be; use a shorter one, such as /tmp/app.sock"
        }
        return "cannot create the control socket \(path): \(error.reason)"
    }
}
