import Recorder
@_spi(RewindInternals) internal import RewindSupport

/// A trace sink that writes each line to standard output in one `write(2)`, as `FileSink` does
/// to a file: `sample-app record SCENARIO` without `-o`, for piping.
struct StandardOutputSink: TraceSink {
    func write(_ line: UnsafeRawBufferPointer) throws {
        do throws(SystemError) {
            try SystemCalls.writeAll(1, line)
        } catch {
            throw TraceFileError(path: "standard output", operation: "write", code: error.code)
        }
    }
}
