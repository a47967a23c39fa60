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

    /// What `path` is as a target, or a `FileError` saying why it cannot be one.
    static func target(_ path: String) throws(FileError) -> Target {
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
        case .directory: throw FileError(path, "is a directory; give -o the path of an .html file to write")
        case .symbolicLink:
            throw FileError(path, "is a symbolic link; give -o the path of the file itself (a link is never followed)")
        case .socket, .blockDevice, .other:
            throw FileError(path, "is not a regular file, a pipe or a terminal; give -o the path of an .html file")
        }
    }

    /// Writes `parts`, one after the other, to `path` with permission bits `mode` (the trace's,
    /// so that a report is as private as the trace it shows); `-` is written to `standardOutput`.
    /// - Throws: `FileError` naming the file and what to do.
    static func write(
        _ parts: [[UInt8]], to path: String, mode: mode_t, standardOutput: TextStream
    ) throws(FileError) {
        switch try target(path) {
        case .standardOutput:
            for part in parts { part.withUnsafeBytes { standardOutput.write(bytes: $0) } }
            standardOutput.flush()
        case .stream:
            try writeStream(parts, to: path)
        case .file:
            try replace(path, with: parts, mode: mode)
        }
    }

    /// Writes to a pipe or a character device that exists, without creating or truncating it.
    private static func writeStream(_ parts: [[UInt8]], to path: String) throws(FileError) {
        do throws(SystemError) {
            // Not waiting for a reader: a pipe that no program reads fails at once (ENXIO).
            let descriptor = try FileDescriptor.open(
                path, [.writeOnly, .noFollow, .nonBlocking, .noControllingTerminal])
            let status = try descriptor.status()
            guard status.kind == .pipe || status.kind == .characterDevice else {
                throw SystemError(code: EINVAL)
            }
            try descriptor.setBlocking()
            for part in parts { try descriptor.writeAll(part) }
            try descriptor.close()
        } catch {
            let hint = error.code == ENXIO ? "; no program is reading this pipe" : ""
            throw FileError(path, "cannot write: \(error.reason)\(hint)")
        }
    }

    /// Writes a new file next to `path` and renames it over `path`.
    private static func replace(_ path: String, with parts: [[UInt8]], mode: mode_t) throws(FileError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var generator = SystemRandomNumberGenerator()
        var attempts = 0
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
            do throws(SystemError) {
                // The umask may have taken bits away; the new file (ours alone) gets exactly the trace's.
                try descriptor.setPermissions(mode)
                for part in parts { try descriptor.writeAll(part) }
                try descriptor.close()
                // The target may have changed kind since it was looked at: never rename over a non-file.
                if let now = try? SystemCalls.status(ofPath: path, followingLinks: false), now.kind != .regular {
                    throw SystemError(code: EEXIST)
                }
                try SystemCalls.rename(temporary, to: path)
                return
            } catch {
                try? SystemCalls.unlink(temporary)
                let hint =
                    error.code == ENOSPC
                    ? "; free some disk space or write elsewhere with -o"
                    : error.code == EEXIST ? "; it is no longer a regular file" : ""
                throw FileError(path, "cannot write: \(error.reason)\(hint)")
            }
        }
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
