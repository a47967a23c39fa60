@_spi(RewindInternals) internal import RewindSupport

/// Turns the checked body of a JSON string into text: a Swift `String`, or WTF-8 bytes.
///
/// The body was already checked by `JSONScanner.scanString()` (valid UTF-8, valid escapes), so
/// this only decodes. A `\uXXXX` escape for a UTF-16 surrogate that is not half of a valid
/// high-low pair (such as `"\ud800"` alone) is allowed by the RFC 8259 grammar but is no Unicode
/// scalar value: the parser's strings keep it as a stand-in (`parsedString`, see
/// `LoneSurrogates`), the decoder's become U+FFFD (`decodedString`), and WTF-8 keeps it as the
/// surrogate's own three bytes (`appendWTF8`).
enum JSONStringDecoding {
    /// `parsedString` of a sink's view of the input.
    @inline(__always)
    static func parsedString(
        _ bytes: ByteView, from start: Int, to end: Int, hasEscapes: Bool, scratch: inout [UInt8]
    ) -> String {
        bytes.withUnsafeBytes {
            parsedString(
                $0.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self), from: start, to: end,
                hasEscapes: hasEscapes, scratch: &scratch)
        }
    }

    /// `appendWTF8` of a sink's view of the input.
    @inline(__always)
    static func appendWTF8(_ bytes: ByteView, from start: Int, to end: Int, to scratch: inout [UInt8]) {
        bytes.withUnsafeBytes {
            appendWTF8(
                $0.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self), from: start, to: end, to: &scratch
            )
        }
    }

    /// The `String` for bytes `start..<end` of `base` as `JSONValue` holds it: a lone surrogate
    /// as its stand-in. `scratch` is reusable working memory.
    @inline(__always)
    static func parsedString(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, hasEscapes: Bool, scratch: inout [UInt8]
    ) -> String {
        let body = UnsafeBufferPointer(start: base + start, count: end &- start)
        if !hasEscapes && !LoneSurrogates.mayHoldStandIns(body) {
            return String(decoding: body, as: UTF8.self)
        }
        scratch.removeAll(keepingCapacity: true)
        appendWTF8(base, from: start, to: end, to: &scratch)
        return scratch.withUnsafeBufferPointer { LoneSurrogates.string(wtf8: $0) }
    }

    /// The `String` for bytes `start..<end` of `base` as a `Decodable` type gets it: a lone
    /// surrogate as U+FFFD REPLACEMENT CHARACTER. `scratch` is reusable working memory.
    @inline(__always)
    static func decodedString(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, hasEscapes: Bool, scratch: inout [UInt8]
    ) -> String {
        if !hasEscapes {
            return String(decoding: UnsafeBufferPointer(start: base + start, count: end &- start), as: UTF8.self)
        }
        scratch.removeAll(keepingCapacity: true)
        appendWTF8(base, from: start, to: end, to: &scratch)
        LoneSurrogates.repair(wtf8: &scratch)
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Appends the WTF-8 of the body `start..<end` of `base`: its escapes decoded, a valid pair of
    /// surrogate escapes as the one code point it spells, a lone surrogate as its three bytes.
    static func appendWTF8(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, to scratch: inout [UInt8]) {
        scratch.reserveCapacity(scratch.count &+ end &- start)
        var offset = start
        while offset < end {
            var runEnd = offset
            while runEnd < end && base[runEnd] != UInt8(ascii: "\\") { runEnd &+= 1 }
            if runEnd > offset {
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + offset, count: runEnd &- offset))
            }
            guard runEnd < end else { break }
            let escape = base[runEnd &+ 1]
            offset = runEnd &+ 2
            switch escape {
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                var value = hex4(base + offset)
                offset &+= 4
                if (0xD800...0xDBFF).contains(value) && offset &+ 6 <= end && base[offset] == UInt8(ascii: "\\")
                    && base[offset &+ 1] == UInt8(ascii: "u")
                {
                    let low = hex4(base + (offset &+ 2))
                    if (0xDC00...0xDFFF).contains(low) {
                        value = 0x10000 &+ ((value &- 0xD800) &<< 10) &+ (low &- 0xDC00)
                        offset &+= 6
                    }
                }
                LoneSurrogates.appendUTF8(value, to: &scratch)
            default:
                scratch.append(escape)  // \" \\ \/
            }
        }
    }

    /// The value of four checked hex digits.
    @inline(__always)
    private static func hex4(_ digits: UnsafePointer<UInt8>) -> UInt32 {
        var value: UInt32 = 0
        for index in 0..<4 {
            value = value &<< 4 | (JSONScanner.hexValue(digits[index]) ?? 0)
        }
        return value
    }
}
