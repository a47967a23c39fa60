import Recorder

/// Strings as the printer writes them, on the recorder's byte writer: the one place where text
/// from a state is escaped for output.
///
/// RFC 8259's escapes always: `"` and `\` with a backslash, the control characters below U+0020
/// as `\b` `\f` `\n` `\r` `\t` or `\u00XX`. A lone surrogate (see `LoneSurrogates`) as the
/// `\uXXXX` escape it was read from. With `terminalSafe`, also U+007F DELETE, the C1 controls
/// U+0080–U+009F (U+009B is a one-byte terminal escape on its own) and U+2028/U+2029, so that no
/// control sequence from a recorded state reaches a terminal raw. Everything else, non-ASCII
/// included, is written as UTF-8.
extension JSONOutput {
    /// Appends `string`, quoted and escaped; returns whether it held a lone surrogate.
    @discardableResult
    func appendQuoted(_ string: String, terminalSafe: Bool) -> Bool {
        var string = string
        return string.withUTF8 { utf8 in
            if LoneSurrogates.mayHoldStandIns(utf8) {
                var wtf8: [UInt8] = []
                wtf8.reserveCapacity(utf8.count)
                LoneSurrogates.appendWTF8(ofString: utf8, to: &wtf8)
                return wtf8.withUnsafeBufferPointer { appendQuoted(wtf8: $0, terminalSafe: terminalSafe) }
            }
            if !terminalSafe || !utf8.contains(where: { $0 >= 0x7F }) {
                // Nothing beyond RFC 8259's escapes: the recorder's word-at-a-time path.
                appendString(utf8: UnsafeRawBufferPointer(utf8))
                return false
            }
            return appendQuoted(wtf8: utf8, terminalSafe: terminalSafe)
        }
    }

    /// Appends the WTF-8 text `bytes` (UTF-8, or surrogates as `ED A0…BF 80…BF`), quoted and
    /// escaped; returns whether it held a surrogate.
    @discardableResult
    func appendQuoted(wtf8 bytes: UnsafeBufferPointer<UInt8>, terminalSafe: Bool) -> Bool {
        append(UInt8(ascii: "\""))
        var sawSurrogate = false
        var runStart = 0
        var offset = 0
        let count = bytes.count
        while offset < count {
            let byte = bytes[offset]
            if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                offset &+= 1
                continue
            }
            var codePoint: UInt32? = nil
            var length = 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0..<0x20:
                codePoint = UInt32(byte)
            case 0x7F where terminalSafe:
                codePoint = 0x7F
            case 0xC2 where terminalSafe && offset &+ 1 < count && (0x80...0x9F).contains(bytes[offset &+ 1]):
                codePoint = UInt32(bytes[offset &+ 1])
                length = 2
            case 0xE2
            where terminalSafe && offset &+ 2 < count && bytes[offset &+ 1] == 0x80
                && (bytes[offset &+ 2] == 0xA8 || bytes[offset &+ 2] == 0xA9):
                codePoint = 0x2000 | UInt32(bytes[offset &+ 2] &- 0x80)
                length = 3
            case 0xED where offset &+ 2 < count && bytes[offset &+ 1] >= 0xA0:
                codePoint = 0xD000 | UInt32(bytes[offset &+ 1] & 0x3F) &<< 6 | UInt32(bytes[offset &+ 2] & 0x3F)
                length = 3
                sawSurrogate = true
            default:
                break
            }
            guard let codePoint else {
                offset &+= 1
                continue
            }
            if offset > runStart {
                append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[runStart..<offset]))
            }
            appendEscape(codePoint)
            offset &+= length
            runStart = offset
        }
        if count > runStart {
            append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[runStart..<count]))
        }
        append(UInt8(ascii: "\""))
        return sawSurrogate
    }

    /// `\"`, `\\`, `\n` and the other short escapes, else `\uXXXX` in lowercase hex.
    private func appendEscape(_ codePoint: UInt32) {
        switch codePoint {
        case 0x22: append("\\\"")
        case 0x5C: append("\\\\")
        case 0x08: append("\\b")
        case 0x0C: append("\\f")
        case 0x0A: append("\\n")
        case 0x0D: append("\\r")
        case 0x09: append("\\t")
        default:
            let digits: StaticString = "0123456789abcdef"
            append("\\u")
            for shift in stride(from: 12, through: 0, by: -4) {
                append(digits.utf8Start[Int(codePoint &>> UInt32(shift) & 0xF)])
            }
        }
    }
}
