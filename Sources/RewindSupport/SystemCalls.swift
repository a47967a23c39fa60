// Thin, named wrappers over the C library, for the places where a Swift method of the same name
// would otherwise shadow the system call.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

@inlinable
package func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// Reads `count` bytes at `offset` of the file open as `descriptor` into `buffer` with `pread`,
/// reading again after an interruption or a short read, until all are there or the file ends.
/// Returns how many were read: fewer than `count` only when the file ended.
/// - Throws: the system's error number when a read fails.
package func readFully(
    _ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int
) throws(SystemError) -> Int {
    var filled = 0
    while filled < count {
        let read = pread(descriptor, buffer + filled, count - filled, off_t(offset + filled))
        if read < 0 {
            if errno == EINTR { continue }
            throw SystemError(code: errno)
        }
        if read == 0 { break }
        filled += read
    }
    return filled
}

/// Nanoseconds on the monotonic clock.
@inlinable
package func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}

/// A failed system call: the system's error number, and its description.
package struct SystemError: Error, Equatable, Sendable {
    /// The `errno` value.
    package var code: Int32

    package init(code: Int32) {
        self.code = code
    }

    /// The system's description: "No such file or directory".
    package var reason: String { String(cString: strerror(code)) }
}
