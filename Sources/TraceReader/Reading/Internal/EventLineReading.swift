@_spi(RewindInternals) package import RewindSupport
import TraceJSON

/// Reading one member or a few of an event's line without parsing the whole line: the queries
/// (`ValueHistory`, `CauseChain`, `TraceStatistics`) read many events and need their states
/// rarely or in part, so they scan lines with `EventScanner` (which checks and skips `state`
/// without building it) instead of `TraceFile.event(at:)` (which parses everything).
extension TraceFile {
    /// Calls `body` with the top-level members of event `index`'s line and the line itself; nil
    /// when the line can no longer be read, is no longer one JSON object, or is no longer the
    /// event that was indexed (the file changed since it was opened).
    package func scanEvent<Result>(at index: Int, _ body: (EventFields, ByteView) -> Result) -> Result? {
        guard index >= 0 && index < eventCount else { return nil }
        let expectedSeq = self.index.seq(at: index)
        let result: Result?? = withLine(ofEvent: index) { line in
            guard let fields = try? EventScanner.scan(line), fields.seq == expectedSeq else { return nil }
            return body(fields, line)
        }
        return result ?? nil
    }

    /// `scanEvent(at:_:)`, the line read through `window` (no system call when the line is in it).
    package func scanEvent<Result>(
        at index: Int, through window: inout TraceSource.Window, _ body: (EventFields, ByteView) -> Result
    ) -> Result? {
        guard index >= 0 && index < eventCount else { return nil }
        let expectedSeq = self.index.seq(at: index)
        let result: Result?? = window.withLine(
            in: source, at: self.index.offsets[index], limit: self.index.lineLimit(of: index)
        ) { line in
            guard let fields = try? EventScanner.scan(line), fields.seq == expectedSeq else { return nil }
            return body(fields, line)
        }
        return result ?? nil
    }

    /// The event at `index` without its state, as `eventWithoutState(at:)` gives it, its line
    /// read through `window` (no system call when the line is in it).
    package func eventWithoutState(at index: Int, through window: inout TraceSource.Window) -> TraceEvent? {
        guard index >= 0 && index < eventCount else { return nil }
        let expectedSeq = self.index.seq(at: index)
        let lineNumber = self.index.lines[index]
        let event: TraceEvent?? = window.withLine(
            in: source, at: self.index.offsets[index], limit: self.index.lineLimit(of: index)
        ) { line in
            guard let fields = try? EventScanner.scan(line), fields.seq == expectedSeq else { return nil }
            return TraceEvent(fields: fields, in: line, index: index, lineNumber: lineNumber)
        }
        return event ?? nil
    }

    /// Calls `body` with the index, top-level members and line of each event of `events`, in
    /// order, the file read in blocks of a few megabytes (not a read per line): for queries that
    /// go through every event (`TraceStatistics`). The members are nil where `scanEvent` is nil.
    package func scanEvents(_ events: Range<Int>, _ body: (Int, EventFields?, ByteView) -> Void) {
        let events = max(0, events.lowerBound)..<min(eventCount, max(events.upperBound, 0))
        source.forEachLine(ofEvents: events, in: index) { event, line in
            guard let line else {
                body(event, nil, .empty)
                return
            }
            let expectedSeq = index.seq(at: event)
            guard let fields = try? EventScanner.scan(line), fields.seq == expectedSeq else {
                body(event, nil, line)
                return
            }
            body(event, fields, line)
        }
    }

}

extension TraceEvent {
    /// The event whose members `EventScanner` found in `line`, without its `state`; nil when the
    /// line lacks `type` or `seq`.
    package init?(fields: EventFields, in line: ByteView, index: Int, lineNumber: Int) {
        guard let type = fields.type, let seq = fields.seq else { return nil }
        func text(_ value: EventFields.Text?) -> String? {
            value.map { EventFields.string($0, in: line) }
        }
        let elapsed = fields.elapsedRange.flatMap { DecimalNumber.parse(line[$0]) }
        let args = fields.argsRange.flatMap {
            (try? JSONParser.parse(line[$0]))?.objectValue
        }
        self.init(
            index: index, line: lineNumber, seq: seq, type: EventFields.string(type, in: line),
            store: text(fields.store), action: text(fields.action), caseName: text(fields.caseName),
            from: text(fields.from), to: text(fields.to), changed: fields.changed, elapsed: elapsed,
            source: text(fields.source), cause: fields.cause, args: args, state: nil,
            stack: fields.present.contains(.stack) ? TraceEvent.stack(in: line) : nil)
    }
}
