@_spi(RewindInternals) internal import RewindSupport
import TraceReader

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The widest action name, arguments and from → to of a whole trace, in screen columns: what
/// the step view's action, from → to and arguments columns are sized for, so that scrolling
/// never moves a column (`EventLine.forList`).
///
/// Found from the file's bytes (`scan`), without decoding an event: each line's top-level
/// members are read by `EventScanner`, the validator's reading of the format (the state is
/// skipped, not built), and `action`, `from`, `to`, `case`, `changed` and `args` measured. The
/// arguments' width is bounded by the bytes of their object less its braces
/// (`ActionArgumentsText` writes `"name":value,` as `name: value, `, the same columns less the
/// name's quotes).
///
/// The bound only grows (`formUnion`): a trace that grew while followed is scanned again, and
/// the view keeps the wider of the two.
struct ListTextWidths: Equatable, Sendable {
    /// The widest action name, or event type shown in its place (`register`, `restore`).
    var action = 0
    /// The widest arguments, as `ActionArgumentsText` writes them at most.
    var args = 0
    /// The widest text of what an event did (`EventLine.detail`): `loading → loaded`,
    /// `(no change)`, `→ idle  (restored step 5)`.
    var detail = 0
    /// The digits of the largest step a restore may name (the trace's event count's).
    var maxStepDigits = 6

    /// The larger of each width.
    mutating func formUnion(_ other: ListTextWidths) {
        action = max(action, other.action)
        args = max(args, other.args)
        detail = max(detail, other.detail)
    }

    /// Widened to the action names, arguments and what they did of `events`.
    mutating func include(_ events: [TraceEvent]) {
        for event in events {
            action = max(action, ScreenText.width(TTY.safe(EventLine.action(of: event))))
            args = max(args, ScreenText.width(ActionArgumentsText.text(event.args)))
            detail = max(detail, ScreenText.width(EventLine.detail(of: event)))
        }
    }

    /// Widened to the lines in `bytes`, which end at a `\n` (a line cut at the end of `bytes`
    /// is looked at as far as it goes).
    mutating func scan(_ bytes: ByteView) {
        var start = 0
        let count = bytes.count
        while start < count {
            let end = bytes.firstIndex(of: 0x0A, from: start) ?? count
            scanLine(bytes[start..<end])
            start = end + 1
        }
    }

    private mutating func scanLine(_ line: ByteView) {
        // The line's members as the validator reads them (`EventScanner`, one reading of the
        // format for every command): a line it cannot read sizes nothing (the view reports it).
        guard let fields = try? EventScanner.scan(line) else { return }
        if let name = fields.action { action = max(action, Self.width(name, in: line)) }
        // `ActionArgumentsText` writes `"name":value,` as `name: value, `: at most the bytes
        // between the braces.
        if let range = fields.argsRange { args = max(args, range.count - 2) }
        // What the event did, as `EventLine.detail` writes it.
        var did = 0
        if let from = fields.from, let to = fields.to {
            did = Self.width(from, in: line) + 3 + Self.width(to, in: line)
        } else if let caseName = fields.caseName {
            did = 2 + Self.width(caseName, in: line)
        }
        if fields.changed == false { did += (did == 0 ? 0 : 2) + "(no change)".count }
        if let type = fields.type, EventFields.string(type, in: line) == "restore" {
            // `(restored step N)`: N is at most the last step, whose digits `maxStepDigits` holds.
            did += (did == 0 ? 0 : 2) + "(restored step )".count + maxStepDigits
        }
        detail = max(detail, did)
    }

    /// The columns of a string of the line: its bytes when they are printable ASCII, else its
    /// text made terminal-safe.
    private static func width(_ text: EventFields.Text, in line: ByteView) -> Int {
        let range = text.range
        if !text.hasEscapes && line[range].allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return range.count }
        return ScreenText.width(TTY.safe(EventFields.string(text, in: line)))
    }

    /// The widths of the trace file at `path`, read a block at a time; `shouldStop` is asked
    /// between blocks (the view quit), and `progress` gets the widths of the lines read so far
    /// after each block. Nil when the file cannot be read or is not a regular file.
    static func ofFile(
        atPath path: String, maxStepDigits: Int = 6, shouldStop: () -> Bool = { false },
        progress: (ListTextWidths) -> Void = { _ in }
    ) -> ListTextWidths? {
        // A regular file only: a pipe's bytes were read once, by the opening (and opening a
        // pipe again would wait for a writer). Closed when it goes out of scope.
        guard (try? SystemCalls.status(ofPath: path))?.kind == .regular,
            let file = try? FileDescriptor.open(path, .readOnly)
        else { return nil }
        // Read by the trace reader's one chunk reader: whole lines a block at a time (a line
        // longer than a block comes whole; one longer than the format allows is skipped).
        // `file` is kept open until the reading ends.
        return withExtendedLifetime(file) { () -> ListTextWidths? in
            var chunks = ChunkReader(.file(descriptor: file.rawValue, range: 0..<Int.max), blockSize: 4 << 20)
            // Event types shown in the action column.
            var widths = ListTextWidths(action: 8, args: 0, maxStepDigits: maxStepDigits)
            while !shouldStop() {
                let next: (chunk: LineReader.Chunk, offset: Int)?
                do { next = try chunks.next() } catch { return nil }
                guard let (chunk, _) = next else { return widths }
                if case .lines(let bytes) = chunk { widths.scan(bytes) }
                progress(widths)
            }
            return nil
        }
    }
}
