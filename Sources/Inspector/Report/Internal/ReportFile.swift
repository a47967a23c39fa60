@_spi(RewindInternals) internal import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writing the report where `-o` says, without ever touching another file.
///
/// A regular file (or a name that does not exist yet) gets the report through a temporary file
/// next to it, created exclusively under a random name (`O_CREAT|O_EXCL|O_NOFOLLOW`: a name
/// planted in advance, a symbolic link included, makes the creation fail instead of being
/// followed), given the trace's permissions, then renamed over the target, so that a browser
/// never opens half a report and a failed write leaves the old one in place. Only that new file's
/// mode is ever set.
///
/// `-`, a pipe and a character device (a terminal, `/dev/null`) get the report as a stream: they
/// are opened for writing, never created, truncated, renamed over or changed. Anything else (a
/// directory, a symbolic link, a socket, a block device) is refused.
enum ReportFile {
    /// Where the report goes.
    enum Target: Equatable {
        /// Standard output (`-o -`).
        case standardOutput
        /// A pipe or a character device, written as a stream.
        case stream
        /// A regular file, or a name that does not exist yet: replaced through a temporary file.
        case file
    }

    /// What `path` is as a target, or a `FileError` saying why it cannot be one; `kind` names
    /// what `-o` should be given instead (`an .html file`).
    static func target(_ path: String, kind: String = "an .html file") throws(FileError) -> Target {
        if path == "-" { return .standardOutput }
        let status: FileStatus
        do {
            status = try SystemCalls.status(ofPath: path, followingLinks: false)
        } catch {
            if error.code == ENOENT { return .file }
            throw FileError(path, "cannot write: \(error.reason)")
        }
        switch status.kind {
        case .regular: return .file
        case .pipe, .characterDevice: return .stream
        case .directory: throw FileError(path, "is a directory; give -o the path of \(kind) to write")
        case .symbolicLink:
            throw FileError(path, "is a symbolic link; give -o the path of the file itself (a link is never followed)")
        case .socket, .blockDevice, .other:
            throw FileError(path, "is not a regular file, a pipe or a terminal; give -o the path of \(kind)")
        }
    }

    /// Writes `parts`, one after the other, to `path` with permission bits `mode` (the trace's,
    /// so that a report is as private as the trace it shows); `-` is written to `standardOutput`.
    /// - Throws: `FileError` naming the file and what to do.
    static func write(
        _ parts: [[UInt8]], to path: String, mode: mode_t, standardOutput: TextStream
    ) throws(FileError) {
        try write(to: path, mode: mode, standardOutput: standardOutput) { (emit: Emit) throws(FileError) in
            for part in parts { try emit(part) }
        }
    }

    /// Hands on one piece of the output.
    typealias Emit = ([UInt8]) throws(FileError) -> Void

    /// Writes what `produce` hands its `Emit`, piece by piece, as `write(_:to:mode:standardOutput:)`
    /// writes parts: for output too large to hold in memory (`inspector convert`). When
    /// `produce` throws, a regular file is left as it was (the temporary file is removed); a
    /// stream has what was written so far.
    /// - Parameter kind: what `-o` should name, for messages (`an .html file`).
    /// - Throws: `FileError` naming the file and what to do, or what `produce` throws.
    static func write(
        to path: String, mode: mode_t, standardOutput: TextStream, kind: String = "an .html file",
        _ produce: (Emit) throws(FileError) -> Void
    ) throws(FileError) {
        switch try target(path, kind: kind) {
        case .standardOutput:
            try produce { (part: [UInt8]) throws(FileError) in part.withUnsafeBytes { standardOutput.write(bytes: $0) }
            }
            standardOutput.flush()
        case .stream:
            try writeStream(to: path, produce)
        case .file:
            try replace(path, mode: mode, produce)
        }
    }

    /// Writes to a pipe or a character device that exists, without creating or truncating it.
    private static func writeStream(to path: String, _ produce: (Emit) throws(FileError) -> Void) throws(FileError) {
        func failure(_ error: SystemError) -> FileError {
            let hint = error.code == ENXIO ? "; no program is reading this pipe" : ""
            return FileError(path, "cannot write: \(error.reason)\(hint)")
        }
        try fill(try openStream(path, failure), mode: nil, produce, failure)
    }

