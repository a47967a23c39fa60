// A growable byte buffer with the JSON writers the recorder needs.
//
// Performance notes (issue 6): the buffer is reused across events, so steady-state recording
// allocates nothing here. Its fields live behind one `UnsafeMutablePointer`, not in class stored
// properties, so the hot path pays no dynamic exclusivity checks. The writers store whole
// eight-byte words where they can: a writer first reserves its bytes plus `slack`, so a word
// stored at the end may run past the bytes it means to write (the count only covers those).
// Strings are checked and copied eight bytes at a time; integers are written two digits at a
// time; doubles use a short decimal form when one reads back exactly, and otherwise the standard
// library's shortest round-trip text.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bytes of one line being built: a view of the buffer that a `JSONOutputStorage` owns.
///
/// A `JSONOutput` is one pointer, copied freely (the encoder's context and the recorder each
/// hold one); it neither allocates nor frees anything itself except when growing or shrinking
/// the byte buffer, which it does in place in the storage's header. It is valid while its
/// `JSONOutputStorage` lives. Not thread-safe: used by one encoder, under the recorder's lock.
// `package`: TraceReader's `JSONPrinter` writes through it too (one byte writer for the package).
package struct JSONOutput: @unchecked Sendable {  // a view; see JSONOutputStorage for who owns the memory
    /// The buffer's header: where the bytes are, how many are written, how many fit.
    struct Header {
        var base: UnsafeMutablePointer<UInt8>
        var count: Int
        var capacity: Int
    }

    private let storage: UnsafeMutablePointer<Header>

    /// Bytes a writer may store past what it writes (whole words at the end of a run).
    private static var slack: Int { 16 }

    /// A view of `header`, which `JSONOutputStorage` allocated and frees.
    init(header: UnsafeMutablePointer<Header>) {
        storage = header
    }

    package var count: Int {
        @inline(__always) get { storage.pointee.count }
        @inline(__always) nonmutating set { storage.pointee.count = newValue }
    }

    /// The bytes written so far. Valid until the next write.
    package var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: storage.pointee.base, count: storage.pointee.count)
    }

    package func bytes(from start: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: storage.pointee.base + start, count: storage.pointee.count - start)
    }

    /// Makes room for `extra` more bytes (plus the slack a word store may use) and returns where
    /// the next byte goes.
    @inline(__always)
    private func end(reserving extra: Int) -> UnsafeMutablePointer<UInt8> {
        let count = storage.pointee.count
        if count &+ extra &+ Self.slack > storage.pointee.capacity { grow(to: count &+ extra &+ Self.slack) }
        return storage.pointee.base + count
    }

    @inline(__always)
    private func advance(by written: Int) {
        storage.pointee.count &+= written
    }

    @inline(__always)
    package func reserve(_ extra: Int) {
        _ = end(reserving: extra)
    }

    @inline(never)
    private func grow(to needed: Int) {
        var capacity = storage.pointee.capacity * 2
        while capacity < needed { capacity *= 2 }
        storage.pointee.moveBytes(toCapacity: capacity)
    }

    /// Gives back memory after an unusually large event, so one 100 MB state does not pin
    /// 100 MB for the life of the app.
    func shrinkIfLarge(keeping capacity: Int = 1 << 16) {
        guard storage.pointee.capacity > capacity * 16, storage.pointee.count <= capacity else { return }
        storage.pointee.moveBytes(toCapacity: capacity)
    }

    @inline(__always)
    package func append(_ byte: UInt8) {
        end(reserving: 1).pointee = byte
        advance(by: 1)
    }

    @inline(__always)
    package func append(_ raw: UnsafeRawBufferPointer) {
        guard let source = raw.baseAddress, raw.count > 0 else { return }
        memcpy(end(reserving: raw.count), source, raw.count)
        advance(by: raw.count)
    }

    /// Appends ASCII text known at compile time, such as a key with its quotes and colon.
    @inline(__always)
    package func append(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        let target = end(reserving: count)
        if count <= 16 {
            Self.copyShort(from: UnsafeRawPointer(text.utf8Start), count, to: UnsafeMutableRawPointer(target))
        } else {
            memcpy(target, text.utf8Start, count)
        }
        advance(by: count)
    }

    /// Copies `count` (at most 16) bytes, with no call and no loop: two loads that may overlap.
    /// Reads only the `count` bytes of `source`.
    @inline(__always)
    private static func copyShort(from source: UnsafeRawPointer, _ count: Int, to target: UnsafeMutableRawPointer) {
        if count >= 8 {
            let head = source.loadUnaligned(as: UInt64.self)
            let tail = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
        } else if count >= 4 {
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
        } else if count > 0 {
            let first = source.load(as: UInt8.self)
            let middle = source.load(fromByteOffset: count >> 1, as: UInt8.self)
            let last = source.load(fromByteOffset: count &- 1, as: UInt8.self)
            target.storeBytes(of: first, as: UInt8.self)
            target.storeBytes(of: middle, toByteOffset: count >> 1, as: UInt8.self)
            target.storeBytes(of: last, toByteOffset: count &- 1, as: UInt8.self)
        }
    }

    // MARK: Strings

    /// Appends `text` as a JSON string, escaped per RFC 8259: `"`, `\` and the control characters
    /// U+0000–U+001F are escaped; everything else, non-ASCII included, is written as UTF-8.
    @inline(__always)
    package func appendString(_ text: String) {
        // Non-mutating access to the UTF-8 bytes: no copy, no uniqueness check (native and
        // small strings are always contiguous; a bridged one takes the slow path).
        let done: Void? = text.utf8.withContiguousStorageIfAvailable {
            appendQuoted(UnsafeRawPointer($0.baseAddress), $0.count, colon: false)
        }
        if done == nil { appendStringCopying(text, colon: false) }
    }

    /// `appendString`, not inlined: for code that runs once in a while (a header, a machine, a
    /// register event), where a copy of the inlined fast path at every call costs more code than
    /// the call costs time.
    @inline(never)
    func appendRareString(_ text: String) {
        appendString(text)
    }

    /// Appends `text` as a JSON string followed by `:`, for an object's key.
    @inline(__always)
    func appendKey(_ text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable {
            appendQuoted(UnsafeRawPointer($0.baseAddress), $0.count, colon: true)
        }
        if done == nil { appendStringCopying(text, colon: true) }
    }

    @inline(never)
    private func appendStringCopying(_ text: String, colon: Bool) {
        var copy = text
        copy.withUTF8 { appendQuoted(UnsafeRawPointer($0.baseAddress), $0.count, colon: colon) }
    }

    /// Appends already-valid UTF-8 bytes as a JSON string.
    package func appendString(utf8 raw: UnsafeRawBufferPointer) {
        appendQuoted(raw.baseAddress, raw.count, colon: false)
    }

    /// Writes `"`, the bytes, `"` (and `:` for a key). Strings of 1 to 16 bytes with nothing to
    /// escape, which is most keys and most values, are checked and copied with a few word loads
    /// and stores, inline; the rest go to `appendQuotedRun`.
    @inline(__always)
    private func appendQuoted(_ source: UnsafeRawPointer?, _ count: Int, colon: Bool) {
        if let source, UInt(bitPattern: count &- 1) < 16, !Self.shortNeedsEscape(source, count) {
            let target = UnsafeMutableRawPointer(end(reserving: count &+ 3))
            target.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
            Self.copyShort(from: source, count, to: target + 1)
            // `"` then `:`; the colon is only counted for a key.
            target.storeBytes(of: Self.quoteColon, toByteOffset: count &+ 1, as: UInt16.self)
            advance(by: colon ? count &+ 3 : count &+ 2)
            return
        }
        appendQuotedRun(source, count, colon: colon)
    }

    /// `appendQuoted` for empty strings, strings over 16 bytes (checked and copied a word at a
    /// time in one pass) and strings with something to escape.
    @inline(never)
    private func appendQuotedRun(_ source: UnsafeRawPointer?, _ count: Int, colon: Bool) {
        let target = UnsafeMutableRawPointer(end(reserving: count &+ 3))
        target.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        guard let source, count > 0 else {
            target.storeBytes(of: Self.quoteColon, toByteOffset: 1, as: UInt16.self)
            advance(by: colon ? 3 : 2)
            return
        }
        if count <= 16 {
            appendEscaped(source, count, cleanPrefix: 0, colon: colon)
            return
        }
        let body = target + 1
        // Check and copy each word; the last one overlaps the one before it.
        var offset = 0
        let lastWord = count &- 8
        while true {
            let at = offset < lastWord ? offset : lastWord
            let word = source.loadUnaligned(fromByteOffset: at, as: UInt64.self)
            if Self.mayNeedEscape(word) {
                appendEscaped(source, count, cleanPrefix: at, colon: colon)
                return
            }
            body.storeBytes(of: word, toByteOffset: at, as: UInt64.self)
            if at == lastWord { break }
            offset &+= 8
        }
        body.storeBytes(of: Self.quoteColon, toByteOffset: count, as: UInt16.self)
        advance(by: colon ? count &+ 3 : count &+ 2)
    }

    /// The bytes `"` and `:` in memory order, stored as one word.
    private static var quoteColon: UInt16 { UInt16(0x3A22).littleEndian }

    /// Whether a string of at most 16 bytes has a byte to escape, reading only its bytes.
    @inline(__always)
    private static func shortNeedsEscape(_ source: UnsafeRawPointer, _ count: Int) -> Bool {
        if count >= 8 {
            return mayNeedEscape(source.loadUnaligned(as: UInt64.self))
                || mayNeedEscape(source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
        }
        let word: UInt64
        if count >= 4 {
            word =
                UInt64(source.loadUnaligned(as: UInt32.self))
                | UInt64(source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)) &<< 32
        } else {
            // `A` pads the word: it never needs escaping.
            word =
                UInt64(source.load(as: UInt8.self))
                | UInt64(source.load(fromByteOffset: count >> 1, as: UInt8.self)) &<< 8
                | UInt64(source.load(fromByteOffset: count &- 1, as: UInt8.self)) &<< 16
                | 0x4141_4141_4100_0000
        }
        return mayNeedEscape(word)
    }

    /// Whether any of the eight bytes of `word` is below 0x20, a `"` or a `\`. Exact about
    /// whether there is one (the usual SWAR "has a byte less than" tests), not about where.
    /// Flipping bit 1 maps `"` (0x22) to 0x20 and keeps 0x00–0x1F below 0x20 while every other
    /// byte stays at 0x21 or above, so one test covers control characters and quotes.
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let flipped = word ^ (ones &* 0x02)
        let belowOrQuote = (flipped &- ones &* 0x21) & ~flipped
        let backslash = word ^ (ones &* 0x5C)
        let backslashZero = (backslash &- ones) & ~backslash
        return (belowOrQuote | backslashZero) & highs != 0
    }

    /// The slow path: the opening quote is written; the first `cleanPrefix` bytes need no escape.
    @inline(never)
    private func appendEscaped(_ source: UnsafeRawPointer, _ count: Int, cleanPrefix: Int, colon: Bool) {
        advance(by: 1)  // the opening quote
        var runStart = 0
        var index = cleanPrefix
        while index < count {
            let byte = source.load(fromByteOffset: index, as: UInt8.self)
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C {
                index &+= 1
                continue
            }
            if index > runStart { append(UnsafeRawBufferPointer(start: source + runStart, count: index &- runStart)) }
            appendEscape(byte)
            index &+= 1
            runStart = index
        }
        if count > runStart { append(UnsafeRawBufferPointer(start: source + runStart, count: count &- runStart)) }
        if colon { append("\":") } else { append(UInt8(ascii: "\"")) }
    }

    private func appendEscape(_ byte: UInt8) {
        switch byte {
        case 0x22: append("\\\"")
        case 0x5C: append("\\\\")
        case 0x0A: append("\\n")
        case 0x0D: append("\\r")
        case 0x09: append("\\t")
        case 0x08: append("\\b")
        case 0x0C: append("\\f")
        default:
            let hex: StaticString = "0123456789abcdef"
            append("\\u00")
            append(hex.utf8Start[Int(byte >> 4)])
            append(hex.utf8Start[Int(byte & 0xF)])
        }
    }

    // MARK: Numbers

    /// Two ASCII digits for each value 0...99, so integers are written two digits at a time.
    /// A static string: its bytes are a constant, read with no lazy initialization.
    private static var digitPairs: UnsafeRawPointer {
        @inline(__always) get {
            let table: StaticString = """
                00010203040506070809101112131415161718192021222324252627282930313233343536373839\
                40414243444546474849505152535455565758596061626364656667686970717273747576777879\
                8081828384858687888990919293949596979899
                """
            return UnsafeRawPointer(table.utf8Start)
        }
    }

    func append(_ value: Int64) {
        if value < 0 {
            // `0 &- UInt64(bitPattern:)` is exact for Int64.min too.
            appendDigits(0 &- UInt64(bitPattern: value), negative: true)
        } else {
            appendDigits(UInt64(bitPattern: value), negative: false)
        }
    }

    func append(_ value: UInt64) {
        appendDigits(value, negative: false)
    }

    /// Writes the decimal digits of `value`, after a `-` when `negative`.
    @inline(__always)
    private func appendDigits(_ value: UInt64, negative: Bool) {
        let target = end(reserving: 24)
        let sign = negative ? 1 : 0
        target.pointee = UInt8(ascii: "-")
        if value < 10 {
            target[sign] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
            advance(by: sign &+ 1)
            return
        }
        if value < 100 {
            UnsafeMutableRawPointer(target + sign).storeBytes(
                of: Self.digitPairs.loadUnaligned(fromByteOffset: Int(value) &* 2, as: UInt16.self), as: UInt16.self)
            advance(by: sign &+ 2)
            return
        }
        appendLongDigits(value, at: target + sign)
        advance(by: sign)
    }

    /// Writes a value of three or more digits at `target` (reserved) and counts them.
    private func appendLongDigits(_ value: UInt64, at target: UnsafeMutablePointer<UInt8>) {
        // Digits go right to left into a scratch area, then three words copy them out.
        var scratch: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)  // 40 bytes
        let written = withUnsafeMutableBytes(of: &scratch) { scratch -> Int in
            let base = scratch.baseAddress!
            var position = 24
            var rest = value
            while rest >= 100 {
                let quotient = rest / 100
                let pair = Int(truncatingIfNeeded: rest &- quotient &* 100)
                rest = quotient
                position &-= 2
                base.storeBytes(
                    of: Self.digitPairs.loadUnaligned(fromByteOffset: pair &* 2, as: UInt16.self),
                    toByteOffset: position, as: UInt16.self)
            }
            if rest >= 10 {
                position &-= 2
                base.storeBytes(
                    of: Self.digitPairs.loadUnaligned(fromByteOffset: Int(rest) &* 2, as: UInt16.self),
                    toByteOffset: position, as: UInt16.self)
            } else {
                position &-= 1
                base.storeBytes(
                    of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest), toByteOffset: position, as: UInt8.self)
            }
            // At most 20 digits: three words from `position` stay inside the 40 bytes.
            let out = UnsafeMutableRawPointer(target)
            out.storeBytes(of: base.loadUnaligned(fromByteOffset: position, as: UInt64.self), as: UInt64.self)
            out.storeBytes(
                of: base.loadUnaligned(fromByteOffset: position &+ 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self
            )
            out.storeBytes(
                of: base.loadUnaligned(fromByteOffset: position &+ 16, as: UInt64.self), toByteOffset: 16,
                as: UInt64.self)
            return 24 &- position
        }
        advance(by: written)
    }

    /// Appends a double so that it reads back as exactly the same value. Integral values below
    /// 2^53 are written as integers (`3`, not `3.0`: the same number); others use the standard
    /// library's shortest round-trip form, which is valid JSON (`0.1`, `1e-07`, `1.5e+300`).
    /// JSON has no NaN or infinity: they are written as the strings `"NaN"`, `"Infinity"` and
    /// `"-Infinity"`, which `JSONValueDecoder` reads back into a `Double`.
    func append(_ value: Double) {
        let magnitude = Swift.abs(value)
        // False for NaN; below 2^53 the conversion to Int64 truncates exactly.
        if magnitude < 9_007_199_254_740_992 {
            let whole = Int64(value)
            if Double(whole) == value {
                if whole == 0 && value.sign == .minus {
                    append("-0.0")
                    return
                }
                append(whole)
                return
            }
            if magnitude < 1e9 && magnitude >= 1e-6 && appendShortDecimal(value, magnitude) { return }
            appendDescription(value.description)
            return
        }
        if value.isNaN {
            append("\"NaN\"")
            return
        }
        if value.isInfinite {
            append(value < 0 ? "\"-Infinity\"" : "\"Infinity\"")
            return
        }
        appendDescription(value.description)
    }

    /// Writes `value` as `digits.fraction` with the fewest fraction digits (1 to 6) that read
    /// back exactly, when there is such a form: prices, percentages, most recorded values.
    /// Exact because `r / 10^k` is one correctly rounded division of two exact doubles, which is
    /// what parsing the decimal `r × 10^-k` yields too. Returns false for anything else.
    ///
    /// `magnitude` is in [1e-6, 1e9), so `r` is below 10^15 and `magnitude × 10^k` is within
    /// 0.2 of `r` whenever the test passes: rounding it to the nearest integer picks `r` whatever
    /// the tie rule, so adding and subtracting 1.5 × 2^52 (round half to even, exact below
    /// 2^51) gives the same answer as `rounded()` (half away from zero), without a libm call.
    @inline(__always)
    private func appendShortDecimal(_ value: Double, _ magnitude: Double) -> Bool {
        let round: Double = 6_755_399_441_055_744  // 1.5 × 2^52
        var scale: Double = 10
        var digits = 1
        while true {
            let scaled = (magnitude * scale + round) - round
            if scaled / scale == magnitude {
                writeDecimal(UInt64(scaled), fractionDigits: digits, negative: value < 0)
                return true
            }
            if digits == 6 { return false }
            digits &+= 1
            scale *= 10  // exact: 10^k for k ≤ 6
        }
    }

    /// Writes `scaled / 10^fractionDigits` as `[-]whole.fraction`, with exactly
    /// `fractionDigits` (1 to 6) fraction digits, leading zeros included; `scaled` is below
    /// 10^15. One and two fraction digits (prices, percentages) take the short way.
    private func writeDecimal(_ scaled: UInt64, fractionDigits: Int, negative: Bool) {
        let divisor: UInt64
        switch fractionDigits {
        case 1: divisor = 10
        case 2: divisor = 100
        case 3: divisor = 1_000
        case 4: divisor = 10_000
        case 5: divisor = 100_000
        default: divisor = 1_000_000
        }
        let whole = scaled / divisor
        let fraction = scaled &- whole &* divisor
        appendDigits(whole, negative: negative)
        let target = UnsafeMutableRawPointer(end(reserving: 8))
        target.storeBytes(of: UInt8(ascii: "."), as: UInt8.self)
        switch fractionDigits {
        case 1:
            target.storeBytes(
                of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction), toByteOffset: 1, as: UInt8.self)
        case 2:
            target.storeBytes(
                of: Self.digitPairs.loadUnaligned(
                    fromByteOffset: Int(truncatingIfNeeded: fraction) &* 2, as: UInt16.self), toByteOffset: 1,
                as: UInt16.self)
        default:
            var rest = fraction
            var position = fractionDigits &+ 1
            while position > 1 {
                let quotient = rest / 10
                position &-= 1
                target.storeBytes(
                    of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest &- quotient &* 10), toByteOffset: position,
                    as: UInt8.self)
                rest = quotient
            }
        }
        advance(by: fractionDigits &+ 1)
    }

    func append(_ value: Float) {
        if value.isNaN {
            append("\"NaN\"")
            return
        }
        if value.isInfinite {
            append(value < 0 ? "\"-Infinity\"" : "\"Infinity\"")
            return
        }
        if Swift.abs(value) < 16_777_216 && Float(Int64(value)) == value {
            if value == 0 && value.sign == .minus {
                append("-0.0")
                return
            }
            append(Int64(value))
            return
        }
        appendDescription(value.description)
    }

    @inline(never)
    private func appendDescription(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends seconds with microsecond precision and no trailing zeros (`0.0021`, `12.5`, `0.0`).
    func appendSeconds(nanoseconds: UInt64) {
        let micros = (nanoseconds + 500) / 1000
        append(micros / 1_000_000)
        var fraction = micros % 1_000_000
        if fraction == 0 {
            append(".0")
            return
        }
        // Six digits, two at a time, then the trailing zeros cut.
        let target = UnsafeMutableRawPointer(end(reserving: 8))
        target.storeBytes(of: UInt8(ascii: "."), as: UInt8.self)
        let high = fraction / 10_000
        let rest = fraction % 10_000
        target.storeBytes(
            of: Self.digitPairs.loadUnaligned(fromByteOffset: Int(high) &* 2, as: UInt16.self), toByteOffset: 1,
            as: UInt16.self)
        target.storeBytes(
            of: Self.digitPairs.loadUnaligned(fromByteOffset: Int(rest / 100) &* 2, as: UInt16.self), toByteOffset: 3,
            as: UInt16.self)
        target.storeBytes(
            of: Self.digitPairs.loadUnaligned(fromByteOffset: Int(rest % 100) &* 2, as: UInt16.self), toByteOffset: 5,
            as: UInt16.self)
        var digits = 6
        while fraction % 10 == 0 {
            fraction /= 10
            digits &-= 1
        }
        advance(by: digits &+ 1)
    }
}
