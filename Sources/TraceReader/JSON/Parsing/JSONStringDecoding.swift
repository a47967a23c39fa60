/// Turns the checked body of a JSON string into a Swift `String`.
///
/// The body was already checked by `JSONScanner.scanString()` (valid UTF-8, valid escapes), so
/// this only decodes. A `\uXXXX` escape for a UTF-16 surrogate that is not part of a valid
/// high-low pair (such as `"\ud800"` alone) is allowed by the RFC 8259 grammar but is no Unicode
/// scalar value, and Swift strings cannot hold it: it becomes U+FFFD REPLACEMENT CHARACTER.
enum JSONStringDecoding {
    /// The string for bytes `start..<end` of `base`; `scratch` is reusable working memory.
    @inline(__always)
    static func makeString(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, hasEscapes: Bool, scratch: inout [UInt8]
    ) -> String {
        if !hasEscapes {
            return String(decoding: UnsafeBufferPointer(start: base + start, count: end &- start), as: UTF8.self)
        }
        return unescape(base, from: start, to: end, scratch: &scratch)
    }

    static func unescape(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, scratch: inout [UInt8]) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.reserveCapacity(end - start)
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
                let unit = hex4(base + offset)
                offset &+= 4
                var scalar: UInt32 = 0xFFFD
                switch unit {
                case 0xD800...0xDBFF:
                    if offset &+ 6 <= end && base[offset] == UInt8(ascii: "\\")
                        && base[offset &+ 1] == UInt8(ascii: "u")
                    {
                        let low = hex4(base + (offset &+ 2))
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 &+ ((unit &- 0xD800) &<< 10) &+ (low &- 0xDC00)
                            offset &+= 6
                        }
                    }
                case 0xDC00...0xDFFF:
                    break  // a low surrogate without a high one: U+FFFD
                default:
                    scalar = unit
                }
                appendUTF8(scalar, to: &scratch)
            default:
                scratch.append(escape)  // \" \\ \/
            }
        }
        return String(decoding: scratch, as: UTF8.self)
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

    @inline(__always)
    static func appendUTF8(_ scalar: UInt32, to bytes: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            bytes.append(UInt8(scalar))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | scalar &>> 6))
            bytes.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | scalar &>> 12))
            bytes.append(UInt8(0x80 | scalar &>> 6 & 0x3F))
            bytes.append(UInt8(0x80 | scalar & 0x3F))
        default:
            bytes.append(UInt8(0xF0 | scalar &>> 18))
            bytes.append(UInt8(0x80 | scalar &>> 12 & 0x3F))
            bytes.append(UInt8(0x80 | scalar &>> 6 & 0x3F))
            bytes.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
