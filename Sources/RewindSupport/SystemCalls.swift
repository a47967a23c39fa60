// The C library's calls, each wrapped once, with the retry after an interruption (`EINTR`)
// written in one place (`retryingOnInterrupt`). Nothing else in the package calls `open`,
// `read`, `pread`, `write`, `fstat`, `close` or `fsync` directly: it goes through these, or through
// `FileDescriptor`, which owns a descriptor and closes it once.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The namespace of the package's system calls on descriptors it does not own (standard
/// input, output and error) and on paths.
@_spi(RewindInternals) public enum SystemCalls {
    /// Runs `call` again while it fails with `EINTR`: the one place that retry is written.
    /// `call` returns a negative value on failure, with `errno` set.
    @inlinable @inline(__always)
    public static func retryingOnInterrupt<Value: SignedInteger>(
        _ call: () -> Value
    ) -> Result<Value, SystemError> {
        while true {
            let result = call()
            if result >= 0 { return .success(result) }
            let code = errno
            if code != EINTR { return .failure(SystemError(code: code)) }
        }
    }

    /// Writes every byte of `bytes` to `descriptor`, going on after a short write or an
    /// interruption, in as few `write(2)` calls as the system allows (one for a regular file).
    /// - Throws: the system's error when a write fails; the bytes before it were written.
    @inlinable
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = try retryingOnInterrupt { write(descriptor, next, remaining) }.get()
            // A short write happens when a disk or a size limit is reached, or on a pipe; the
            // rest is tried again, and that attempt reports the error if there is one.
            next += written
            remaining -= written
        }
    }

    /// Writes the UTF-8 of `text` to `descriptor` (standard output or error), ignoring failure:
    /// for messages that have nowhere else to go.
    package static func writeAll(_ descriptor: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in try? writeAll(descriptor, UnsafeRawBufferPointer(bytes)) }
    }

    /// Reads once from `descriptor` into `buffer`: at most `buffer.count` bytes, 0 at the end.
    @inlinable
    public static func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer
    ) throws(SystemError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try retryingOnInterrupt { cRead(descriptor, base, buffer.count) }.get()
    }

    /// Reads `count` bytes at `offset` of `descriptor` into `buffer` with `pread`, reading again
    /// after an interruption or a short read, until all are there or the file ends. Returns how
    /// many were read: fewer than `count` only when the file ended.
    @inlinable
    public static func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int
    ) throws(SystemError) -> Int {
        var filled = 0
        while filled < count {
            let read = try retryingOnInterrupt {
                pread(descriptor, buffer + filled, count - filled, off_t(offset + filled))
            }.get()
            if read == 0 { break }
            filled += read
        }
        return filled
    }

    /// What `path` is, following a symbolic link at its end (`stat`) or not (`lstat`).
    package static func status(ofPath path: String, followingLinks: Bool = true) throws(SystemError) -> FileStatus {
        var status = stat()
        let result = PathName.withCString(path) { followingLinks ? stat($0, &status) : lstat($0, &status) }
        guard result == 0 else { throw SystemError(code: errno) }
        return FileStatus(status)
    }

    /// Removes the name `path` (never a directory).
    package static func unlink(_ path: String) throws(SystemError) {
        guard cUnlink(path) == 0 else { throw SystemError(code: errno) }
    }

    /// Gives `source` the name `target`, replacing what `target` named, in one step.
    package static func rename(_ source: String, to target: String) throws(SystemError) {
        guard cRename(source, target) == 0 else { throw SystemError(code: errno) }
    }

    /// Lets the calling thread sleep for about `nanoseconds` (`nanosleep`), giving its core away;
    /// a signal may end the sleep early, which does not matter to a caller that polls.
    package static func sleep(nanoseconds: Int) {
        var time = timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        _ = nanosleep(&time, nil)
    }
}

/// Nanoseconds on the monotonic clock.
@_spi(RewindInternals) @inlinable
public func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}

// The C functions whose Swift names a method of the same name would shadow inside the types
// above (`SystemCalls.read`, `unlink`, `rename`).
@usableFromInline
func cRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func cUnlink(_ path: String) -> Int32 {
    PathName.withCString(path) { unlink($0) }
}

private func cRename(_ source: String, _ target: String) -> Int32 {
    PathName.withCString(source) { source in PathName.withCString(target) { rename(source, $0) } }
}
