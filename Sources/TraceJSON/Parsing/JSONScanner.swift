@_spi(RewindInternals) public import RewindSupport

/// The low-level lexer shared by `JSONParser` and `JSONSyntax`: a cursor over raw UTF-8 bytes.
///
/// Grammar rules live in one place each: numbers in `JSONScanner+Number.swift`, strings, escapes
/// and UTF-8 in `JSONScanner+String.swift`, the value structure in `JSONScanner+Value.swift`.
/// This file holds the cursor, whitespace, literals and the construction of error messages.
@_spi(RewindInternals) public struct JSONScanner {
    /// The first byte of the input; for an empty input, `noInput`, which is never read.
    @usableFromInline let base: UnsafePointer<UInt8>
    /// The number of bytes of input.
    @usableFromInline let count: Int
    /// The offset of the next byte to read.
    @usableFromInline package var position: Int

    package init(_ buffer: UnsafeRawBufferPointer, position: Int = 0) {
        // An empty buffer may have no address, and nothing is read from an empty input.
        base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? JSONScanner.noInput
        count = buffer.count
        self.position = position
    }

    /// A cursor at `position` in `bytes`.
    package init(_ bytes: ByteView, position: Int = 0) {
        self.init(UnsafeRawBufferPointer(start: bytes.unsafeBaseAddress, count: bytes.count), position: position)
    }

    /// The whole input, as the sinks see it.
    @inlinable
    var bytes: ByteView {
        @inline(__always) get { ByteView(start: UnsafeRawPointer(base), count: count) }
    }

    /// The address given for an empty input: a real one (the terminating NUL of an empty string
    /// literal, in the program's constant data), so no pointer is made up, and never read.
    static var noInput: UnsafePointer<UInt8> {
        ("" as StaticString).utf8Start
    }

    /// Skips the four whitespace bytes of RFC 8259: space, `\t`, `\n`, `\r`.
    @inlinable @inline(__always)
    mutating func skipWhitespace() {
        position = JSONWhitespace.skip(base, from: position, to: count)
    }

    // MARK: Literals

    /// Scans `true`, `false` or `null`, whose first byte is at `position`; `literal` is its
    /// text as a little-endian integer (`length` 4 or 5 bytes, the last 4 compared at once).
    @inlinable @inline(__always)
    mutating func scanLiteral(_ word: StaticString) throws(JSONParseError) {
        let length = word.utf8CodeUnitCount
        if position &+ length <= count {
            let tail = UInt32(
                littleEndian: UnsafeRawPointer(base + position + length - 4).loadUnaligned(as: UInt32.self))
            let expected = UnsafeRawPointer(word.utf8Start + length - 4).loadUnaligned(as: UInt32.self)
            if tail == UInt32(littleEndian: expected) && (length == 4 || base[position] == word.utf8Start[0]) {
                let end = position &+ length
                if end >= count || !JSONScanner.isWordByte(base[end]) {
                    position = end
                    return
                }
            }
        }
        throw literalError(word)
    }

    @usableFromInline func literalError(_ word: StaticString) -> JSONParseError {
        let length = word.utf8CodeUnitCount
        var offset = position
        while offset < count && offset - position < length && base[offset] == word.utf8Start[offset - position] {
            offset += 1
        }
        if offset == count && offset - position < length {
            return endOfInput(expecting: "'\(word)'")
        }
        return unexpected(expecting: "a value", at: position, valueStart: true)
    }

    // MARK: Errors

    /// An error at `offset`, with its line and column computed from the start of the input.
    @usableFromInline func error(_ message: String, at offset: Int) -> JSONParseError {
        var line = 1
        var lineStart = 0
        var index = 0
        let end = min(offset, count)
        while index < end {
            if base[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        return JSONParseError(line: line, column: offset - lineStart + 1, offset: offset, message: message)
    }

    /// The input ended where `what` was expected. (Errors are built out of line, here and
    /// below, so that the walks that throw them stay small.)
    @usableFromInline @inline(never)
    func endOfInput(expecting what: String) -> JSONParseError {
        error("unexpected end of input, expected \(what)", at: count)
    }

    /// The byte at `offset` is not what the grammar allows there. Invalid UTF-8 is reported as such.
    /// `valueStart`: a value may start at `offset`, so number-shaped mistakes get a hint.
    @usableFromInline @inline(never)
    func unexpected(expecting what: String, at offset: Int, prefix: String = "", valueStart: Bool = false)
        -> JSONParseError
    {
        guard offset < count else { return endOfInput(expecting: what) }
        if base[offset] >= 0x80 {
            do throws(JSONParseError) {
                _ = try scanUTF8Sequence(at: offset)
            } catch {
                return error
            }
        }
        let found = describe(at: offset)
        return error("\(prefix)expected \(what), found \(found)\(hint(at: offset, valueStart: valueStart))", at: offset)
    }

    /// Advice for the common mistakes of hand-written or JavaScript-flavoured JSON.
    private func hint(at offset: Int, valueStart: Bool) -> String {
        switch base[offset] {
        case UInt8(ascii: "'"): return " (JSON strings use double quotes)"
        case UInt8(ascii: "/"), UInt8(ascii: "#"): return " (JSON has no comments)"
        case UInt8(ascii: "+") where valueStart: return " (a number cannot start with '+')"
        case UInt8(ascii: ".") where valueStart: return " (a number needs a digit before the decimal point)"
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            let word = self.word(at: offset)
            return word == "NaN" || word == "Infinity" ? " (NaN and Infinity are not JSON numbers)" : ""
        default: return ""
        }
    }

    /// A short human description of the input at `offset`: `'x'`, `'NaN'`, `end of input`,
    /// `control character U+0001`, `'é' (U+00E9)` or `byte 0xFF`.
    package func describe(at offset: Int) -> String {
        guard offset < count else { return "end of input" }
        let byte = base[offset]
        if JSONScanner.isWordByte(byte) {
            return "'\(word(at: offset))'"
        }
        switch byte {
        case 0x20..<0x7F:
            return "'\(Character(Unicode.Scalar(byte)))'"
        case 0..<0x20, 0x7F:
            return "control character \(JSONScanner.codePointName(UInt32(byte)))"
        default:
            if let length = try? scanUTF8Sequence(at: offset),
                let scalar = String(
                    decoding: UnsafeBufferPointer(start: base + offset, count: length - offset), as: UTF8.self
                )
                .unicodeScalars.first
            {
                return "'\(scalar)' (\(JSONScanner.codePointName(scalar.value)))"
            }
            return "byte \(JSONScanner.hexByte(byte))"
        }
    }

    /// The run of letters, digits and `_` at `offset`, at most 24 bytes.
    private func word(at offset: Int) -> String {
        var end = offset
        while end < count && end - offset < 24 && JSONScanner.isWordByte(base[end]) { end += 1 }
        return String(decoding: UnsafeBufferPointer(start: base + offset, count: end - offset), as: UTF8.self)
    }

    @inlinable @inline(__always)
    public static func isWordByte(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "_")
    }

    /// `0xFF` for 255.
    static func hexByte(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 16 ? "0x0" + digits : "0x" + digits
    }

    /// `U+0001` for 1.
    @usableFromInline static func codePointName(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
