@_spi(RewindInternals) internal import RewindSupport
import TraceReader

/// An `EventLine` row written as bytes straight from the bytes of its event's line, for `log`
/// on a large trace: no `String`, no `TraceEvent`, no parsed `args`.
///
/// It writes only what it can write exactly as `EventLine.text` does: a row whose every text
/// from the trace (store, action, arguments, cases, source) is printable ASCII, written without
/// escapes, and whose `elapsed` is a plain decimal (no exponent, at most 15 digits), so that
/// its width is its length and `TTY.safe` leaves it as it is. Any other row is refused, and the
/// caller prints it with `EventLine.text`: a test compares the two on many generated rows.
struct EventLineWriter {
    let format: EventLine

    /// Appends the row of `event` and a newline to `output` and returns true; returns false,
    /// `output` as it was, when the row needs `EventLine.text`.
    func appendLine(_ event: ScannedEvent, to output: inout [UInt8]) -> Bool {
        // Written into scratch memory (on the stack for most rows), then copied: reserving the
        // room in `output` first meant filling it with zeros and cutting it back, several times
        // the bytes of the row.
        withUnsafeTemporaryAllocation(byteCount: room(for: event), alignment: 1) { scratch in
            guard let count = writeLine(event, at: scratch.baseAddress!) else { return false }
            output.append(contentsOf: UnsafeRawBufferPointer(start: scratch.baseAddress!, count: count))
            return true
        }
    }

    /// The most bytes the row of `event` takes with its newline: its line's bytes (each written
    /// once at most) and the padding, marks and styles around them.
    @inline(__always)
    func room(for event: ScannedEvent) -> Int {
        event.bytes.count + 64 + max(format.storeWidth, 0) + max(format.actionWidth, 0) + max(format.argsWidth, 0)
            + 256
    }

    /// Writes the row of `event` and a newline at `base`, which has `room(for: event)` bytes,
    /// and returns their length; nil when the row needs `EventLine.text`.
    func writeLine(_ event: ScannedEvent, at base: UnsafeMutableRawPointer) -> Int? {
        guard format.argsLimit == nil else { return nil }
        var output = Output(base: base, count: 0)
        guard write(event, to: &output) else { return nil }
        output.append(10)
        return output.count
    }

    /// Bytes written in place into room reserved for them.
    struct Output {
        let base: UnsafeMutableRawPointer
        var count: Int

        @inline(__always)
        mutating func append(_ byte: UInt8) {
            base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
            count &+= 1
        }

        @inline(__always)
        mutating func append(contentsOf bytes: ByteView) {
            guard let source = bytes.unsafeBaseAddress else { return }
            (base + count).copyMemory(from: source, byteCount: bytes.count)
            count &+= bytes.count
        }

