/// How a JSON string that is not Unicode text is kept in a Swift `String`, so that it stays
/// itself: distinct from every other string, and written back as it was read.
///
/// JSON's `\uXXXX` escapes can spell a UTF-16 surrogate that is not half of a pair, such as
/// `"\ud800"`: valid JSON (RFC 8259's grammar allows it) but no Unicode text, which a `String`
/// cannot hold. Replacing it with U+FFFD would merge different strings (`"T\ud800"` and
/// `"T\udc00"` would be one store name, and a change from one to the other no change), so the
/// parser keeps each such surrogate as a stand-in:
/// - the surrogate U+D800 + n (n < 2048) is held as the code point U+10F800 + n, one of the last
///   2048 code points of Unicode (private use: never assigned a character);
/// - so that no text read from the input is taken for a stand-in, a code point of the input in
///   U+10F7FF...U+10FFFF is held after an extra U+10F7FF.
///
/// `JSONPrinter`, `ValueText`, `StatePath` and the diff read stand-ins back: they write
/// `\ud800` again, and the diff's lines say the text is not valid Unicode. Only strings with
/// such escapes, or with those last private-use code points (which text practically never
/// holds), differ from their plain text. `JSONValueDecoder` does not keep them: a `String` it
/// decodes holds U+FFFD, as Swift repairs such text.
///
/// Underneath, the text is compared and hashed as WTF-8, the generalization of UTF-8 in which a
/// surrogate is the three bytes `ED A0…BF 80…BF`, which valid UTF-8 never holds.
package enum LoneSurrogates {
    /// Put before an input code point of U+10F7FF...U+10FFFF.
    static let escape: UInt32 = 0x10F7FF
    /// The stand-in of U+D800; U+D800 + n stands as `firstStandIn` + n.
    static let firstStandIn: UInt32 = 0x10F800

    /// Whether the UTF-8 of a `String` may hold stand-ins or escaped code points: only text
    /// with a byte 0xF4 (code points from U+100000 on) can.
    @inline(__always)
    static func mayHoldStandIns(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        utf8.contains(0xF4)
    }

    /// Whether the WTF-8 `bytes` hold a surrogate or a code point that a `String` holds escaped.
    @inline(__always)
    static func needsStandIns(wtf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains { $0 == 0xED || $0 == 0xF4 }
    }

    /// The code point of the 4-byte UTF-8 sequence at `offset`, when it starts with 0xF4 0x8F
    /// and is in U+10F7FF...U+10FFFF; nil otherwise.
    @inline(__always)
    private static func topCodePoint(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32? {
        guard offset &+ 3 < bytes.count, bytes[offset] == 0xF4, bytes[offset &+ 1] == 0x8F else { return nil }
        let value = 0x10F000 | UInt32(bytes[offset &+ 2] & 0x3F) &<< 6 | UInt32(bytes[offset &+ 3] & 0x3F)
        return value >= escape ? value : nil
    }

    /// Appends the WTF-8 of the text a `String`'s UTF-8 holds: stand-ins become surrogates,
    /// escaped code points themselves.
    static func appendWTF8(ofString utf8: UnsafeBufferPointer<UInt8>, to target: inout [UInt8]) {
        var offset = 0
        while offset < utf8.count {
            guard let value = topCodePoint(utf8, at: offset) else {
                target.append(utf8[offset])
                offset &+= 1
                continue
            }
            if value == escape, let escaped = topCodePoint(utf8, at: offset &+ 4) {
                appendUTF8(escaped, to: &target)
                offset &+= 8
            } else if value >= firstStandIn {
                appendUTF8(0xD800 &+ (value &- firstStandIn), to: &target)
                offset &+= 4
            } else {
                appendUTF8(value, to: &target)  // an escape that escapes nothing: kept as it is
                offset &+= 4
            }
        }
    }

    /// The `String` that holds the text of the WTF-8 `bytes`, with stand-ins where needed.
    static func string(wtf8 bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard needsStandIns(wtf8: bytes) else { return String(decoding: bytes, as: UTF8.self) }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count &+ 8)
        var offset = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == 0xED && offset &+ 2 < bytes.count && bytes[offset &+ 1] >= 0xA0 {
                let surrogate =
                    0xD000 | UInt32(bytes[offset &+ 1] & 0x3F) &<< 6 | UInt32(bytes[offset &+ 2] & 0x3F)
                appendUTF8(firstStandIn &+ (surrogate &- 0xD800), to: &utf8)
                offset &+= 3
            } else if let value = topCodePoint(bytes, at: offset) {
                appendUTF8(escape, to: &utf8)
                appendUTF8(value, to: &utf8)
                offset &+= 4
            } else {
                utf8.append(byte)
                offset &+= 1
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Makes the WTF-8 `bytes` valid UTF-8 in place: each surrogate's three bytes become the three
    /// of U+FFFD REPLACEMENT CHARACTER (`EF BF BD`), as Swift repairs such text.
    static func repair(wtf8 bytes: inout [UInt8]) {
        var offset = 0
        while offset &+ 2 < bytes.count {
            if bytes[offset] == 0xED && bytes[offset &+ 1] >= 0xA0 {
                bytes[offset] = 0xEF
                bytes[offset &+ 1] = 0xBF
                bytes[offset &+ 2] = 0xBD
                offset &+= 3
            } else {
                offset &+= 1
            }
        }
    }

    /// The text a `Decodable` type gets for `string`, a string as the parser holds it: each lone
    /// surrogate as U+FFFD, each escaped code point as itself.
    static func repaired(_ string: String) -> String {
        var string = string
        return string.withUTF8 { utf8 in
            guard mayHoldStandIns(utf8) else { return String(decoding: utf8, as: UTF8.self) }
            var wtf8: [UInt8] = []
            appendWTF8(ofString: utf8, to: &wtf8)
            repair(wtf8: &wtf8)
            return String(decoding: wtf8, as: UTF8.self)
        }
    }

    /// Whether `string` holds a stand-in: whether the text it stands for is not valid Unicode.
    package static func isNotUnicode(_ string: String) -> Bool {
        var string = string
        return string.withUTF8 { utf8 in
            guard mayHoldStandIns(utf8) else { return false }
            var offset = 0
            while offset < utf8.count {
                if let value = topCodePoint(utf8, at: offset) {
                    if value >= firstStandIn { return true }
                    offset &+= value == escape && topCodePoint(utf8, at: offset &+ 4) != nil ? 8 : 4
                } else {
                    offset &+= 1
                }
            }
            return false
        }
    }

    /// Appends the UTF-8 (or, for a surrogate, WTF-8) of the code point `value`.
    @inline(__always)
    static func appendUTF8(_ value: UInt32, to bytes: inout [UInt8]) {
        switch value {
        case 0..<0x80:
            bytes.append(UInt8(value))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | value &>> 6))
            bytes.append(UInt8(0x80 | value & 0x3F))
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | value &>> 12))
            bytes.append(UInt8(0x80 | value &>> 6 & 0x3F))
            bytes.append(UInt8(0x80 | value & 0x3F))
        default:
            bytes.append(UInt8(0xF0 | value &>> 18))
            bytes.append(UInt8(0x80 | value &>> 12 & 0x3F))
            bytes.append(UInt8(0x80 | value &>> 6 & 0x3F))
            bytes.append(UInt8(0x80 | value & 0x3F))
        }
    }
}
