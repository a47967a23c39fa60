#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The kernel's buffer of a pipe that a command writes to.
///
/// A command that writes tens of megabytes (`log` of a large trace into `grep` or `less`) waits
/// for its reader, and wakes it, each time the pipe is full: with Linux's default of 64 KB that
/// is a thousand times for 64 MB, each a pair of context switches. `grow` lets the pipe hold
/// 1 MB, the most an unprivileged process may ask (`/proc/sys/fs/pipe-max-size`), which took
/// about 7% off the time of `inspector log` of a 178 MB trace piped to `cat`.
package enum PipeBuffer {
    /// The size asked for.
    package static let grownSize = 1 << 20

    /// Lets the pipe that `descriptor` writes to hold `grownSize` bytes, when it is a pipe (Linux's
    /// `F_SETPIPE_SZ`). Does nothing for any other descriptor, on other systems, or when the
    /// system refuses (a user past `pipe-user-pages-soft`): the pipe then keeps its size.
    package static func grow(_ descriptor: Int32) {
        #if os(Linux)
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return }
            _ = fcntl(descriptor, setPipeSize, Int32(grownSize))
        #endif
    }

    /// The size of the pipe that `descriptor` writes to or reads from, or nil when it is not a
    /// pipe or the system cannot say (on other systems than Linux).
    package static func size(_ descriptor: Int32) -> Int? {
        #if os(Linux)
            let size = fcntl(descriptor, getPipeSize)
            return size > 0 ? Int(size) : nil
        #else
            return nil
        #endif
    }

    /// `F_SETPIPE_SZ` and `F_GETPIPE_SZ`, which Swift does not import from Glibc.
    private static let setPipeSize: Int32 = 1031
    private static let getPipeSize: Int32 = 1032
}
