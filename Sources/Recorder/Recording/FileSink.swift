@_spi(RewindInternals) internal import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A sink that appends lines to a file: the default.
///
/// The file is created new, with mode 0600, because traces hold user data. Each line reaches the
/// operating system in one `write(2)` (with the lines of concurrent actions, which the recorder
/// writes together) before the action that produced it returns, so a process
/// that dies right after an action still has that event in the file, and a crash during a write
/// leaves at most one torn last line.
///
/// A sink never writes through a symbolic link and never truncates a file in place: replacing
/// removes the old name first and creates a new file (`O_CREAT | O_EXCL | O_NOFOLLOW`), so a
/// link planted at the path cannot redirect the trace into another file.
///
/// It leaves the app's signal handling alone. A write that would pass the process's file-size
/// limit (`ulimit -f`, read when the file is opened) is refused before it is made, so the system
/// never raises SIGXFSZ (which kills a process by default) and the file keeps whole lines only.
public final class FileSink: TraceSink {
    /// The file's path.
    public let path: String
    private let descriptor: FileDescriptor
    /// The process's file-size limit in bytes, when it has one.
    private let sizeLimit: Int?
    /// Bytes written so far; kept only when there is a `sizeLimit`. Atomic: a sink may be
    /// written from any thread (the recorder makes one write at a time).
    private let written = AtomicCell<Int>(0)

    /// Opens `path` for a new trace.
    /// - Parameter replacing: when `false` (the default) an existing file is an error, so a
    ///   recording never overwrites another; when `true` an existing file (or link) at `path` is
    ///   removed and a new file created in its place. A device, pipe, socket or folder at `path`
    ///   is never removed, replacing or not: the error says so (`TraceFileError.notAFile`).
    public init(path: String, replacing: Bool = false) throws(TraceFileError) {
        self.path = path
        // Checked first: removing the name of a device (`/dev/null`, as root) or a pipe that
        // another process reads would break more than this recording.
        if let status = try? SystemCalls.status(ofPath: path, followingLinks: false),
            status.kind != .regular && status.kind != .symbolicLink
        {
            throw TraceFileError(path: path, operation: "replace", code: TraceFileError.notAFile)
        }
        if replacing {
            do {
                try SystemCalls.unlink(path)
            } catch  where error.code == ENOENT {
                // Nothing to replace.
            } catch {
                throw TraceFileError(path: path, operation: "replace", code: error.code)
            }
        }
        do {
            descriptor = try FileDescriptor.open(
                path, [.writeOnly, .create, .exclusive, .noFollow, .append], permissions: 0o600)
        } catch {
            throw TraceFileError(path: path, operation: "create", code: error.code)
        }
        sizeLimit = Self.fileSizeLimit()
    }

    /// Appends `line` (or several lines, from a recorder that writes them in groups) to the file
    /// in one `write(2)`, refusing what would pass the file-size limit.
    public func write(_ line: UnsafeRawBufferPointer) throws {
        if let sizeLimit {
            let before = written.load(ordering: .relaxed)
            if before + line.count > sizeLimit {
                throw TraceFileError(path: path, operation: "write", code: EFBIG)
            }
            written.add(line.count, ordering: .relaxed)
        }
        do {
            try descriptor.writeAll(line)
        } catch {
            throw TraceFileError(path: path, operation: "write", code: error.code)
        }
    }

    /// What the open file is (its device and inode), or nil when the system cannot say.
    var status: FileStatus? {
        try? descriptor.status()
    }

    /// Makes the lines written so far survive a crash of the machine (`fsync`).
    public func synchronize() throws {
        do {
            try descriptor.synchronize()
        } catch {
            throw TraceFileError(path: path, operation: "synchronize", code: error.code)
        }
    }

    /// The soft `RLIMIT_FSIZE`, or nil when there is none.
    private static func fileSizeLimit() -> Int? {
        var limit = rlimit()
        #if os(Linux)
            let resource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
            let infinity = rlim_t.max  // Glibc's RLIM_INFINITY, which Swift cannot import
        #else
            let resource = RLIMIT_FSIZE
            let infinity = RLIM_INFINITY
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur != infinity else { return nil }
        return Int(clamping: limit.rlim_cur)
    }
}