    /// Opens the pipe or character device at `path` for writing.
    private static func openStream(_ path: String, _ failure: (SystemError) -> FileError) throws(FileError)
        -> FileDescriptor
    {
        do throws(SystemError) {
            // Not waiting for a reader: a pipe that no program reads fails at once (ENXIO).
            let descriptor = try FileDescriptor.open(
                path, [.writeOnly, .noFollow, .nonBlocking, .noControllingTerminal])
            let status = try descriptor.status()
            guard status.kind == .pipe || status.kind == .characterDevice else {
                throw SystemError(code: EINVAL)
            }
            try descriptor.setBlocking()
            return descriptor
        } catch {
            throw failure(error)
        }
    }

    /// An `Emit` that writes to the open descriptor `number` (owned by the caller), each failure
    /// turned into a `FileError` by `failure`.
    private static func emit(to number: Int32, _ failure: @escaping (SystemError) -> FileError) -> Emit {
        { (part: [UInt8]) throws(FileError) in
            do throws(SystemError) {
                try part.withUnsafeBytes { bytes in
                    Result { () throws(SystemError) in try SystemCalls.writeAll(number, bytes) }
                }.get()
            } catch {
                throw failure(error)
            }
        }
    }

    /// Writes a new file next to `path` and renames it over `path`.
    private static func replace(_ path: String, mode: mode_t, _ produce: (Emit) throws(FileError) -> Void)
        throws(FileError)
    {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var generator = SystemRandomNumberGenerator()
        var attempts = 0
        func failure(_ error: SystemError) -> FileError {
            let hint =
                error.code == ENOSPC
                ? "; free some disk space or write elsewhere with -o"
                : error.code == EEXIST ? "; it is no longer a regular file" : ""
            return FileError(path, "cannot write: \(error.reason)\(hint)")
        }
        while true {
            attempts += 1
            let temporary = "\(folder).\(name).tmp-\(String(generator.next() as UInt64, radix: 36))"
            let descriptor: FileDescriptor
            do {
                descriptor = try FileDescriptor.open(
                    temporary, [.writeOnly, .create, .exclusive, .noFollow], permissions: mode & 0o600)
            } catch {
                // A name taken by chance (or planted): another random name.
                if error.code == EEXIST && attempts < 16 { continue }
                let hint =
                    error.code == ENOENT
                    ? "; check that the folder exists" : error.code == EACCES ? "; check the folder's permissions" : ""
                throw FileError(path, "cannot write: \(error.reason)\(hint)")
            }
            do throws(FileError) {
                try fill(descriptor, mode: mode, produce, failure)
                do throws(SystemError) {
                    // The target may have changed kind since it was looked at: never rename over a non-file.
                    if let now = try? SystemCalls.status(ofPath: path, followingLinks: false), now.kind != .regular {
                        throw SystemError(code: EEXIST)
                    }
                    try SystemCalls.rename(temporary, to: path)
                } catch {
                    throw failure(error)
                }
                return
            } catch {
                try? SystemCalls.unlink(temporary)
                throw error
            }
        }
    }

    /// Gives `descriptor` the permission bits `mode` (a new file; nil for a stream), writes
    /// what `produce` hands on into it and closes it.
    private static func fill(
        _ descriptor: consuming FileDescriptor, mode: mode_t?, _ produce: (Emit) throws(FileError) -> Void,
        _ failure: @escaping (SystemError) -> FileError
    ) throws(FileError) {
        if let mode {
            do throws(SystemError) {
                // The umask may have taken bits away; the new file (ours alone) gets exactly the trace's.
                try descriptor.setPermissions(mode)
            } catch {
                throw failure(error)
            }
        }
        try produce(emit(to: descriptor.rawValue, failure))
        do throws(SystemError) { try descriptor.close() } catch { throw failure(error) }
    }

    /// The permission bits of the file at `path` that a report of it gets (read and write only);
    /// 0600 when they cannot be read.
    static func mode(of path: String) -> mode_t {
        guard let status = try? SystemCalls.status(ofPath: path) else { return 0o600 }
        return mode_t(status.permissions) & 0o666
    }

    /// Whether `first` and `second` name the same existing file.
    static func isSameFile(_ first: String, _ second: String) -> Bool {
        guard let a = try? SystemCalls.status(ofPath: first), let b = try? SystemCalls.status(ofPath: second) else {
            return false
        }
        return a.isSameFile(as: b)
    }
}
