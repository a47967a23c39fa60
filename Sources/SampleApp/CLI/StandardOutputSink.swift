import Recorder

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A trace sink that writes each line to standard output in one `write(2)`, as `FileSink` does
/// to a file: `sample-app record SCENARIO` without `-o`, for piping.
struct StandardOutputSink: TraceSink {
    func write(_ line: UnsafeRawBufferPointer) throws {
        guard var next = line.baseAddress else { return }
        var remaining = line.count
        while remaining > 0 {
            let written = Glibc.write(1, next, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                throw TraceFileError(path: "standard output", operation: "write", code: errno)
            }
            next += written
            remaining -= written
        }
    }
}
