import TraceJSON

/// Why a line or a state of an open trace cannot be given: the line can no longer be read as it
/// was when the trace was opened, or (version 2) a store's state there cannot be rebuilt from
/// its patches. A reader that needs it stops with this error instead of showing an empty or a
/// wrong state.
///
/// `description`, for example:
///
///     traces/run.jsonl:42: this line can no longer be read as it was when the trace was opened; the file was cut short or rewritten since: open it again
///     traces/run.jsonl:17: the patch of add on CartStore does not apply to its state before it (bad-patch): patch[0]: remove "/items/3": …
public struct TraceReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The line can no longer be read as it was when the trace was opened: the file was cut
        /// short or rewritten since (a recording restarted with `replacing: true`, a log rotated).
        case changed
        /// A version 2 transition's `patch` does not apply to its store's state before it (what
        /// `inspector validate` reports as `bad-patch`): the store's state is unknown from that
        /// line until its next event with a whole `state`.
        case badPatch
        /// A version 2 transition's `patch` follows no whole `state` of its store (a store with
        /// no register before it): there is nothing to apply it to.
        case unknownState
    }

    /// The trace's path.
    public var path: String
    /// The 1-based file line at fault: the line that cannot be read, or the patch that does not
    /// apply.
    public var line: Int
    /// What went wrong.
    public var kind: Kind
    /// What happened and what to do, without the path and line.
    public var message: String

    /// The error for `line` of `path`, which can no longer be read (`Kind.changed`).
    public init(path: String, line: Int) {
        self.init(
            path: path, line: line, kind: .changed,
            message:
                "this line can no longer be read as it was when the trace was opened; the file was cut short or rewritten since: open it again"
        )
    }

    /// An error of any kind.
    public init(path: String, line: Int, kind: Kind, message: String) {
        self.path = path
        self.line = line
        self.kind = kind
        self.message = message
    }

    /// `path:line: message`.
    public var description: String { "\(path):\(line): \(message)" }
}

/// The name of `TraceReadError` before version 2 traces, when a line that could no longer be
/// read was the only reason: existing code that catches it keeps working.
public typealias TraceChangedError = TraceReadError
