import TraceReader

/// How a store got into the case it was in before an event: its earlier events, newest first,
/// back to the one that entered that case. What the step view shows on a step with a problem
/// ("how did we get here?"), and where `w` goes on a step that changed nothing.
struct CaseHistory {
    /// The case the store was in just before the event: its `from`.
    let caseName: String
    /// The store's events that led into the case, newest first; the last is the one that
    /// entered it (a register, or a transition from another case) unless `complete` is false.
    let events: [TraceEvent]
    /// Whether the event that entered the case was found within the events looked at.
    let complete: Bool

    /// The history before `event`, looking back at most `limit` of its store's events; nil for
    /// an event with no store or no machine case (`from`, or a register's `case`).
    init?(before event: TraceEvent, in trace: TraceFile, limit: Int = 8) {
        guard let store = event.store, let caseName = event.from else { return nil }
        self.caseName = caseName
        var events: [TraceEvent] = []
        var complete = false
        var index = event.index
        while events.count < limit, let previous = trace.eventIndex(of: store, before: index),
            let earlier = trace.event(at: previous)
        {
            events.append(earlier)
            index = previous
            if earlier.type != "transition" || earlier.from != caseName {
                complete = earlier.to == caseName || earlier.caseName == caseName
                break
            }
        }
        self.events = events
        self.complete = complete
    }

    /// The event that entered the case, when found.
    var entry: TraceEvent? { complete ? events.last : nil }

    /// The lines the step view shows, `width` columns wide at most.
    func lines(store: String, in trace: TraceFile, style: Style) -> [String] {
        var lines = [
            style.bold("How \(TTY.safe(store)) got to \(TTY.safe(caseName))")
                + style.dim("  (b: back to its previous step)")
        ]
        for event in events {
            var parts = [
                "step \(trace.step(ofEventAt: event.index) ?? event.seq)", TTY.safe(EventLine.action(of: event)),
            ]
            if let from = event.from, let to = event.to {
                parts.append("\(TTY.safe(from)) → \(TTY.safe(to))")
            } else if let caseName = event.caseName {
                parts.append("→ \(TTY.safe(caseName))")
            }
            if let source = event.source { parts.append(style.dim(TTY.safe(source))) }
            if let cause = event.cause {
                let causing = trace.eventIndex(forSeq: cause).flatMap { trace.event(at: $0) }
                let name = causing.map { " \(TTY.safe($0.store ?? "?")).\(TTY.safe(EventLine.action(of: $0)))" } ?? ""
                parts.append(style.dim("caused by seq \(cause)\(name)"))
            }
            lines.append("  " + parts.joined(separator: "  "))
        }
        if events.isEmpty {
            lines.append("  no earlier event of \(TTY.safe(store)): it never entered \(TTY.safe(caseName))")
        } else if !complete {
            lines.append(style.dim("  … earlier steps in \(TTY.safe(caseName)) not shown"))
        }
        return lines
    }
}