        @inline(__always)
        mutating func append(contentsOf literal: StaticString) {
            append(contentsOf: ByteView(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }

        @inline(__always)
        mutating func append(repeating byte: UInt8, count repeated: Int) {
            guard repeated > 0 else { return }
            (base + count).initializeMemory(as: UInt8.self, repeating: byte, count: repeated)
            count &+= repeated
        }
    }

    private func write(_ event: ScannedEvent, to output: inout Output) -> Bool {
        let style = format.style
        // seq, right-aligned in 6 columns.
        let seq = event.seq
        guard seq >= 0 else { return false }
        let digits = Self.digitCount(seq)
        if digits < 6 { Self.spaces(6 - digits, to: &output) }
        Self.decimal(seq, digits: digits, to: &output)
        output.append(contentsOf: Self.separator)
        // elapsed, left-aligned in 10 columns.
        if let text = event.elapsedText {
            guard let written = Self.offset(copying: text, to: &output) ?? Self.offset(text, to: &output) else {
                return false
            }
            if written < 10 { Self.spaces(10 - written, to: &output) }
        } else {
            Self.spaces(10, to: &output)
        }
        output.append(contentsOf: Self.separator)
        // store
        let store: ByteView
        // `rawText` is nil for a text absent or escaped; `has` tells which (asked only then).
        if let raw = event.rawText(.store) {
            guard Self.isPlain(raw) else { return false }
            store = raw
        } else {
            guard !event.has(.store) else { return false }
            store = Self.dash
        }
        Self.styled(style, code: Self.cyan, to: &output) { Self.padded(store, format.storeWidth, to: &$0) }
        output.append(contentsOf: Self.separator)
        // action: the action's name, `?`, or the event's type
        guard let type = event.rawText(.type), Self.isPlain(type) else { return false }
        let action: ByteView
        if type.elementsEqual(Self.transition) {
            if let raw = event.rawText(.action) {
                guard Self.isPlain(raw) else { return false }
                action = raw
            } else {
                guard !event.has(.action) else { return false }
                action = Self.question
            }
        } else {
            action = type
        }
        Self.styled(style, code: Self.bold, to: &output) { Self.padded(action, format.actionWidth, to: &$0) }
        if format.argsWidth > 0 {
            output.append(contentsOf: Self.separator)
            let before = output.count
            if let args = event.argsText {
                guard Self.appendArguments(args, to: &output) else { return false }
            }
            let written = output.count - before
            if written < format.argsWidth { Self.spaces(format.argsWidth - written, to: &output) }
        }
        // from → to, → case, (no change)
        if event.has(.from) && event.has(.to) {
            guard let from = event.rawText(.from), Self.isPlain(from), let to = event.rawText(.to), Self.isPlain(to)
            else { return false }
            output.append(contentsOf: Self.separator)
            output.append(contentsOf: from)
            output.append(contentsOf: Self.arrowBetween)
            output.append(contentsOf: to)
        } else if event.has(.caseName) {
            guard let caseName = event.rawText(.caseName), Self.isPlain(caseName) else { return false }
            output.append(contentsOf: Self.separator)
            output.append(contentsOf: Self.arrowBefore)
            output.append(contentsOf: caseName)
        }
        if event.changed == false {
            output.append(contentsOf: Self.separator)
            output.append(contentsOf: Self.noChange)
        }
        if let source = event.rawText(.source) {
            guard Self.isPlain(source) else { return false }
            output.append(contentsOf: Self.separator)
            Self.styled(style, code: Self.dim, to: &output) { $0.append(contentsOf: source) }
        } else if event.has(.source) {
            return false
        }
        if let cause = event.cause {
            guard cause >= 0 else { return false }
            output.append(contentsOf: Self.separator)
            Self.styled(style, code: Self.dim, to: &output) { output in
                output.append(contentsOf: Self.causeWord)
                Self.decimal(cause, digits: Self.digitCount(cause), to: &output)
            }
        }
        return true
    }

    // MARK: Arguments

    /// Appends `name: value, …` for the object `args` (valid JSON, as the scan checked it) when
    /// it is written compactly in printable ASCII without escapes, each value a string, number,
    /// literal or an array of those, and no name twice: then `ActionArgumentsText` prints each
    /// name and value as it is written. False otherwise.
    static func appendArguments(_ args: ByteView, to output: inout Output) -> Bool {
        let count = args.count
        guard count >= 2, args[0] == UInt8(ascii: "{") else { return false }
        if count == 2 { return args[1] == UInt8(ascii: "}") }
        var names: [Range<Int>] = []
        var position = 1
        while position < count {
            // "name"
            guard args[position] == UInt8(ascii: "\"") else { return false }
            let nameStart = position + 1
            guard let nameEnd = plainStringEnd(args, from: nameStart) else { return false }
            let name = nameStart..<nameEnd
            for earlier in names where args[earlier].elementsEqual(args[name]) { return false }
            names.append(name)
            position = nameEnd + 1
            guard position < count, args[position] == UInt8(ascii: ":") else { return false }
            position += 1
            // the value, up to the `,` or `}` of the object
            let valueStart = position
            var depth = 0
            while position < count {
                let byte = args[position]
                if byte == UInt8(ascii: "\"") {
                    guard let end = plainStringEnd(args, from: position + 1) else { return false }
                    position = end + 1
                    continue
                }
                if byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "]") {
                    depth -= 1
                } else if byte == UInt8(ascii: "{") || byte <= 0x20 || byte >= 0x7F {
                    return false  // an object (names may repeat), whitespace, or not ASCII
                } else if depth == 0 && (byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}")) {
                    break
                }
                position += 1
            }
            guard position < count else { return false }
            if names.count > 1 { output.append(contentsOf: ", ") }
            output.append(contentsOf: args[name])
            output.append(contentsOf: ": ")
            output.append(contentsOf: args[valueStart..<position])
            if args[position] == UInt8(ascii: "}") { return position == count - 1 }
            position += 1
        }
        return false
    }

