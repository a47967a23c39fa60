/// A line of an open trace that can no longer be read as it was when the trace was opened: the
/// file was cut short or rewritten since (a recording restarted with `replacing: true`, a log
/// rotated). What was read from that line is not known any more, so a reader that needs it stops
/// with this error instead of showing an empty state.
///
/// `description`: `traces/run.jsonl:42: this line can no longer be read as it was when the trace
/// was opened; the file was cut short or rewritten since: open it again`.
public struct TraceChangedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The trace's path.
    public var path: String
    /// The 1-based file line that can no longer be read.
    public var line: Int

    /// Creates an error for `line` of `path`.
    public init(path: String, line: Int) {
        self.path = path
        self.line = line
    }

    /// What happened and what to do, without the path and line.
    public var message: String {
        "this line can no longer be read as it was when the trace was opened; the file was cut short or rewritten since: open it again"
    }

    /// `path:line: message`.
    public var description: String { "\(path):\(line): \(message)" }
}
