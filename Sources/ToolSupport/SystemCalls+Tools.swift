@_spi(RewindInternals) import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The system calls only the command-line tools and the reading library make: listing a
// directory, waiting for input, sleeping, asking whether a descriptor is a terminal. Here, not in
// RewindSupport, so that an app that links the Recorder does not carry them.
extension SystemCalls {
    /// The names in the directory at `path` (not `.` and `..`), as paths (`PathName`: every
    /// name, whatever its bytes), in the order the system gives them.
    package static func directoryEntries(_ path: String) throws(SystemError) -> [String] {
        guard let directory = PathName.withCString(path, { opendir($0) }) else { throw SystemError(code: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw SystemError(code: errno) }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in PathName.string(raw.prefix { $0 != 0 }) }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// Waits until `descriptor` has bytes to read (or its end, or an error to report), at most
    /// `timeoutMilliseconds` (-1: no limit), with `poll`. Returns false when the time ran out or
    /// a signal interrupted the wait, so that the caller can look at what the signal changed.
    package static func waitForInput(_ descriptor: Int32, timeoutMilliseconds: Int32) throws(SystemError) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, timeoutMilliseconds)
        if ready < 0 {
            let code = errno
            if code == EINTR { return false }
            throw SystemError(code: code)
        }
        return ready > 0
    }

    /// Sleeps for about `milliseconds` (a signal may end it sooner).
    package static func pause(milliseconds: Int32) {
        _ = poll(nil, 0, milliseconds)
    }

    /// Whether `descriptor` is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }
}
