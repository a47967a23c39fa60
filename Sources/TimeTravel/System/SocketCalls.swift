@_spi(RewindInternals) package import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket system calls of the control channel, each wrapped once: a Unix domain stream
/// socket that listens, accepts and connects, sends and receives without blocking, and tells who
/// is at the other end. Here rather than in RewindSupport, since only time travel uses them and
/// an app that links only the Recorder must not carry them; the inspector's side of the channel
/// uses them through this module too.
///
/// Every descriptor is close-on-exec and owned by a `FileDescriptor`, closed once. Sending
/// never raises SIGPIPE (an app that did not ignore it would be killed by an inspector that
/// went away): `MSG_NOSIGNAL` on Linux, `SO_NOSIGPIPE` on Apple systems.
package enum SocketCalls {
    /// The longest path a Unix socket can have, in bytes (the system's `sun_path` less its final
    /// zero): 107 on Linux, 103 on Apple systems.
    package static var maximumPathLength: Int {
        MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1
    }

    /// A socket bound to `path` and listening, with permissions 0600 set on its file, and not
    /// blocking (`accept` returns nil when no one waits).
    /// - Throws: `ENAMETOOLONG` for a path longer than `maximumPathLength`, or the system's
    ///   error (`EADDRINUSE` when a file is at `path`).
    package static func listen(at path: String, backlog: Int32 = 4) throws(SystemError) -> FileDescriptor {
        let socket = try makeSocket()
        try withAddress(path) { address, length throws(SystemError) in
            guard bind(socket.rawValue, address, length) == 0 else { throw SystemError(code: errno) }
        }
        guard PathName.withCString(path, { chmod($0, 0o600) }) == 0 else { throw SystemError(code: errno) }
        guard cListen(socket.rawValue, backlog) == 0 else { throw SystemError(code: errno) }
        try setNonBlocking(socket.rawValue)
        return socket
    }

    /// A socket connected to the one listening at `path`, not blocking.
    /// - Throws: `ECONNREFUSED` when no program listens there, `ENOENT` when there is no file.
    package static func connect(to path: String) throws(SystemError) -> FileDescriptor {
        let socket = try makeSocket()
        try withAddress(path) { address, length throws(SystemError) in
            _ = try SystemCalls.retryingOnInterrupt { cConnect(socket.rawValue, address, length) }.get()
        }
        try setNonBlocking(socket.rawValue)
        return socket
    }

    /// The next connection waiting on `listener`, not blocking; nil when none waits.
    package static func accept(_ listener: Int32) throws(SystemError) -> FileDescriptor? {
        while true {
            let descriptor = cAccept(listener, nil, nil)
            if descriptor >= 0 {
                let socket = FileDescriptor(adopting: descriptor)
                try prepare(descriptor)
                try setNonBlocking(descriptor)
                return socket
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK, ECONNABORTED: return nil
            case let code: throw SystemError(code: code)
            }
        }
    }

    /// The user id of the process at the other end of `socket`; nil when the system does not say.
    package static func peerUserID(_ socket: Int32) -> UInt32? {
        #if os(Linux)
            var credentials = PeerCredentials()
            var length = socklen_t(MemoryLayout<PeerCredentials>.size)
            guard getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
            return UInt32(credentials.uid)
        #else
            var user = uid_t()
            var group = gid_t()
            guard getpeereid(socket, &user, &group) == 0 else { return nil }
            return UInt32(user)
        #endif
    }

    /// This process's user id.
    package static var currentUserID: UInt32 { UInt32(getuid()) }

    /// Sends every byte of `bytes` on the non-blocking `socket`, waiting at most
    /// `timeoutMilliseconds` for room in all.
    /// - Throws: `ETIMEDOUT` when the other end does not read, `EPIPE` when it is gone.
    package static func send(_ socket: Int32, _ bytes: [UInt8], timeoutMilliseconds: Int32) throws(SystemError) {
        let deadline = monotonicNanoseconds() + UInt64(max(0, timeoutMilliseconds)) * 1_000_000
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                cSend(socket, raw.baseAddress! + sent, raw.count - sent, sendFlags)
            }
            if count >= 0 {
                sent += count
                continue
            }
            let code = errno
            guard code == EAGAIN || code == EWOULDBLOCK || code == EINTR else { throw SystemError(code: code) }
            let now = monotonicNanoseconds()
            guard now < deadline else { throw SystemError(code: ETIMEDOUT) }
            var entry = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
            _ = poll(&entry, 1, Int32(min(UInt64(Int32.max), (deadline - now) / 1_000_000 + 1)))
        }
    }

    /// Receives what `socket` has, at most `buffer.count` bytes, without waiting: nil when
    /// nothing is there yet, 0 when the other end closed.
    package static func receive(_ socket: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError)
        -> Int?
    {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return nil }
        while true {
            let count = recv(socket, base, buffer.count, 0)
            if count >= 0 { return count }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            case let code: throw SystemError(code: code)
            }
        }
    }

    /// Waits until one of `descriptors` can be read (or is closed, or has an error), at most
    /// `timeoutMilliseconds` (-1: no limit); returns which can. All false when the time ran
    /// out or a signal interrupted the wait.
    package static func waitForInput(_ descriptors: [Int32], timeoutMilliseconds: Int32) throws(SystemError) -> [Bool] {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ready = poll(&entries, nfds_t(entries.count), timeoutMilliseconds)
        if ready < 0 {
            if errno == EINTR { return descriptors.map { _ in false } }
            throw SystemError(code: errno)
        }
        return entries.map { $0.revents != 0 }
    }

    /// The two ends of a pipe.
    package struct Pipe: ~Copyable, Sendable {
        package let read: FileDescriptor
        package let write: FileDescriptor
    }

    /// A pipe, both ends close-on-exec: a thread waiting in `waitForInput` on the read end
    /// wakes when a byte is written to the other.
    package static func makePipe() throws(SystemError) -> Pipe {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw SystemError(code: errno) }
        let ends = Pipe(read: FileDescriptor(adopting: descriptors[0]), write: FileDescriptor(adopting: descriptors[1]))
        _ = fcntl(ends.read.rawValue, F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends.write.rawValue, F_SETFD, FD_CLOEXEC)
        return ends
    }

    // MARK: Inside

    #if os(Linux)
        /// Linux's `struct ucred`, which Swift does not import (it needs `_GNU_SOURCE`): what
        /// `SO_PEERCRED` fills.
        private struct PeerCredentials {
            var pid: Int32 = 0
            var uid: UInt32 = 0
            var gid: UInt32 = 0
        }

        private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        private static let sendFlags: Int32 = 0
    #endif

    private static func makeSocket() throws(SystemError) -> FileDescriptor {
        #if os(Linux)
            let kind = Int32(SOCK_STREAM.rawValue)
        #else
            let kind = SOCK_STREAM
        #endif
        let descriptor = cSocket(AF_UNIX, kind, 0)
        guard descriptor >= 0 else { throw SystemError(code: errno) }
        let socket = FileDescriptor(adopting: descriptor)
        try prepare(descriptor)
        return socket
    }

    /// Close-on-exec, and on Apple systems no SIGPIPE.
    private static func prepare(_ descriptor: Int32) throws(SystemError) {
        guard fcntl(descriptor, F_SETFD, FD_CLOEXEC) == 0 else { throw SystemError(code: errno) }
        #if !os(Linux)
            var on: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    private static func setNonBlocking(_ descriptor: Int32) throws(SystemError) {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else { throw SystemError(code: errno) }
    }

    /// Calls `body` with the address of the socket at `path`.
    private static func withAddress(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemError) -> Void
    ) throws(SystemError) {
        let bytes = PathName.bytes(path)
        guard bytes.count <= maximumPathLength, !bytes.contains(0) else { throw SystemError(code: ENAMETOOLONG) }
        var address = sockaddr_un()
        #if !os(Linux)
            address.sun_len = UInt8(MemoryLayout<sockaddr_un>.size)
        #endif
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        try withUnsafePointer(to: &address) { pointer throws(SystemError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(SystemError) in
                try body(address, length)
            }
        }
    }
}

// The C functions whose Swift names the methods above shadow.
private func cListen(_ socket: Int32, _ backlog: Int32) -> Int32 { listen(socket, backlog) }
private func cConnect(_ socket: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(socket, address, length)
}
private func cAccept(
    _ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: UnsafeMutablePointer<socklen_t>?
) -> Int32 {
    accept(socket, address, length)
}
private func cSend(_ socket: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(socket, bytes, count, flags)
}
private func cSocket(_ domain: Int32, _ kind: Int32, _ proto: Int32) -> Int32 { socket(domain, kind, proto) }
