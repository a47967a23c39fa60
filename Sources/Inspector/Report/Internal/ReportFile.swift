#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writing the report: to a temporary file next to the target, then renamed over it, so that a
/// browser never opens half a report and a failed write leaves the old one in place.
enum ReportFile {
    /// Writes `parts`, one after the other, to `path` with permission bits `mode` (the trace's,
    /// so that a report is as private as the trace it shows).
    /// - Throws: `FileError` naming the file and what to do.
    static func write(_ parts: [[UInt8]], to path: String, mode: mode_t) throws(FileError) {
        var status = stat()
        if stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
            throw FileError(path, "is a directory; give -o the path of an .html file to write")
        }
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            let code = errno
            throw FileError(
                path,
                "cannot write: \(String(cString: strerror(code)))\(code == ENOENT ? "; check that the folder exists" : code == EACCES ? "; check the folder's permissions" : "")"
            )
        }
        var failure: Int32 = 0
        // The umask may have taken bits away; the report gets exactly the trace's.
        if fchmod(descriptor, mode) != 0 { failure = errno }
        for part in parts where failure == 0 {
            part.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = Glibc.write(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    offset += written
                }
            }
        }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw FileError(
                path,
                "cannot write: \(String(cString: strerror(failure)))\(failure == ENOSPC ? "; free some disk space or write elsewhere with -o" : "")"
            )
        }
    }

    /// The permission bits of the file at `path` that a report of it gets (read and write only);
    /// 0600 when they cannot be read.
    static func mode(of path: String) -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0o600 }
        return status.st_mode & 0o666
    }

    /// Whether `first` and `second` name the same existing file.
    static func isSameFile(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }
}
