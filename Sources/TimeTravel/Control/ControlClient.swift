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

/// The inspector's side of a control channel: it connects, reads the app's hello (its trace),
/// sends requests and reads replies, never waiting longer than it is told.
///
/// A class: it owns the connection, closed with it. Used from one thread at a time.
package final class ControlClient {
    /// The app's trace, an absolute path, from its hello.
    package let tracePath: String
    /// The app's process id, from its hello.
    package let pid: Int
    private let socket: FileDescriptor
    private var buffer = LineBuffer(limit: 1 << 20)

    /// Connects to the app listening at `socketPath` and reads its hello.
    /// - Throws: `ControlChannelError` saying why the app cannot be reached, or its refusal
    ///   (another inspector is attached).
    ///   `user` is the user whose app may be attached to (this process's; tests name another).
    package init(
        socketPath: String, timeoutMilliseconds: Int32 = 5_000, user: UInt32 = SocketCalls.currentUserID
    ) throws(ControlChannelError) {
        // Another user's socket or program at a path where this user's app was expected (a
        // shared directory such as /tmp) is not talked to: the socket file must be the user's
        // (as the app makes it, mode 0600), and so must the process listening on it.
        if let file = try? SystemCalls.status(ofPath: socketPath, followingLinks: false), file.owner != user {
            throw ControlChannelError(
                "the socket \(socketPath) belongs to user \(file.owner), not to you (user \(user)); not attaching to it: an app's control socket is made by the app's user, so this may be another user's program posing as your app"
            )
        }
        do {
            socket = try SocketCalls.connect(to: socketPath)
        } catch {
            throw ControlChannelError(Self.connectMessage(socketPath, error))
        }
        let peer = SocketCalls.peerUserID(socket.rawValue)
        guard peer == user else {
            let who = peer.map { "user \($0)" } ?? "a user the system does not name"
            throw ControlChannelError(
                "the program listening at \(socketPath) runs as \(who), not as you (user \(user)); not attaching to it: it may be another user's program posing as your app"
            )
        }
        let first = try Self.receive(socket.rawValue, into: &buffer, timeoutMilliseconds: timeoutMilliseconds)
        switch first {
        case .hello(let trace, let pid)?:
            tracePath = trace
            self.pid = pid
        case .error(let message)?:
            throw ControlChannelError("the app at \(socketPath) refused: \(message)")
        case .restored?, nil:
            throw ControlChannelError(
                "the program at \(socketPath) did not say hello within \(timeoutMilliseconds) ms; is it a Rewind app's control channel?"
            )
        }
    }

    /// The socket of the app recording the trace at `tracePath` that opened its control channel
    /// at the default path (`ControlChannel.defaultSocketPath(forTrace:)`): next to the trace,
    /// or in `/tmp/rewind-UID/`, whose ownership is checked first.
    /// - Throws: `ControlChannelError` when no socket is at either place, naming both.
    package static func socketPath(forTrace tracePath: String) throws(ControlChannelError) -> String {
        let absolute =
            tracePath.hasPrefix("/") ? tracePath : FileManager.default.currentDirectoryPath + "/" + tracePath
        let candidates = ControlSocketLocation.candidates(forTrace: absolute)
        for candidate in candidates {
            guard (try? SystemCalls.status(ofPath: candidate, followingLinks: false))?.kind == .socket else { continue }
            if ControlSocketLocation.isInPrivateDirectory(candidate) {
                try ControlSocketLocation.checkPrivateDirectory()
            }
            return candidate
        }
        throw ControlChannelError(
            "no app has a control channel open on \(tracePath) (no socket at \(candidates.joined(separator: " or "))); open one in the app with ControlChannel(tracePath:restorer:), or pass its socket"
        )
    }

    /// Sends `request` and waits for its reply, at most `timeoutMilliseconds`.
    /// - Throws: `ControlChannelError` when the app is gone or does not answer in time.
    package func request(_ request: ControlRequest, timeoutMilliseconds: Int32 = 15_000) throws(ControlChannelError)
        -> ControlReply
    {
        do {
            try SocketCalls.send(socket.rawValue, Array((request.line + "\n").utf8), timeoutMilliseconds: 2_000)
        } catch {
            throw ControlChannelError("the app closed the control channel (\(error.reason)); did it quit?")
        }
        guard let reply = try Self.receive(socket.rawValue, into: &buffer, timeoutMilliseconds: timeoutMilliseconds)
        else {
            throw ControlChannelError("the app did not answer within \(timeoutMilliseconds) ms")
        }
        return reply
    }

    /// Reads the next reply, waiting at most `timeoutMilliseconds`; nil when none came in time.
    private static func receive(_ socket: Int32, into buffer: inout LineBuffer, timeoutMilliseconds: Int32)
        throws(ControlChannelError) -> ControlReply?
    {
        let deadline = monotonicNanoseconds() + UInt64(max(0, timeoutMilliseconds)) * 1_000_000
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            if let line = buffer.nextLine() { return try ControlReply.parse(line) }
            if buffer.isOverLimit { throw ControlChannelError("the app sent a message longer than 1 MiB") }
            let now = monotonicNanoseconds()
            guard now < deadline else { return nil }
            let wait = Int32(min(UInt64(Int32.max), (deadline - now) / 1_000_000 + 1))
            _ = try? SocketCalls.waitForInput([socket], timeoutMilliseconds: wait)
            let received = chunk.withUnsafeMutableBytes { raw in
                Result { () throws(SystemError) in try SocketCalls.receive(socket, into: raw) }
            }
            switch received {
            case .success(0?), .failure:
                throw ControlChannelError("the app closed the control channel; did it quit?")
            case .success(let count?):
                chunk.withUnsafeBytes { buffer.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            case .success(nil):
                continue
            }
        }
    }

    private static func connectMessage(_ path: String, _ error: SystemError) -> String {
        switch error.code {
        case ENOENT:
            "no control socket at \(path); start the app with its control channel open (sample-app --control \(path))"
        case ECONNREFUSED: "no app listens at \(path) any more (it ended?); start it again"
        case ENAMETOOLONG:
            "the socket path \(path) is longer than \(SocketCalls.maximumPathLength) bytes, the most a Unix socket's path can be"
        case ENOTSOCK: "\(path) is not a socket"
        default: "cannot connect to \(path): \(error.reason)"
        }
    }
}
