/// A problem the recorder met while the app went on. Reported through the recorder's `onError`
/// handler; recording problems never stop or crash the app.
public struct RecordingFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The sink could not take a line (disk full, file not writable). Recording stops; the
        /// trace keeps every line written before, so it stays valid. Reported once.
        case sinkFailed
        /// A state or the arguments could not be encoded (their `encode(to:)` threw, or the
        /// arguments are not an object). The event is written with `null` in their place.
        case encodingFailed
        /// Two live stores share a name, so their events cannot be told apart in the trace.
        case duplicateStoreName
        /// `TraceRecorder(machines:)` lists a store name more than once; the header keeps the
        /// first machine of each name.
        case duplicateMachine
        /// A store registered under a name that `TraceRecorder(machines:)` lists with another
        /// machine than the store's own; its register event carries its own, which wins.
        case machineMismatch
        /// A store registered whose state machine declares rules over time (deadlines, cases a
        /// run must not end in), but `TraceRecorder(machines:)` does not list its name, so the
        /// header has no rules for it: only pinned stores' rules are written.
        case rulesNotPinned
        /// A pinned machine declares a deadline the format cannot hold (`transitions` below 1,
        /// `seconds` not finite); the header leaves that limit out (and the rule, when it has
        /// no other limit).
        case invalidDeadline
        /// The trace file at the recorder's path is no longer the one it writes: another program
        /// replaced or removed it (a second app started with the same trace path). Recording
        /// goes on into the file the recorder has open, which no one can open by that path.
        /// Noticed within about a second of a write (`FileSink` traces only); reported once.
        case traceReplaced
    }

    /// What went wrong.
    public var kind: Kind
    /// A sentence that says what happened and what to do.
    public var message: String

    /// The message.
    public var description: String { message }
}
