/// The string rules of RFC 8259 and the UTF-8 rules of RFC 3629, in one place.
///
/// A string body may hold any valid UTF-8 except `"`, `\` and the control characters
/// U+0000–U+001F, which must be escaped. The valid escapes are `\"` `\\` `\/` `\b` `\f` `\n`
/// `\r` `\t` and `\uXXXX` (four hex digits, either case). Invalid UTF-8 is rejected: bytes
/// 0x80–0xBF without a lead byte, overlong encodings (0xC0, 0xC1, 0xE0 0x80–0x9F, 0xF0
/// 0x80–0x8F), UTF-16 surrogates encoded in UTF-8 (0xED 0xA0–0xBF), code points above U+10FFFF
/// (0xF4 0x90–0xBF, 0xF5–0xFF) and truncated sequences.
extension JSONScanner {
    /// Scans a string whose opening quote is at `position`, and leaves `position` just past the
    /// closing quote. Returns whether the body holds at least one escape sequence.
    @inlinable @inline(__always)
    package mutating func scanString() throws(JSONParseError) -> Bool {
        var offset = position &+ 1
        var hasEscapes = false
        while true {
            offset = JSONScanner.skipPlainASCII(base, from: offset, count: count)
            guard offset < count else {
                throw error("unexpected end of input inside a string (a closing '\"' is missing)", at: count)
            }
            let byte = base[offset]
            if byte == UInt8(ascii: "\"") {
                position = offset &+ 1
                return hasEscapes
            } else if byte == UInt8(ascii: "\\") {
                offset = try scanEscape(at: offset)
                hasEscapes = true
            } else if byte < 0x20 {
                throw error(
                    "control character \(JSONScanner.codePointName(UInt32(byte))) must be escaped in a string",
                    at: offset)
            } else if byte < 0x80 {
                offset &+= 1
            } else {
                offset = try scanUTF8Sequence(at: offset)
            }
        }
    }

    /// Checks the escape sequence whose `\` is at `offset`; returns the offset just past it.
    @usableFromInline @inline(__always)
    func scanEscape(at offset: Int) throws(JSONParseError) -> Int {
        guard offset &+ 1 < count else {
            throw error("unexpected end of input inside a string (a closing '\"' is missing)", at: count)
        }
        switch base[offset &+ 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
            UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return offset &+ 2
        case UInt8(ascii: "u"):
            for digit in offset &+ 2..<offset &+ 6 {
                guard digit < count else {
                    throw error("unexpected end of input inside a \\u escape (4 hex digits are needed)", at: count)
                }
                guard JSONScanner.hexValue(base[digit]) != nil else {
                    throw error("invalid \\u escape: expected 4 hex digits, found \(describe(at: digit))", at: digit)
                }
            }
            return offset &+ 6
        default:
            throw error(
                "invalid escape sequence '\\' followed by \(describe(at: offset &+ 1)); "
                    + "the valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX",
                at: offset)
        }
    }

    /// The value of one hex digit, either case.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt32? {
        if byte &- UInt8(ascii: "0") < 10 { return UInt32(byte &- UInt8(ascii: "0")) }
        let lower = byte | 0x20
        if lower &- UInt8(ascii: "a") < 6 { return UInt32(lower &- UInt8(ascii: "a") &+ 10) }
        return nil
    }

    /// Checks the multi-byte UTF-8 sequence whose lead byte (≥ 0x80) is at `offset`;
    /// returns the offset just past it.
    @usableFromInline func scanUTF8Sequence(at offset: Int) throws(JSONParseError) -> Int {
        let lead = base[offset]
        let length: Int
        var lowest: UInt8 = 0x80
        var highest: UInt8 = 0xBF
        switch lead {
        case 0x80...0xBF:
            throw error(
                "invalid UTF-8 byte \(JSONScanner.hexByte(lead)) (a continuation byte without a lead byte)", at: offset)
        case 0xC0, 0xC1:
            throw error(
                "invalid UTF-8 byte \(JSONScanner.hexByte(lead)) (it can only start an overlong encoding)", at: offset)
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lowest = 0xA0
        case 0xED:
            length = 3
            highest = 0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0:
            length = 4
            lowest = 0x90
        case 0xF4:
            length = 4
            highest = 0x8F
        case 0xF1...0xF3: length = 4
        default:
            throw error("invalid UTF-8 byte \(JSONScanner.hexByte(lead))", at: offset)
        }
        for index in 1..<length {
            let at = offset &+ index
            guard at < count else {
                throw error(
                    "invalid UTF-8: the input ends inside the sequence that starts with byte \(JSONScanner.hexByte(lead))",
                    at: offset)
            }
            let byte = base[at]
            let (low, high) = index == 1 ? (lowest, highest) : (0x80, 0xBF)
            guard byte >= low && byte <= high else {
                if byte & 0xC0 != 0x80 {
                    throw error(
                        "invalid UTF-8: truncated sequence, byte \(JSONScanner.hexByte(lead)) must be followed by "
                            + "\(length - 1) continuation byte\(length == 2 ? "" : "s"), found \(JSONScanner.hexByte(byte))",
                        at: offset)
                }
                let why =
                    switch lead {
                    case 0xE0, 0xF0: "an overlong encoding"
                    case 0xED: "a UTF-16 surrogate (U+D800–U+DFFF) encoded in UTF-8"
                    default: "a code point above U+10FFFF"
                    }
                throw error(
                    "invalid UTF-8: bytes \(JSONScanner.hexByte(lead)) \(JSONScanner.hexByte(byte)) start \(why)",
                    at: offset)
            }
        }
        return offset &+ length
    }
}
