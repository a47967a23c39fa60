/// The chain of causes of an event: the event, the event it happened while handling (its
/// `cause`), that event's cause, and so on back to the action that started it. The engine of
/// `inspector why`.
///
/// ```swift
/// let chain = CauseChain(of: 63, in: trace)
/// for event in chain.events { print(event.seq, event.store ?? "", event.action ?? event.type) }
/// if case .cycle(let seq) = chain.end { print("the chain comes back to seq \(seq)") }
/// ```
///
/// Events are read without their states. A damaged trace cannot make the walk loop or run
/// away: it stops at a `cause` naming a seq that is not in the trace, and at one that comes back
/// to an event already in the chain (a cause pointing to the event itself, or forward to an
/// event whose cause points back).
public struct CauseChain: Sendable, Equatable {
    /// Why the chain stops where it does.
    public enum End: Sendable, Equatable {
        /// The last event has no `cause`: it is the action that started the chain.
        case origin
        /// The last event's `cause` names a seq that no event of the trace has.
        case missingCause(seq: Int)
        /// The last event's `cause` names an event already in the chain (with this seq): the
        /// causes go round in a circle, which a recorder never writes.
        case cycle(seq: Int)
        /// The last event's line could not be read again: the file changed since it was opened.
        case unreadable(seq: Int)
    }

    /// The events from the one asked about to the furthest cause found, each read without its
    /// state (`state` is nil); never empty.
    public var events: [TraceEvent]
    /// Why the chain stops after its last event.
    public var end: End

    /// Creates a chain from its parts.
    public init(events: [TraceEvent], end: End) {
        self.events = events
        self.end = end
    }

    /// The chain of causes of the event whose `seq` is `seq` in `trace`; nil when the trace has
    /// no such event or its line can no longer be read.
    public init?(of seq: Int, in trace: TraceFile) {
        var events: [TraceEvent] = []
        var seen: Set<Int> = []
        var wanted = seq
        while true {
            guard let index = trace.eventIndex(forSeq: wanted) else {
                if events.isEmpty { return nil }
                self.init(events: events, end: .missingCause(seq: wanted))
                return
            }
            guard let event = trace.eventWithoutState(at: index) else {
                if events.isEmpty { return nil }
                self.init(events: events, end: .unreadable(seq: wanted))
                return
            }
            events.append(event)
            seen.insert(event.seq)
            guard let cause = event.cause else {
                self.init(events: events, end: .origin)
                return
            }
            if seen.contains(cause) {
                self.init(events: events, end: .cycle(seq: cause))
                return
            }
            wanted = cause
        }
    }
}
