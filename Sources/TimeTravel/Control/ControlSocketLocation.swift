@_spi(RewindInternals) internal import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a control channel's socket goes when the app does not name one, and how the inspector
/// finds it from the trace alone.
///
/// A Unix socket's path holds at most `SocketCalls.maximumPathLength` bytes: 103 on Apple
/// systems, 107 on Linux. Next to the trace (`run.jsonl` → `run.sock`) is where it goes when it
/// fits. An app in the iOS Simulator records in its container
/// (`/Users/…/Library/Developer/CoreSimulator/Devices/UUID/data/Containers/Data/Application/UUID/…`),
/// whose path alone is longer than that: there the socket goes in a directory of the user's own,
/// `/tmp/rewind-UID/`, named after the trace (`HASH.sock`, the FNV-1a hash of the trace's real
/// path in 16 hex digits). The inspector, given the trace, looks in both places; nothing is
/// written next to the trace, and the trace format is untouched.
///
/// The directory is created with mode 0700 and must stay the user's own: one that another
/// user owns, or that others may write to, is refused on both sides (another user could
/// otherwise put a socket where the app or the inspector expects theirs).
enum ControlSocketLocation {
    /// The directory for sockets whose path next to the trace would be too long.
    static var privateDirectory: String { "/tmp/rewind-\(SocketCalls.currentUserID)" }

    /// The socket path next to a trace: its path without `.jsonl`, with `.sock`.
    static func besideTrace(_ tracePath: String) -> String {
        (tracePath.hasSuffix(".jsonl") ? String(tracePath.dropLast(6)) : tracePath) + ".sock"
    }

    /// The socket path in the private directory for a trace: named after the hash of its real
    /// path, so that every name of the same file (a symbolic link, `/tmp` and `/private/tmp`)
    /// finds the same socket.
    static func inPrivateDirectory(forTrace tracePath: String) -> String {
        privateDirectory + "/" + hexadecimal(fnv1a(PathName.bytes(realPath(tracePath)))) + ".sock"
    }

    /// The default socket path for the trace at `tracePath` (an absolute path): next to it when
    /// that fits in a socket's path, else in the private directory.
    static func defaultPath(forTrace tracePath: String) -> String {
        let beside = besideTrace(tracePath)
        return fits(beside) ? beside : inPrivateDirectory(forTrace: tracePath)
    }

    /// Where the inspector looks for the socket of a trace, in order.
    static func candidates(forTrace tracePath: String) -> [String] {
        let beside = besideTrace(tracePath)
        return (fits(beside) ? [beside] : []) + [inPrivateDirectory(forTrace: tracePath)]
    }

    /// Whether `socketPath` is in the private directory (which must be checked before use).
    static func isInPrivateDirectory(_ socketPath: String) -> Bool {
        socketPath.hasPrefix(privateDirectory + "/")
    }

    /// Creates the private directory (mode 0700) if it is not there, and checks it.
    /// - Throws: `ControlChannelError` when it cannot be created, or is not the user's own.
    static func preparePrivateDirectory() throws(ControlChannelError) {
        let path = privateDirectory
        let made = PathName.withCString(path) { mkdir($0, 0o700) }
        if made != 0 && errno != EEXIST {
            throw ControlChannelError(
                "cannot create \(path) for the control socket (\(SystemError(code: errno).reason)); pass a short socketPath, such as /tmp/app.sock"
            )
        }
        try checkPrivateDirectory()
    }

    /// Checks that the private directory is a directory (not a link) of this user's, that no one
    /// else may write to or read.
    /// - Throws: `ControlChannelError` saying what is wrong with it and what to do.
    static func checkPrivateDirectory() throws(ControlChannelError) {
        let path = privateDirectory
        let status: FileStatus
        do {
            status = try SystemCalls.status(ofPath: path, followingLinks: false)
        } catch {
            throw ControlChannelError("no directory \(path): no app opened a control channel there")
        }
        guard status.kind == .directory, status.owner == SocketCalls.currentUserID, status.permissions & 0o077 == 0
        else {
            throw ControlChannelError(
                "\(path) is not a private directory of this user's (it must be a directory owned by user \(SocketCalls.currentUserID), mode 0700); remove it, or pass a socket path of your own"
            )
        }
    }

    // MARK: Inside

    private static func fits(_ socketPath: String) -> Bool {
        PathName.bytes(socketPath).count <= SocketCalls.maximumPathLength
    }

    /// The path with every symbolic link resolved: the file's, or else (no file yet) its
    /// directory's followed by its name, or else the path as given.
    private static func realPath(_ path: String) -> String {
        if let real = resolved(path) { return real }
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return path }
        guard let directory = resolved(String(path[..<slash])) else { return path }
        return directory + path[slash...]
    }

    private static func resolved(_ path: String) -> String? {
        guard let pointer = PathName.withCString(path, { realpath($0, nil) }) else { return nil }
        defer { free(pointer) }
        return PathName.string(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
    }

    /// FNV-1a, 64 bits: fixed here (not the library's `ByteHash`, which may change), since an app
    /// and an inspector of different versions must agree on it.
    private static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    private static func hexadecimal(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
