// A growable byte buffer with the JSON writers the recorder needs.
//
// Performance notes (issue 6): the buffer is reused across events, so steady-state recording
// allocates nothing here. Its fields live behind one `UnsafeMutablePointer`, not in class stored
// properties, so the hot path pays no dynamic exclusivity checks. Strings are escaped by copying
// runs of safe bytes with `memcpy`; integers are written with a two-digits-at-a-time table;
// doubles use the standard library's shortest round-trip text.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of one line being built. Not thread-safe: owned by one encoder, used under the
/// recorder's lock.
struct JSONOutput: @unchecked Sendable {  // owned by one StreamingEncoder, see there
    private struct Storage {
        var base: UnsafeMutablePointer<UInt8>
        var count: Int
        var capacity: Int
    }

    private let storage: UnsafeMutablePointer<Storage>

    init(capacity: Int = 4096) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: Storage(base: .allocate(capacity: capacity), count: 0, capacity: capacity))
    }

    /// Frees the memory. The owner calls this exactly once, from its `deinit`.
    func deallocate() {
        storage.pointee.base.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    var count: Int {
        get { storage.pointee.count }
        nonmutating set { storage.pointee.count = newValue }
    }

    /// The bytes written so far. Valid until the next write.
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: storage.pointee.base, count: storage.pointee.count)
    }

    func bytes(from start: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: storage.pointee.base + start, count: storage.pointee.count - start)
    }

    @inline(__always)
    func reserve(_ extra: Int) {
        let needed = storage.pointee.count + extra
        if needed > storage.pointee.capacity { grow(to: needed) }
    }

    private func grow(to needed: Int) {
        var capacity = storage.pointee.capacity * 2
        while capacity < needed { capacity *= 2 }
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        base.update(from: storage.pointee.base, count: storage.pointee.count)
        storage.pointee.base.deallocate()
        storage.pointee.base = base
        storage.pointee.capacity = capacity
    }

    /// Gives back memory after an unusually large event, so one 100 MB state does not pin
    /// 100 MB for the life of the app.
    func shrinkIfLarge(keeping capacity: Int = 1 << 16) {
        guard storage.pointee.capacity > capacity * 16, storage.pointee.count <= capacity else { return }
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        base.update(from: storage.pointee.base, count: storage.pointee.count)
        storage.pointee.base.deallocate()
        storage.pointee.base = base
        storage.pointee.capacity = capacity
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        storage.pointee.base[storage.pointee.count] = byte
        storage.pointee.count += 1
    }

    @inline(__always)
    func append(_ raw: UnsafeRawBufferPointer) {
        guard let source = raw.baseAddress, raw.count > 0 else { return }
        reserve(raw.count)
        memcpy(storage.pointee.base + storage.pointee.count, source, raw.count)
        storage.pointee.count += raw.count
    }

    /// Appends ASCII text known at compile time, such as a key with its quotes and colon.
    @inline(__always)
    func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    // MARK: Strings

    /// Appends `text` as a JSON string, escaped per RFC 8259: `"`, `\` and the control characters
    /// U+0000–U+001F are escaped; everything else, non-ASCII included, is written as UTF-8.
    @inline(__always)
    func appendString(_ text: String) {
        // Non-mutating access to the UTF-8 bytes: no copy, no uniqueness check (native and
        // small strings are always contiguous; a bridged one takes the slow path).
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { appendStringBody(UnsafeRawBufferPointer($0)) }
        if done == nil {
            var copy = text
            copy.withUTF8 { appendStringBody(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Appends already-valid UTF-8 bytes as a JSON string.
    func appendString(utf8 raw: UnsafeRawBufferPointer) {
        appendStringBody(raw)
    }

    private func appendStringBody(_ raw: UnsafeRawBufferPointer) {
        guard let source = raw.baseAddress else {
            append("\"\"")
            return
        }
        let count = raw.count
        // Fast path: check eight bytes at a time (the tail padded with a harmless byte); most
        // strings, keys above all, have nothing to escape and are copied in one go.
        var index = 0
        var clean = true
        while index &+ 8 <= count {
            if Self.mayNeedEscape(source.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { clean = false; break }
            index &+= 8
        }
        while clean && index < count {
            let byte = source.load(fromByteOffset: index, as: UInt8.self)
            clean = byte >= 0x20 && byte != 0x22 && byte != 0x5C
            index &+= 1
        }
        if clean {
            appendQuoted(source, count)
            return
        }
        reserve(count &+ 2)
        append(UInt8(ascii: "\""))
        var runStart = 0
        index = 0
        while index < count {
            let byte = source.load(fromByteOffset: index, as: UInt8.self)
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C {
                index &+= 1
                continue
            }
            if index > runStart { append(UnsafeRawBufferPointer(start: source + runStart, count: index - runStart)) }
            appendEscape(byte)
            index &+= 1
            runStart = index
        }
        if count > runStart { append(UnsafeRawBufferPointer(start: source + runStart, count: count - runStart)) }
        append(UInt8(ascii: "\""))
    }

    /// Appends `"` + `count` bytes + `"`, copying short strings a word at a time instead of
    /// calling `memcpy`.
    @inline(__always)
    private func appendQuoted(_ source: UnsafeRawPointer, _ count: Int) {
        reserve(count &+ 10)  // 8 bytes of slack: the last word may be written past the end
        let base = storage.pointee.base + storage.pointee.count
        base[0] = UInt8(ascii: "\"")
        if count <= 32 {
            var offset = 0
            while offset < count {
                var word: UInt64 = 0
                let take = Swift.min(8, count &- offset)
                if take == 8 {
                    word = source.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                } else {
                    for byte in 0..<take { word |= UInt64(source.load(fromByteOffset: offset &+ byte, as: UInt8.self)) << (byte &* 8) }
                }
                UnsafeMutableRawPointer(base + 1 + offset).storeBytes(of: word, as: UInt64.self)
                offset &+= 8
            }
        } else {
            memcpy(base + 1, source, count)
        }
        base[count &+ 1] = UInt8(ascii: "\"")
        storage.pointee.count &+= count &+ 2
    }

    /// Whether any of the eight bytes of `word` is below 0x20, a `"` or a `\`. Exact about
    /// whether there is one (the usual SWAR zero-byte tests), not about where.
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & highs
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let quoteZero = (quote &- ones) & ~quote & highs
        let backslashZero = (backslash &- ones) & ~backslash & highs
        return (control | quoteZero | backslashZero) != 0
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
            append("\\u00")
            append(Self.hexDigits[Int(byte >> 4)])
            append(Self.hexDigits[Int(byte & 0xF)])
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    // MARK: Numbers

    /// Two ASCII digits for each value 0...99, so integers are written two digits at a time.
    private static let digitPairs: [UInt8] = {
        var table = [UInt8]()
        table.reserveCapacity(200)
        for value in 0..<100 {
            table.append(UInt8(ascii: "0") + UInt8(value / 10))
            table.append(UInt8(ascii: "0") + UInt8(value % 10))
        }
        return table
    }()

    func append(_ value: Int64) {
        if value < 0 {
            append(UInt8(ascii: "-"))
            // `0 &- UInt64(bitPattern:)` is exact for Int64.min too.
            append(0 &- UInt64(bitPattern: value))
        } else {
            append(UInt64(value))
        }
    }

    func append(_ value: UInt64) {
        reserve(20)
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch on the stack
        withUnsafeMutableBytes(of: &digits) { scratch in
            var position = 24
            var rest = value
            Self.digitPairs.withUnsafeBufferPointer { pairs in
                while rest >= 100 {
                    let pair = Int(rest % 100) &* 2
                    rest /= 100
                    position -= 2
                    scratch[position] = pairs[pair]
                    scratch[position + 1] = pairs[pair + 1]
                }
                if rest >= 10 {
                    let pair = Int(rest) &* 2
                    position -= 2
                    scratch[position] = pairs[pair]
                    scratch[position + 1] = pairs[pair + 1]
                } else {
                    position -= 1
                    scratch[position] = UInt8(ascii: "0") &+ UInt8(rest)
                }
            }
            append(UnsafeRawBufferPointer(rebasing: scratch[position..<24]))
        }
    }

    /// Appends a double so that it reads back as exactly the same value. Integral values below
    /// 2^53 are written as integers (`3`, not `3.0`: the same number); others use the standard
    /// library's shortest round-trip form, which is valid JSON (`0.1`, `1e-07`, `1.5e+300`).
    /// JSON has no NaN or infinity: they are written as the strings `"NaN"`, `"Infinity"` and
    /// `"-Infinity"`, which `JSONValueDecoder` reads back into a `Double`.
    func append(_ value: Double) {
        if value.isNaN { append("\"NaN\""); return }
        if value.isInfinite { append(value < 0 ? "\"-Infinity\"" : "\"Infinity\""); return }
        if value == value.rounded(.towardZero) && Swift.abs(value) < 9_007_199_254_740_992 {
            if value == 0 && value.sign == .minus { append("-0.0"); return }
            append(Int64(value))
            return
        }
        if appendShortDecimal(value) { return }
        appendDescription(value.description)
    }

    private static let powersOfTen: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

    /// Writes `value` as `digits.fraction` with the fewest fraction digits (1 to 6) that read
    /// back exactly, when there is such a form: prices, percentages, most recorded values.
    /// Exact because `r / 10^k` is one correctly rounded division of two exact doubles, which is
    /// what parsing the decimal `r × 10^-k` yields too. Returns false for anything else.
    private func appendShortDecimal(_ value: Double) -> Bool {
        let magnitude = Swift.abs(value)
        guard magnitude < 1e9, magnitude >= 1e-6 else { return false }
        for digits in 1...6 {
            let scale = Self.powersOfTen[digits]
            let scaled = (magnitude * scale).rounded()
            guard scaled / scale == magnitude else { continue }
            let whole = UInt64(scaled)
            let divisor = UInt64(scale)
            if value < 0 { append(UInt8(ascii: "-")) }
            append(whole / divisor)
            append(UInt8(ascii: "."))
            var fraction = whole % divisor
            var position = divisor / 10
            while position > 0 {
                append(UInt8(ascii: "0") &+ UInt8(fraction / position))
                fraction %= position
                position /= 10
            }
            return true
        }
        return false
    }

    func append(_ value: Float) {
        if value.isNaN { append("\"NaN\""); return }
        if value.isInfinite { append(value < 0 ? "\"-Infinity\"" : "\"Infinity\""); return }
        if value == value.rounded(.towardZero) && Swift.abs(value) < 16_777_216 {
            if value == 0 && value.sign == .minus { append("-0.0"); return }
            append(Int64(value))
            return
        }
        appendDescription(value.description)
    }

    private func appendDescription(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends seconds with microsecond precision and no trailing zeros (`0.0021`, `12.5`, `0.0`).
    func appendSeconds(nanoseconds: UInt64) {
        let micros = (nanoseconds + 500) / 1000
        append(micros / 1_000_000)
        append(UInt8(ascii: "."))
        var fraction = micros % 1_000_000
        if fraction == 0 { append(UInt8(ascii: "0")); return }
        var digits = 6
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        var scale: UInt64 = 1
        for _ in 1..<digits { scale *= 10 }
        while scale > 0 {
            append(UInt8(ascii: "0") &+ UInt8(fraction / scale % 10))
            scale /= 10
        }
    }
}
