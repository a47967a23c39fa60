import TraceReader

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

        /// Its name in JSON output (`why --format json`, `inspector mcp`): `origin`,
        /// `missing-cause`, `cycle` or `unreadable`.
        public var name: String {
            switch self {
            case .origin: "origin"
            case .missingCause: "missing-cause"
            case .cycle: "cycle"
            case .unreadable: "unreadable"
            }
        }

        /// The seq the last event's `cause` names, where the chain stops at one.
        public var cause: Int? {
            switch self {
            case .origin: nil
            case .missingCause(let seq), .cycle(let seq), .unreadable(let seq): seq
            }
        }
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
        guard let end = Self.walk(from: seq, in: trace, { events.append($0) }) else { return nil }
        self.init(events: events, end: end)
    }

    /// Walks the chain of causes of the event whose `seq` is `seq` in `trace`, calling `body`
    /// with each event (without its state) as it is read, and returns why the chain ends; nil,
    /// before any call, when the trace has no such event or its line can no longer be read.
    ///
    /// Memory stays that of one event however long the chain: a chain whose causes go down (as a
    /// recorder writes them) cannot come back to an event, and only a chain whose cause goes up
    /// or stays is checked for a circle, with Brent's algorithm (walking the chain again, with
    /// nothing kept), so that the chain stops where `init(of:in:)` stops it.
    public static func walk(from seq: Int, in trace: TraceFile, _ body: (TraceEvent) -> Void) -> End? {
        var wanted = seq
        var count = 0
        // The number of events the chain has before a circle closes, once one is known.
        var length: Int?
        // Causes are usually just before their events: lines are read a window at a time.
        var window = TraceSource.Window()
        while true {
            guard let index = trace.eventIndex(forSeq: wanted) else {
                return count == 0 ? nil : .missingCause(seq: wanted)
            }
            guard let event = trace.eventWithoutState(at: index, through: &window) else {
                return count == 0 ? nil : .unreadable(seq: wanted)
            }
            body(event)
            count += 1
            guard let cause = event.cause else { return .origin }
            if length == nil && cause >= event.seq { length = circleLength(from: seq, in: trace) ?? Int.max }
            if let length, count == length { return .cycle(seq: cause) }
            wanted = cause
        }
    }

    /// The number of distinct events the chain from `seq` passes before it comes back to one
    /// (the last one's cause is in the chain), or nil when it ends without a circle. Brent's
    /// algorithm: the chain is read again a few times, with no set of the seqs seen.
    private static func circleLength(from seq: Int, in trace: TraceFile) -> Int? {
        func cause(of seq: Int) -> Int? {
            guard let index = trace.eventIndex(forSeq: seq) else { return nil }
            return trace.scanEvent(at: index) { fields, _ in fields.cause } ?? nil
        }
        // The circle's length `period`: the hare runs in doubling laps until it meets the tortoise.
        var power = 1
        var period = 1
        var tortoise = seq
        guard var hare = cause(of: seq) else { return nil }
        while tortoise != hare {
            if power == period {
                tortoise = hare
                power *= 2
                period = 0
            }
            guard let next = cause(of: hare) else { return nil }
            hare = next
            period += 1
        }
        // Where the circle starts: two walkers `period` apart meet at its first event.
        tortoise = seq
        hare = seq
        for _ in 0..<period {
            guard let next = cause(of: hare) else { return nil }
            hare = next
        }
        var start = 0
        while tortoise != hare {
            guard let nextTortoise = cause(of: tortoise), let nextHare = cause(of: hare) else { return nil }
            tortoise = nextTortoise
            hare = nextHare
            start += 1
        }
        return start + period
    }
}
