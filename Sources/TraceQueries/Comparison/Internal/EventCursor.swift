@_spi(RewindInternals) internal import RewindSupport
import TraceJSON
import TraceReader

/// A trace's events read one at a time, when asked: what lets `TraceComparison` walk two traces
/// side by side, its memory bounded by the longest line, never by the trace's length.
///
/// Each line is scanned as validation scans it (`EventScanner`: strict JSON, only the members
/// the format defines taken, `state`, `args`, `machine` and `patch` kept as byte ranges to
/// parse only when needed). Lines that are not events are skipped, as `TraceFile` skips them,
/// and counted in `skippedLines`: a line that is not a JSON object, one without a string `type`
/// and an integer `seq`, a torn last line, a line over the format's 1 GiB. Empty lines are
/// skipped silently. A class because it owns its input and its read position.
final class EventCursor {
    /// One event: its line's bytes and scanned members, and the event they make (without its
    /// state and arguments).
    struct Event {
        var event: TraceEvent
        var bytes: [UInt8]
        var fields: EventFields

        /// The bytes of the value at `range` of the line.
        func raw(_ range: Range<Int>?) -> ArraySlice<UInt8>? {
            range.map { bytes[$0] }
        }

        /// The value at `range` of the line, parsed (it was checked by the scan).
        func value(_ range: Range<Int>?) -> JSONValue? {
            raw(range).flatMap { try? JSONParser.parse($0) }
        }
    }

    /// What errors and reports call the trace.
    let name: String
    /// Line 1.
    let header: TraceHeader
    /// Lines skipped because they are not events.
    private(set) var skippedLines = 0
    /// Events returned so far.
    private(set) var eventCount = 0
    private var lines: LineCursor
    private var lineNumber = 1
    /// The bytes read at a time.
    static let blockSize = 1 << 20

    /// Opens `source` and reads its header.
    /// - Throws: `ValidationFileError` when it cannot be read, or line 1 is not a trace header.
    init(_ source: TraceComparison.Input) throws(ValidationFileError) {
        name = source.name
        var firstLine: [UInt8]?
        switch source {
        case .bytes(let bytes, _):
            lines = LineCursor(ChunkReader(.bytes(bytes), blockSize: Self.blockSize))
        case .file(let path):
            let input: TraceInput
            do {
                input = try TraceInput.open(path)
            } catch {
                let (_, line, message) = error.openError
                throw ValidationFileError(
                    path: path, line: line, message: line == nil ? message : "not a trace: \(message)")
            }
            // Only line 1 when it cannot be a trace header: a device that never ends is not
            // read for ever.
            firstLine = input.firstLineIfNotAHeader()
            lines = LineCursor(input.chunks(blockSize: Self.blockSize))
        }
        let first: (bytes: [UInt8], isOverlong: Bool)?
        if let firstLine {
            first = (firstLine, false)
        } else {
            do {
                first = try lines.next().map { ($0.bytes.array, $0.isOverlong) }
            } catch {
                throw ValidationFileError(path: name, message: "cannot read: \(error.reason)")
            }
        }
        guard let first, !first.isOverlong else {
            let message =
                first == nil
                ? "the file is empty; a Rewind trace starts with its header line"
                : "line 1 is longer than 1 GiB; it is not a trace header"
            throw ValidationFileError(path: name, line: 1, message: "not a trace: \(message)")
        }
        let parsed = ByteView.withBytes(of: first.bytes) { bytes in
            Result { () throws(TraceHeaderError) in try TraceHeader.parse(bytes) }
        }
        switch parsed {
        case .success(let header): self.header = header
        case .failure(let error):
            throw ValidationFileError(path: name, line: 1, message: "not a trace: \(error.message)")
        }
    }

    /// The next event, or nil at the end of the trace.
    /// - Throws: `ValidationFileError` when a read fails.
    func next() throws(ValidationFileError) -> Event? {
        while true {
            let next: LineReader.Line?
            do {
                next = try lines.next()
            } catch {
                throw ValidationFileError(path: name, message: "cannot read: \(error.reason)")
            }
            guard let line = next else { return nil }
            lineNumber += 1
            if line.isOverlong {
                skippedLines += 1
                continue
            }
            let bytes = line.bytes.array
            let scanned = ByteView.withBytes(of: bytes) { raw -> (EventFields, TraceEvent)? in
                guard !LineReader.isEmpty(raw) else { return nil }
                guard let fields = try? EventScanner.scan(raw), let type = fields.type, let seq = fields.seq else {
                    skippedLines += 1
                    return nil
                }
                func text(_ text: EventFields.Text?) -> String? {
                    text.map { EventFields.string($0, in: raw) }
                }
                let elapsed = fields.elapsedRange.flatMap {
                    DecimalNumber.parse(raw[$0])
                }
                let event = TraceEvent(
                    index: eventCount, line: lineNumber, seq: seq, type: EventFields.string(type, in: raw),
                    store: text(fields.store), action: text(fields.action), caseName: text(fields.caseName),
                    from: text(fields.from), to: text(fields.to), changed: fields.changed, elapsed: elapsed,
                    source: text(fields.source), cause: fields.cause)
                return (fields, event)
            }
            guard let (fields, event) = scanned else { continue }
            eventCount += 1
            return Event(event: event, bytes: bytes, fields: fields)
        }
    }
}
