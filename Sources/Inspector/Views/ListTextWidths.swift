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
/// Found from the file's bytes (`scan`), without decoding an event: on each line, the first
/// `"action"`, `"from"`, `"to"`, `"case"` and `"changed"` (the recorder writes them before
/// `state`) and the last `"args"` object (written after `state`, with only `source`, `stack`
/// and `cause` after it, which hold no object), so these are the event's own; a trace written
/// otherwise may have a member of its state counted, which can only make a column wider, never
/// cut a name. The arguments' width is bounded by the bytes of their object less its braces
/// (`ActionArgumentsText` writes `"name":value,` as `name: value, `, the same columns less
/// the name's quotes).
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
    mutating func scan(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var start = 0
        let count = bytes.count
        while start < count {
            let end =
                memchr(base + start, 0x0A, count - start).map { UnsafeRawPointer(base).distance(to: $0) } ?? count
            scanLine(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            start = end + 1
        }
    }

    private mutating func scanLine(_ line: UnsafeRawBufferPointer) {
        let quote = UInt8(ascii: "\"")
        if let body = Self.value(of: "\"action\"", opening: quote, in: line, last: false) {
            action = max(action, Self.stringWidth(body, in: line))
        }
        if let object = Self.value(of: "\"args\"", opening: UInt8(ascii: "{"), in: line, last: true) {
            args = max(args, Self.objectEnd(in: line, from: object) - object)
        }
        // What the event did, as `EventLine.detail` writes it.
        var did = 0
        if let from = Self.value(of: "\"from\"", opening: quote, in: line, last: false),
            let to = Self.value(of: "\"to\"", opening: quote, in: line, last: false)
        {
            did = Self.stringWidth(from, in: line) + 3 + Self.stringWidth(to, in: line)
        } else if let caseName = Self.value(of: "\"case\"", opening: quote, in: line, last: false) {
            did = 2 + Self.stringWidth(caseName, in: line)
        }
        if Self.value(of: "\"changed\"", opening: UInt8(ascii: "f"), in: line, last: false) != nil {
            did += (did == 0 ? 0 : 2) + "(no change)".count
        }
        if let type = Self.value(of: "\"type\"", opening: quote, in: line, last: false),
            line.count - type >= 8, memcmp(line.baseAddress! + type, "restore\"", 8) == 0,
            let step = Self.digitsValue(of: "\"step\"", in: line)
        {
            var end = step - 1
            while end < line.count, line[end] >= UInt8(ascii: "0") && line[end] <= UInt8(ascii: "9") { end += 1 }
            did += (did == 0 ? 0 : 2) + "(restored step )".count + (end - step + 1)
        }
        detail = max(detail, did)
    }

    /// The offset of the first digit of the number after the last `key` in `line`.
    private static func digitsValue(of key: StaticString, in line: UnsafeRawBufferPointer) -> Int? {
        for digit in UInt8(ascii: "0")...UInt8(ascii: "9") {
            if let after = value(of: key, opening: digit, in: line, last: true) { return after }
        }
        return nil
    }

    /// The offset just past the opening byte of the value of the first `key` (quoted, with its
    /// `:`) in `line` (the `last` one) when that value starts with `opening`; nil otherwise.
    private static func value(
        of key: StaticString, opening: UInt8, in line: UnsafeRawBufferPointer, last: Bool
    ) -> Int? {
        guard let found = occurrence(of: key, in: line, last: last) else { return nil }
        var position = found + key.utf8CodeUnitCount
        func skipSpaces() {
            while position < line.count, line[position] == 0x20 || line[position] == 0x09 { position += 1 }
        }
        skipSpaces()
        guard position < line.count, line[position] == UInt8(ascii: ":") else { return nil }
        position += 1
        skipSpaces()
        guard position < line.count, line[position] == opening else { return nil }
        return position + 1
    }

    /// The offset of the first (or `last`) `key` in `line`, found by `memchr` from quote to
    /// quote.
    private static func occurrence(of key: StaticString, in line: UnsafeRawBufferPointer, last: Bool) -> Int? {
        guard let base = line.baseAddress else { return nil }
        let length = key.utf8CodeUnitCount
        var from = 0
        var found: Int?
        while from + length <= line.count, let hit = memchr(base + from, 0x22, line.count - from) {
            let at = base.distance(to: UnsafeRawPointer(hit))
            if at + length <= line.count && memcmp(base + at, key.utf8Start, length) == 0 {
                if !last { return at }
                found = at
                from = at + length
            } else {
                from = at + 1
            }
        }
        return found
    }

    /// The columns of the JSON string whose body starts at `start`: its bytes when they are
    /// printable ASCII, else the text decoded and made terminal-safe.
    private static func stringWidth(_ start: Int, in line: UnsafeRawBufferPointer) -> Int {
        var position = start
        var plain = true
        while position < line.count {
            let byte = line[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                plain = false
                position += 1
            } else if byte < 0x20 || byte >= 0x7F {
                plain = false
            }
            position += 1
        }
        let end = min(position, line.count)
        if plain { return end - start }
        let quoted = Array(line[(start - 1)..<min(end + 1, line.count)])
        let text =
            (try? JSONParser.parse(quoted))?.stringValue ?? String(decoding: line[start..<end], as: UTF8.self)
        return ScreenText.width(TTY.safe(text))
    }

    /// The offset of the `}` that closes the object whose members start at `start` (strings
    /// skipped, nested objects and arrays counted); the line's end when it is not closed.
    private static func objectEnd(in line: UnsafeRawBufferPointer, from start: Int) -> Int {
        var depth = 1
        var position = start
        var inString = false
        while position < line.count {
            let byte = line[position]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    position += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return position }
            }
            position += 1
        }
        return line.count
    }

    /// The widths of the trace file at `path`, read a block at a time; `shouldStop` is asked
    /// between blocks (the view quit), and `progress` gets the widths of the lines read so far
    /// after each block. Nil when the file cannot be read or is not a regular file.
    static func ofFile(
        atPath path: String, shouldStop: () -> Bool = { false }, progress: (ListTextWidths) -> Void = { _ in }
    ) -> ListTextWidths? {
        // A regular file only: a pipe's bytes were read once, by the opening (and opening a
        // pipe again would wait for a writer). Closed when it goes out of scope.
        guard (try? SystemCalls.status(ofPath: path))?.kind == .regular,
            let file = try? FileDescriptor.open(path, .readOnly)
        else { return nil }
        let blockSize = 4 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 16)
        defer { buffer.deallocate() }
        // Event types shown in the action column.
        var widths = ListTextWidths(action: 8, args: 0)
        var offset = 0
        var kept = 0  // bytes of a line cut at the end of the last block, moved to the front
        while !shouldStop() {
            guard let read = try? file.read(into: buffer.baseAddress! + kept, count: blockSize - kept, at: offset)
            else { return nil }
            offset += read
            let filled = kept + read
            if read == 0 {
                widths.scan(UnsafeRawBufferPointer(rebasing: buffer[0..<filled]))
                return widths
            }
            // Up to the last whole line; a line longer than the block is scanned in pieces.
            let last = UnsafeRawBufferPointer(rebasing: buffer[0..<filled]).lastIndex(of: 0x0A)
            let whole = last.map { $0 + 1 } ?? filled
            widths.scan(UnsafeRawBufferPointer(rebasing: buffer[0..<whole]))
            progress(widths)
            kept = filled - whole
            if kept > 0 {
                (buffer.baseAddress!).copyMemory(from: buffer.baseAddress! + whole, byteCount: kept)
            }
        }
        return nil
    }
}
