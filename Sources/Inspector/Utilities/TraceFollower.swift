import CommandLineArguments
@_spi(RewindInternals) internal import RewindSupport
import TraceReader

/// A trace file that an app is still writing, read as it grows: `step --follow`, `log --follow`
/// and `step --attach` look at its size and open it again when it changed.
///
/// A trace opened as it is indexes the complete lines: a last line that the app has not finished
/// writing (a torn line) is not an event, and becomes one, read once, at the look after it is
/// complete. A file that shrinks or is replaced (a new recording at the same path) is read anew
/// from its start; so is one truncated and written again longer in place between two looks
/// (the same inode, larger): its first line, or the bytes just before where the last look
/// ended, are not what they were.
///
/// Opening a trace reads all of it, so a look that finds it changed costs what opening costs
/// (about 1 s per GB); `LiveTrace` waits longer between looks at a large file.
struct TraceFollower {
    /// How the file changed since the last look.
    enum Change: Equatable {
        /// Lines were added (or a torn last line completed).
        case grew
        /// It is shorter, or another file: read from its start.
        case replaced
    }

    let path: String
    private(set) var trace: TraceFile
    private var seen: FileStatus?
    /// The bytes the last look saw at the file's start and just before its end (at most
    /// `Self.markLength` each): when a file that grew no longer has them, it was written anew.
    private var marks: (start: [UInt8], end: [UInt8]) = ([], [])
    private static let markLength = 4096

    /// Follows the file `trace` was opened from.
    /// - Throws: `UsageError` when the trace was not read from a regular file (a pipe cannot be
    ///   read again).
    init(_ trace: TraceFile) throws(UsageError) {
        self.path = trace.path
        self.trace = trace
        guard let status = try? SystemCalls.status(ofPath: trace.path), status.kind == .regular else {
            throw UsageError(
                "--follow reads a trace file as it grows; \(TTY.safe(trace.path)) is not a regular file (a pipe can be read only once)"
            )
        }
        seen = status
        marks = Self.marks(ofPath: path, size: status.size)
    }

    /// The first and last `markLength` bytes of the file's first `size` bytes.
    private static func marks(ofPath path: String, size: Int) -> (start: [UInt8], end: [UInt8]) {
        guard let file = try? FileDescriptor.open(path, .readOnly) else { return ([], []) }
        func bytes(at offset: Int, count: Int) -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: count)
            let read = buffer.withUnsafeMutableBytes { raw in
                (try? file.read(into: raw.baseAddress!, count: count, at: offset)) ?? 0
            }
            return Array(buffer.prefix(read))
        }
        let length = min(size, markLength)
        guard length > 0 else { return ([], []) }
        return (bytes(at: 0, count: length), bytes(at: size - length, count: length))
    }

    /// Looks at the file: when it changed, opens it again (`trace` is then the new opening) and
    /// says how; nil when it did not change, or cannot be opened right now (it is being
    /// replaced: the next look tries again).
    mutating func refresh() -> Change? {
        guard let status = try? SystemCalls.status(ofPath: path), status.kind == .regular else { return nil }
        if let seen, seen.isSameFile(as: status), seen.size == status.size { return nil }
        var replaced = seen.map { !$0.isSameFile(as: status) || status.size < $0.size } ?? true
        if !replaced, let seen, Self.marks(ofPath: path, size: seen.size) != marks {
            replaced = true  // truncated and written again, longer, in place
        }
        guard let newer = try? TraceFile(path: path) else { return nil }
        trace = newer
        seen = status
        marks = Self.marks(ofPath: path, size: status.size)
        return replaced ? .replaced : .grew
    }
}
