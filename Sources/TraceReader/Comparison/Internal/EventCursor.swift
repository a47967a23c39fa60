@_spi(RewindInternals) internal import RewindSupport

/// A trace's events read one at a time, when asked: what lets `TraceComparison` walk two traces
/// side by side, its memory bounded by the longest line, never by the trace's length.
///
/// Lines that are not events are skipped, as `TraceFile` skips them, and counted in
/// `skippedLines`: a line that is not a JSON object, one without a string `type` and an integer
/// `seq`, a torn last line, a line over the format's 1 GiB. Empty lines are skipped silently.
/// A class because it owns its input and its read position.
final class EventCursor {
    /// One event: its line, its members, and the event they make.
    struct Event {
        var line: Int
        var object: JSONObject
        var event: TraceEvent
    }

    /// What errors and reports call the trace.
    let name: String
    /// Line 1.
    let header: TraceHeader
    /// Lines skipped because they are not events.
    private(set) var skippedLines = 0
    /// Events returned so far.
    private(set) var eventCount = 0
    private var lines: LineSource
    private var lineNumber = 1

    /// Opens `source` and reads its header.
    /// - Throws: `ValidationFileError` when it cannot be read, or line 1 is not a trace header.
    init(_ source: TraceComparison.Input) throws(ValidationFileError) {
        name = source.name
        switch source {
        case .bytes(let bytes, _):
            lines = LineSource(bytes: bytes)
        case .file(let path):
            do {
                lines = LineSource(input: try TraceInput.open(path))
            } catch {
                let (_, line, message) = error.openError
                throw ValidationFileError(
                    path: path, line: line, message: line == nil ? message : "not a trace: \(message)")
            }
        }
        let first: LineSource.Line?
        do {
            first = try lines.next()
        } catch {
            throw ValidationFileError(path: name, message: "cannot read: \(error.reason)")
        }
        guard let first, !first.isOverlong else {
            let message =
                first == nil
                ? "the file is empty; a Rewind trace starts with its header line"
                : "line 1 is longer than 1 GiB; it is not a trace header"
            throw ValidationFileError(path: name, line: 1, message: "not a trace: \(message)")
        }
        let parsed = first.bytes.withUnsafeBytes { bytes in
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
            let next: LineSource.Line?
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
            if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                if !line.bytes.isEmpty { skippedLines += 1 }
                continue
            }
            guard let value = try? JSONParser.parse(line.bytes), let object = value.objectValue,
                let event = TraceEvent(index: eventCount, line: lineNumber, object: object)
            else {
                skippedLines += 1
                continue
            }
            eventCount += 1
            return Event(line: lineNumber, object: object, event: event)
        }
    }
}
