internal import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A sink that appends lines to a file: the default.
///
/// The file is opened for appending (`O_APPEND`) and created with mode 0600, because traces
/// hold user data. Each line reaches the operating system in one `write(2)` before the action
/// that produced it returns, so a process that dies right after an action still has that event
/// in the file, and a crash during a write leaves at most one torn last line.
public final class FileSink: TraceSink {
    /// The file's path.
    public let path: String
    private let descriptor: Int32

    /// Opens `path` for a new trace.
    /// - Parameter replacing: when `false` (the default) an existing file is an error, so a
    ///   recording never overwrites another; when `true` an existing file is emptied.
    public init(path: String, replacing: Bool = false) throws(TraceFileError) {
        self.path = path
        var flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC
        flags |= replacing ? O_TRUNC : O_EXCL
        let fd = open(path, flags, 0o600)
        guard fd >= 0 else { throw TraceFileError(path: path, operation: "create", code: errno) }
        // An existing file that was replaced keeps its old mode; a trace is always 0600.
        if fchmod(fd, 0o600) != 0 {
            let code = errno
            close(fd)
            throw TraceFileError(path: path, operation: "create", code: code)
        }
        descriptor = fd
        Self.ignoreFileSizeSignal()
    }

    deinit {
        close(descriptor)
    }

    public func write(_ line: UnsafeRawBufferPointer) throws {
        guard var next = line.baseAddress else { return }
        var remaining = line.count
        while remaining > 0 {
            let written = systemWrite(descriptor, next, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                throw TraceFileError(path: path, operation: "write", code: errno)
            }
            // A short write happens only when the disk or the size limit is reached; the rest
            // is tried once more, and that attempt reports the error.
            next += written
            remaining -= written
        }
    }

    public func synchronize() throws {
        if fsync(descriptor) != 0 { throw TraceFileError(path: path, operation: "synchronize", code: errno) }
    }

    /// A write past the process's file-size limit (`ulimit -f`) raises SIGXFSZ, which by default
    /// kills the process. A recorder must never kill its app: when the signal still has its
    /// default action, it is ignored, so the write fails with `EFBIG` and is reported instead.
    private static func ignoreFileSizeSignal() {
        #if os(Linux)
            var current = sigaction()
            guard sigaction(SIGXFSZ, nil, &current) == 0 else { return }
            if unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
                == unsafeBitCast(SIG_DFL, to: Int.self)
            {
                signal(SIGXFSZ, SIG_IGN)
            }
        #else
            signal(SIGXFSZ, SIG_IGN)
        #endif
    }
}
