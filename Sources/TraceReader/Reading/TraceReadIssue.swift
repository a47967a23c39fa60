import TraceJSON

/// Something `TraceFile` skipped or noticed while indexing a trace, on one line of the file.
///
/// Issues are what a reader needs to know to trust what it shows; they are not a validation
/// (that is `inspector validate`). A line that is not an event is skipped and listed here, so the
/// events and the app states stay readable around it.
public struct TraceReadIssue: Sendable, Equatable, CustomStringConvertible {
    /// What kind of thing was skipped or noticed.
    public enum Kind: String, Sendable, CaseIterable {
        /// A line that is not an event (not one JSON object, a required key missing, a key of the
        /// wrong JSON type): skipped.
        case malformed
        /// The last line has no final `\n` and is not a complete JSON object, a write cut short
        /// by a crash or a file read while it was being written: skipped.
        case truncated
        /// Lines end in `\r\n`. They are read as if they ended in `\n`; one issue says how many.
        case carriageReturn = "crlf"
        /// An empty line after the header: skipped, as the format says.
        case emptyLine = "empty-line"
        /// An event whose `type` is not `register` or `transition`: kept as an event (it counts
        /// for `seq` and steps) but it changes no store.
        case unknownType = "unknown-type"
        /// An event whose `seq` is not above the previous event's (a repeat or a step back).
        /// Steps then follow the order of the file: such an event belongs to the same step as
        /// the event before it.
        case seqOrder = "seq-order"
    }

    /// The 1-based line of the file (the header is line 1).
    public var line: Int
    /// What was skipped or noticed.
    public var kind: Kind
    /// What happened, as a sentence without the line number.
    public var message: String

    /// Creates an issue.
    public init(line: Int, kind: Kind, message: String) {
        self.line = line
        self.kind = kind
        self.message = message
    }

    /// `line 7: malformed: …`.
    public var description: String {
        "line \(line): \(kind.rawValue): \(message)"
    }
}