    /// The offset of the `"` that ends a string whose body starts at `start`, when the body is
    /// printable ASCII without `\`; nil otherwise.
    private static func plainStringEnd(_ bytes: ByteView, from start: Int) -> Int? {
        var position = start
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { return position }
            guard byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") else { return nil }
            position += 1
        }
        return nil
    }

    // MARK: Numbers

    /// The value of a JSON number written `-?digits(.digits)?` with at most 15 digits, exactly
    /// as `Double(String)` reads it (the digits and the power of ten are exact in a `Double`, and
    /// one division rounds correctly); nil for any other form.
    static func plainDouble(_ text: ByteView) -> Double? {
        var position = 0
        var negative = false
        if position < text.count && text[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var mantissa: Int64 = 0
        var digits = 0
        var decimals = 0
        var seenPoint = false
        while position < text.count {
            let byte = text[position]
            if byte == UInt8(ascii: ".") && !seenPoint {
                seenPoint = true
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                mantissa = mantissa * 10 + Int64(byte - UInt8(ascii: "0"))
                digits += 1
                if seenPoint { decimals += 1 }
            } else {
                return nil
            }
            position += 1
        }
        guard digits > 0 && digits <= 15 else { return nil }
        let magnitude = Double(mantissa) / powersOfTen[decimals]
        return negative ? -magnitude : magnitude
    }

    private static let powersOfTen: [Double] = (0...15).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// Appends `EventLine.offset` of the number written `text` and returns its length, or nil
    /// (nothing appended) where it is not a plain decimal or not written with six decimals.
    private static func offset(_ text: ByteView, to output: inout Output) -> Int? {
        guard let value = plainDouble(text) else { return nil }
        return offset(value, to: &output)
    }

    /// Appends `EventLine.offset` of the number written `text` by copying its digits, when it
    /// is written `-?whole(.fraction)?` with at most 9 digits before the point (no leading
    /// zero) and 1 to 6 after it, as a recorder writes `elapsed`; returns its length, or nil
    /// (nothing appended) for any other form. The value is then exact in microseconds, so the
    /// row is the digits themselves: the whole part, and the fraction without its trailing
    /// zeros (at least one digit); `+` before it, `-` for a value below 0 (`-0` is `+0.0s`).
    static func offset(copying text: ByteView, to output: inout Output) -> Int? {
        let count = text.count
        var position = 0
        let negative = count > 0 && text[0] == UInt8(ascii: "-")
        if negative { position = 1 }
        let wholeStart = position
        var nonZero = false
        while position < count, text[position] &- UInt8(ascii: "0") < 10 {
            nonZero = nonZero || text[position] != UInt8(ascii: "0")
            position += 1
        }
        let wholeEnd = position
        let wholeDigits = wholeEnd - wholeStart
        guard wholeDigits >= 1 && wholeDigits <= 9, wholeDigits == 1 || text[wholeStart] != UInt8(ascii: "0")
        else { return nil }
        var fractionEnd = position  // past the last digit of the fraction that is not 0
        var fractionStart = position
        if position < count {
            guard text[position] == UInt8(ascii: ".") else { return nil }
            position += 1
            fractionStart = position
            while position < count, text[position] &- UInt8(ascii: "0") < 10 {
                if text[position] != UInt8(ascii: "0") {
                    nonZero = true
                    fractionEnd = position + 1
                }
                position += 1
            }
            guard position == count, count - fractionStart >= 1, count - fractionStart <= 6 else { return nil }
        }
        let before = output.count
        output.append(negative && nonZero ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        output.append(contentsOf: text[wholeStart..<wholeEnd])
        output.append(UInt8(ascii: "."))
        if fractionEnd > fractionStart {
            output.append(contentsOf: text[fractionStart..<fractionEnd])
        } else {
            output.append(UInt8(ascii: "0"))
        }
        output.append(UInt8(ascii: "s"))
        return output.count - before
    }

    /// Appends `EventLine.offset(value)` and returns its length, or nil (nothing appended) where
    /// it is not written with six decimals (from 1e9 s on, or not finite).
    private static func offset(_ value: Double, to output: inout Output) -> Int? {
        guard value.isFinite, value.magnitude < 1e9 else { return nil }
        let microseconds = Int((value.magnitude * 1_000_000).rounded())
        var fraction = microseconds % 1_000_000
        var decimals = 6
        while decimals > 1 && fraction % 10 == 0 {
            fraction /= 10
            decimals -= 1
        }
        let before = output.count
        // `+` before a time at or after the start; `-` before one before it (that is not 0).
        if value >= 0 {
            output.append(UInt8(ascii: "+"))
        } else if microseconds > 0 {
            output.append(UInt8(ascii: "-"))
        }
        let whole = microseconds / 1_000_000
        decimal(whole, digits: digitCount(whole), to: &output)
        output.append(UInt8(ascii: "."))
        decimal(fraction, digits: decimals, to: &output)
        output.append(UInt8(ascii: "s"))
        return output.count - before
    }

    /// The digits of `value` (at least 0).
    private static func digitCount(_ value: Int) -> Int {
        var count = 1
        var bound = 10
        while value >= bound && count < 18 {
            count += 1
            bound &*= 10
        }
        return value >= bound ? count + 1 : count
    }

    /// Appends `value` (at least 0) in `digits` digits, with leading zeros: two digits per
    /// division, from `twoDigits`.
    private static func decimal(_ value: Int, digits: Int, to output: inout Output) {
        let pairs = UnsafeRawPointer(twoDigits.utf8Start)
        var rest = UInt(bitPattern: value)
        var position = output.count &+ digits
        let start = output.count
        while position &- start >= 2 {
            let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: 100)
            position &-= 2
            (output.base + position).copyMemory(from: pairs + Int(remainder) &* 2, byteCount: 2)
            rest = quotient
        }
        if position > start {
            output.base.storeBytes(of: UInt8(ascii: "0") &+ UInt8(rest % 10), toByteOffset: start, as: UInt8.self)
        }
        output.count = start &+ digits
    }

    /// `00` to `99`, two bytes each.
    private static var twoDigits: StaticString {
        """
        0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
        5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
        """
    }

    // MARK: Text

    /// Whether `bytes` are printable ASCII: one column each, left alone by `TTY.safe`.
    static func isPlain(_ bytes: ByteView) -> Bool {
        let count = bytes.count
        // Eight bytes at a time, the last eight (or, for 4 to 7 bytes, the first and the last
        // four) overlapping those before: no loop over the bytes of a short name.
        if count >= 8 {
            var index = 0
            while index &+ 8 <= count {
                if !isPlain(bytes.loadUnaligned(at: index, as: UInt64.self)) { return false }
                index &+= 8
            }
            return index == count || isPlain(bytes.loadUnaligned(at: count &- 8, as: UInt64.self))
        }
        if count >= 4 {
            let first = UInt64(bytes.loadUnaligned(at: 0, as: UInt32.self))
            let last = UInt64(bytes.loadUnaligned(at: count &- 4, as: UInt32.self))
            return isPlain(first | last << 32)
        }
        for index in 0..<count where bytes[index] < 0x20 || bytes[index] >= 0x7F { return false }
        return true
    }

    /// Whether the eight bytes of `word` are printable ASCII: a byte below 0x20 borrows into
    /// its high bit (where it had none), one at or above 0x7F has it set or sets it when 1 is
    /// added.
    @inline(__always)
    private static func isPlain(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        return ((word &- ones &* 0x20) & ~word | (word &+ ones) | word) & (ones &* 0x80) == 0
    }

    private static func padded(_ text: ByteView, _ width: Int, to output: inout Output) {
        output.append(contentsOf: text)
        if text.count < width { spaces(width - text.count, to: &output) }
    }

    private static func spaces(_ count: Int, to output: inout Output) {
        output.append(repeating: UInt8(ascii: " "), count: count)
    }

    /// Appends what `body` writes, inside `Style`'s sequence for `code` when colour is on.
    private static func styled(
        _ style: Style, code: StaticString, to output: inout Output, _ body: (inout Output) -> Void
    ) {
        guard style.enabled else { return body(&output) }
        output.append(contentsOf: "\u{1B}[")
        output.append(contentsOf: code)
        output.append(UInt8(ascii: "m"))
        body(&output)
        output.append(contentsOf: "\u{1B}[0m")
    }

    private static let separator: StaticString = "  "
    private static let arrowBetween: StaticString = " → "
    private static let arrowBefore: StaticString = "→ "
    private static let noChange: StaticString = "(no change)"
    private static let causeWord: StaticString = "cause "
    private static let cyan: StaticString = "36"
    private static let bold: StaticString = "1"
    private static let dim: StaticString = "2"
    private static var transition: ByteView { bytes("transition") }
    private static var dash: ByteView { bytes("-") }
    private static var question: ByteView { bytes("?") }

    /// The bytes of a literal, which live as long as the program.
    private static func bytes(_ literal: StaticString) -> ByteView {
        ByteView(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
    }
}
