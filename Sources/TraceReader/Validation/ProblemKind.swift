import TraceJSON

/// The kinds of problem `inspector validate` reports, spelled as shared/TRACE_FORMAT.md spells
/// them ("Validity: what `inspector validate` reports"), in the order of its table (this
/// project's addition last): the problems of one line are reported in this order.
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
    /// A `register` or `restore` that carries a `case` for a store with no machine at that event
    /// (none in the header, in its register events or in `--spec`): its transitions cannot be
    /// checked, most often because the machine was declared under another name.
    case unchecked
    /// A rule's `within` was broken: a store stayed in a case for too many transitions or too
    /// long ("Rules over time").
    case overdue
    /// A store ends the trace in a case its rule's `notAtEnd` lists.
    case unresolved
    /// A version 2 `patch` that does not apply to the store's state before it.
    case badPatch = "bad-patch"
    /// A chain of `cause`s that passes through the same store and action more times than
    /// allowed (`TraceValidator.maximumCauseDepth`): stores reacting to each other in a loop.
    /// An addition of this project to the format page's table (docs/TRACE_FORMAT_ADDITIONS.md).
    case causeLoop = "cause-loop"

    /// How serious a problem of this kind is, as the format page's table says.
    public var severity: Problem.Severity {
        switch self {
        case .notATrace: .fatal
        case .truncated, .unchecked, .unresolved, .causeLoop: .warning
        case .malformed, .seq, .unregistered, .unknownCase, .discontinuity, .illegal, .overdue, .badPatch: .error
        }
    }

    /// The kind as the format spells it: `unknown-case`.
    public var description: String { rawValue }
}
