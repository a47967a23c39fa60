import TraceJSON
import TraceReader

/// Why a replay could not run, or stopped before the end of its trace: the trace's file, the line
/// of the event where it happened, and what to do. A difference between the recording and
/// today's code is not an error: it is the ``ReplayOutcome``'s `difference`.
public struct TraceReplayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The trace cannot be opened or read.
        case unreadableTrace
        /// An `ignoring` path cannot be read.
        case badIgnorePath
        /// Building the app's stores (the replay's `setup`) threw.
        case setupFailed
        /// Actions of the trace have no entry in the ``ReplayTable``; found before any is sent.
        case missingActions
        /// The trace has a `restore` event and the ``ReplayTable`` has no way to restore.
        case missingRestore
        /// An argument the trace holds as `"<redacted>"`, for which the app supplied no value.
        case redactedValue
        /// An argument that the call asked for is missing, or is not of the type asked for.
        case badArgument
        /// The app's call for an action threw.
        case actionFailed
        /// Replaying a `restore` event threw.
        case restoreFailed
    }

    /// What went wrong.
    public var kind: Kind
    /// The trace's path, or the name its bytes were given.
    public var path: String
    /// The line of the event where it happened (the header is line 1); nil when not at one event.
    public var line: Int?
    /// What happened and what to do.
    public var message: String

    /// An error of `kind` at `line` of `path`.
    public init(_ kind: Kind, path: String, line: Int? = nil, message: String) {
        self.kind = kind
        self.path = path
        self.line = line
        self.message = message
    }

    /// `path:line: message`.
    public var description: String {
        line.map { "\(path):\($0): \(message)" } ?? "\(path): \(message)"
    }
}
