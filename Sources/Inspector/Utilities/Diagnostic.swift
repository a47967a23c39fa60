/// A file that cannot be used (missing, unreadable, not a trace). Exit status 2. The message
/// names the file and, where known, the line: `inspector: traces/x.jsonl:1: not a trace: …`.
struct FileError: Error, CustomStringConvertible {
    var path: String
    var line: Int?
    var message: String

    init(_ path: String, line: Int? = nil, _ message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    var description: String {
        // The path comes from the command line and may hold anything; the message is ours.
        if let line { return "\(TTY.safe(path)):\(line): \(message)" }
        return "\(TTY.safe(path)): \(message)"
    }
}

/// Exit statuses shared by every command, listed in each `--help`.
enum ExitStatus {
    /// Success.
    static let success: Int32 = 0
    /// The command ran and found a problem (validate: an error in a trace).
    static let problems: Int32 = 1
    /// The command line or a file could not be used.
    static let unusable: Int32 = 2
}
