/// The kinds of problem `inspector validate` reports, spelled as shared/TRACE_FORMAT.md spells
/// them ("Validity: what `inspector validate` reports").
public enum ProblemKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Line 1 is missing, not JSON, not a header, of an unknown format or version, or its
    /// machines are not shaped as the format says. Nothing else is checked.
    case notATrace = "not-a-trace"
    /// A line (not the last one without `\n`) is not a JSON object, or an event lacks a required
    /// key or has a key of the wrong JSON type.
    case malformed
    /// The last line has no final `\n` and is not a complete JSON object: a write cut short.
    case truncated
    /// An event's `seq` is not the previous event's `seq` + 1.
    case seq
    /// The first transition of a store that has no earlier `register` event.
    case unregistered
    /// A `case`, `from` or `to` that is not a case of the store's machine.
    case unknownCase = "unknown-case"
    /// A transition whose `from` is not the store's current case.
    case discontinuity
    /// A transition whose `from → to` the store's machine does not allow.
    case illegal
    /// A chain of `cause`s that passes through the same store and action more times than
    /// allowed (`TraceValidator.maximumCauseDepth`): stores reacting to each other in a loop.
    /// An addition of this project to the format page's table (docs/TRACE_FORMAT_ADDITIONS.md).
    case causeLoop = "cause-loop"

    /// How serious a problem of this kind is, as the format page's table says.
    public var severity: Problem.Severity {
        switch self {
        case .notATrace: .fatal
        case .truncated, .causeLoop: .warning
        case .malformed, .seq, .unregistered, .unknownCase, .discontinuity, .illegal: .error
        }
    }

    /// The kind as the format spells it: `unknown-case`.
    public var description: String { rawValue }
}
