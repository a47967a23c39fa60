#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file descriptor, owned: it is closed exactly once, when the value ends or by
/// `close()`. Not copyable, so no copy can close it twice or use it after it was closed.
///
/// The package's files are opened through it (`FileDescriptor.open`), read and written through
/// it, and never mapped (a mapped file that is cut short kills the process with SIGBUS; `pread`
/// just comes back short).
@_spi(RewindInternals) public struct FileDescriptor: ~Copyable, Sendable {
    /// How to open a file.
    package struct Options: OptionSet, Sendable {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }

        /// Open for reading only.
        package static let readOnly = Options(rawValue: O_RDONLY)
        /// Open for writing only.
        package static let writeOnly = Options(rawValue: O_WRONLY)
        /// Create the file when it does not exist.
        package static let create = Options(rawValue: O_CREAT)
        /// With `create`: fail when the name exists, whatever it names (a symbolic link included).
        package static let exclusive = Options(rawValue: O_EXCL)
        /// Every write goes to the end of the file.
        package static let append = Options(rawValue: O_APPEND)
        /// Fail when the last component of the path is a symbolic link.
        package static let noFollow = Options(rawValue: O_NOFOLLOW)
        /// Do not wait: opening a pipe with no writer returns at once.
        package static let nonBlocking = Options(rawValue: O_NONBLOCK)
        /// A terminal opened does not become the process's controlling terminal.
        package static let noControllingTerminal = Options(rawValue: O_NOCTTY)
    }

    /// The descriptor's number.
    public let rawValue: Int32

    /// Takes ownership of an open descriptor.
    package init(adopting rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Opens `path`; every descriptor is opened close-on-exec.
    /// - Parameter permissions: the mode of a file that `create` creates.
    package static func open(
        _ path: String, _ options: Options, permissions: mode_t = 0o600
    ) throws(SystemError) -> FileDescriptor {
        let flags = options.rawValue | O_CLOEXEC
        let descriptor = try SystemCalls.retryingOnInterrupt { cOpen(path, flags, permissions) }.get()
        return FileDescriptor(adopting: descriptor)
    }

    deinit {
        _ = cClose(rawValue)
    }

    /// Closes the descriptor now, and says whether that failed (a write that the system had
    /// accepted may be reported only here, on some file systems).
    package consuming func close() throws(SystemError) {
        let result = cClose(rawValue)
        let code = errno
        discard self
        if result != 0 { throw SystemError(code: code) }
    }

    /// What the descriptor names (`fstat`).
    package func status() throws(SystemError) -> FileStatus {
        var status = stat()
        guard fstat(rawValue, &status) == 0 else { throw SystemError(code: errno) }
        return FileStatus(status)
    }

    /// Reads once, at most `buffer.count` bytes; 0 at the end of the file.
    @inlinable
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try SystemCalls.read(rawValue, into: buffer)
    }

    /// Reads once, at most `count` bytes, onto the end of `bytes`; returns how many (0 at the
    /// end of the file).
    public func read(appendingTo bytes: inout [UInt8], count: Int) throws(SystemError) -> Int {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count))
        let outcome = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(SystemError) -> Int in
                try self.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[start...]))
            }
        }
        switch outcome {
        case .success(let read):
            bytes.removeLast(count - read)
            return read
        case .failure(let error):
            bytes.removeLast(count)
            throw error
        }
    }

    /// Reads `count` bytes at `offset` with `pread` until all are there or the file ends;
    /// returns how many were read.
    @inlinable
    public func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int) throws(SystemError) -> Int {
        try SystemCalls.read(rawValue, into: buffer, count: count, at: offset)
    }

    /// Writes every byte of `bytes` (see `SystemCalls.writeAll`).
    @inlinable
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        try SystemCalls.writeAll(rawValue, bytes)
    }

    /// Writes every byte of `bytes` (see `SystemCalls.writeAll`).
    package func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        try bytes.withUnsafeBytes { raw in Result { () throws(SystemError) in try writeAll(raw) } }.get()
    }

    /// Makes what was written survive a crash of the machine (`fsync`).
    package func synchronize() throws(SystemError) {
        _ = try SystemCalls.retryingOnInterrupt { fsync(rawValue) }.get()
    }

    /// Makes reads and writes wait again (clears `O_NONBLOCK`, set to open a pipe without
    /// waiting for the other end).
    package func setBlocking() throws(SystemError) {
        let flags = fcntl(rawValue, F_GETFL)
        guard flags >= 0, fcntl(rawValue, F_SETFL, flags & ~O_NONBLOCK) >= 0 else { throw SystemError(code: errno) }
    }

    /// Sets the file's permission bits (`fchmod`).
    package func setPermissions(_ permissions: mode_t) throws(SystemError) {
        guard fchmod(rawValue, permissions) == 0 else { throw SystemError(code: errno) }
    }
}

private func cOpen(_ path: String, _ flags: Int32, _ permissions: mode_t) -> Int32 {
    PathName.withCString(path) { open($0, flags, permissions) }
}

private func cClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
