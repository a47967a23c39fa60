@_spi(RewindInternals) internal import RewindSupport
import TraceReader

/// The latest events of a run, without their states, by `seq`: where the cause chain of a
/// difference is found without keeping the whole trace. A cause older than the window is found
/// by reading the trace again from its start, when it can be read again.
struct CauseWindow {
    let capacity: Int
    private var events: [Int: TraceEvent] = [:]
    /// The seq and index of each event added and not yet forgotten, as a ring from `oldest`.
    private var order: [(seq: Int, index: Int)] = []
    private var oldest = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Keeps `event` (without its state and arguments), forgetting the oldest one when full.
    mutating func add(_ event: TraceEvent) {
        var light = event
        light.state = nil
        light.args = nil
        if order.count < capacity {
            order.append((light.seq, light.index))
        } else {
            let forgotten = order[oldest]
            if events[forgotten.seq]?.index == forgotten.index { events[forgotten.seq] = nil }
            order[oldest] = (light.seq, light.index)
            oldest = (oldest + 1) % capacity
        }
        // The first event with a seq is the one a cause names (as `CauseChain` reads it).
        if events[light.seq] == nil { events[light.seq] = light }
    }

    /// The chain of causes of `event`, as `CauseChain(of:in:)` gives it: from the window, and
    /// for a cause older than the window, from `input` read again (nil chain end `unreadable`
    /// when `input` is a stream that cannot be).
    func chain(of event: TraceEvent, rereading input: TraceComparison.Input, cursor: EventCursor)
        throws(ValidationFileError) -> CauseChain
    {
        var light = event
        light.state = nil
        light.args = nil
        var chain = [light]
        var seen: Set<Int> = [event.seq]
        var known = events
        var wanted = event.cause
        while let cause = wanted {
            if seen.contains(cause) { return CauseChain(events: chain, end: .cycle(seq: cause)) }
            if let found = known[cause] {
                chain.append(found)
                seen.insert(cause)
                wanted = found.cause
                continue
            }
            // Older than the window: read the trace again up to that seq, keeping a window there.
            guard Self.canReread(input), let again = try? EventCursor(input) else {
                return CauseChain(events: chain, end: .unreadable(seq: cause))
            }
            var window = CauseWindow(capacity: capacity)
            var found = false
            while let next = try again.next() {
                window.add(next.event)
                if next.event.seq == cause {
                    found = true
                    break
                }
            }
            guard found else { return CauseChain(events: chain, end: .missingCause(seq: cause)) }
            known = window.events
        }
        return CauseChain(events: chain, end: .origin)
    }

    /// Whether `input` can be read from its start again: bytes, or a regular file.
    private static func canReread(_ input: TraceComparison.Input) -> Bool {
        switch input {
        case .bytes: return true
        case .file(let path):
            // Not opened to find out: opening a named pipe would wait for a writer.
            return (try? SystemCalls.status(ofPath: path))?.kind == .regular
        }
    }
}
