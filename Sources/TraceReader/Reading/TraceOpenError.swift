import TraceJSON

/// Why a trace cannot be opened at all: the file is missing or unreadable, or it is not a trace.
///
/// `description` names the file and, for a file that is not a trace, line 1, then says what to
/// do: `traces/run.png:1: line 1 is not JSON (column 1: …); a Rewind trace starts with its header
/// line …`. Problems after line 1 never stop a trace from opening: they are `TraceReadIssue`s.
public struct TraceOpenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which of the two ways opening failed.
    public enum Kind: Sendable, Equatable {
        /// The file cannot be read: missing, not permitted, a directory, or too large to read
        /// from a pipe.
        case unreadable
        /// The file was read, but line 1 is not a trace header this library understands
        /// (`not-a-trace` in shared/TRACE_FORMAT.md).
        case notATrace
    }

    /// Which of the two ways opening failed.
    public var kind: Kind
    /// The path as given (or the name given to `TraceFile(bytes:name:)`).
    public var path: String
    /// The 1-based line the problem is on, when it is about the file's content.
    public var line: Int?
    /// What is wrong and what to do, without the path and line.
    public var message: String

    /// Creates an error.
    public init(kind: Kind, path: String, line: Int? = nil, message: String) {
        self.kind = kind
        self.path = path
        self.line = line
        self.message = message
    }

    /// `path:line: message`, or `path: message` when no line applies.
    public var description: String {
        if let line { return "\(path):\(line): \(message)" }
        return "\(path): \(message)"
    }
}
