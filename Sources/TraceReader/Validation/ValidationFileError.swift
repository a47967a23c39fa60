/// A file that could not be used at all (missing, unreadable, a directory, not a trace for a
/// command that needs one), so that it has no validation report. `description` names the file,
/// the line where known, and what to do: `traces/x.jsonl: cannot open: No such file or directory;
/// check the path`.
public struct ValidationFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    public var path: String
    /// The 1-based line the problem is on, when it is on one.
    public var line: Int?
    /// What went wrong, without the path.
    public var message: String

    /// Creates an error for `path`.
    public init(path: String, line: Int? = nil, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    /// `path:line: message`, or `path: message`.
    public var description: String {
        if let line { return "\(path):\(line): \(message)" }
        return "\(path): \(message)"
    }
}
