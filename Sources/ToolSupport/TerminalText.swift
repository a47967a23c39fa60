@_spi(RewindInternals) import RewindSupport

/// Text from a trace, a file name or a user made safe to print on a terminal: the one place
/// that decides which characters a terminal (or a reader) must never get raw.
///
/// Escaped: the C0 controls and DEL (they move the cursor, clear the screen, set the window's
/// title), the C1 controls (U+0080–U+009F; U+009B is a one-byte CSI), the Unicode line and
/// paragraph separators (U+2028, U+2029), the bidirectional overrides and isolates (U+202A–U+202E,
/// U+2066–U+2069: they reorder what follows, so `evil‮lmth.js` reads as `evilsj.html`) and the
/// zero-width characters (U+200B–U+200F, U+2060, U+FEFF: they hide inside a name that looks like
/// another).
package enum TerminalText {
    /// `text` with every character `needsEscape` flags made visible as a `\u{1b}`-style escape;
    /// a newline and a tab become `\n` and `\t`; a byte of a file name that is not UTF-8
    /// (`PathName`) becomes `\xFF`. Other text, non-ASCII included, is unchanged.
    package static func safe(_ text: String) -> String {
        // Printable ASCII (most names, actions and sources) has nothing to escape.
        if DisplayWidth.isPrintableASCII(text) { return text }
        guard text.unicodeScalars.contains(where: { needsEscape($0) || PathName.byte(of: $0) != nil }) else {
            return text
        }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            if let byte = PathName.byte(of: scalar) {
                result += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            } else if !needsEscape(scalar) {
                result.unicodeScalars.append(scalar)
            } else if scalar == "\n" {
                result += "\\n"
            } else if scalar == "\t" {
                result += "\\t"
            } else {
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
        return result
    }

    /// Whether `scalar` is one a terminal may act on, or one that changes how the text around
    /// it reads (see the type's documentation).
    @inlinable
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        switch value {
        case 0..<0x20, 0x7F...0x9F, 0x200B...0x200F, 0x2028...0x202E, 0x2060, 0x2066...0x2069, 0xFEFF: return true
        default: return false
        }
    }

    /// The last line of defence of an output stream: `bytes` (UTF-8) with every character
    /// `needsEscape` flags, except a newline and a tab, written as a JSON escape (`\u001b`), so
    /// that the result stays valid JSON when `bytes` are JSON and reads plainly when they are
    /// text. With `allowingStyles`, the colour sequences the tools write themselves
    /// (`ESC [ digits;… m`, SGR only) are kept. Nil when nothing needs to change (most output:
    /// one pass over the bytes, no copy).
    package static func neutralized(_ bytes: UnsafeRawBufferPointer, allowingStyles: Bool) -> [UInt8]? {
        guard let first = firstSuspect(bytes, allowingStyles: allowingStyles) else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 16)
        result.append(contentsOf: bytes[..<first])
        var index = first
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B && allowingStyles, let length = styleLength(bytes, at: index) {
                result.append(contentsOf: bytes[index..<(index + length)])
                index += length
                continue
            }
            let (scalar, length) = decode(bytes, at: index)
            if let scalar, needsEscape(scalar), scalar != "\n", scalar != "\t" {
                appendEscape(scalar.value, to: &result)
            } else {
                result.append(contentsOf: bytes[index..<(index + length)])
            }
            index += length
        }
        return result
    }

    /// The first byte that may start a character to escape: a control other than `\n` and `\t`
    /// (ESC too: a style is checked later), DEL, or the lead byte of a flagged character.
    private static func firstSuspect(_ bytes: UnsafeRawBufferPointer, allowingStyles: Bool) -> Int? {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x0A, 0x09: break
            case 0..<0x20, 0x7F, 0xC2, 0xE2, 0xEF:
                if byte == 0x1B && allowingStyles, let length = styleLength(bytes, at: index) {
                    index += length
                    continue
                }
                if byte >= 0x80 {
                    let (scalar, _) = decode(bytes, at: index)
                    guard let scalar, needsEscape(scalar) else { break }
                }
                return index
            default: break
            }
            index += 1
        }
        return nil
    }

    /// The length of an SGR sequence (`ESC [ 0-9;… m`) at `index`, if one starts there.
    private static func styleLength(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Int? {
        guard index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") else { return nil }
        var end = index + 2
        while end < bytes.count, end - index < 32 {
            let byte = bytes[end]
            if byte == UInt8(ascii: "m") { return end - index + 1 }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ";") else {
                return nil
            }
            end += 1
        }
        return nil
    }

    /// The scalar whose UTF-8 starts at `index`, and its length; nil (length 1) for a byte that
    /// starts none (invalid UTF-8 is left as it is).
    private static func decode(_ bytes: UnsafeRawBufferPointer, at index: Int) -> (Unicode.Scalar?, Int) {
        let lead = bytes[index]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard index + length <= bytes.count else { return (nil, 1) }
        var decoder = UTF8()
        var iterator = bytes[index..<(index + length)].makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return (scalar, length) }
        return (nil, 1)
    }

    /// `\u00XX`-style: six bytes, valid in JSON strings.
    private static func appendEscape(_ value: UInt32, to result: inout [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        result += [UInt8(ascii: "\\"), UInt8(ascii: "u")]
        for shift in stride(from: 12, through: 0, by: -4) { result.append(digits[Int((value >> UInt32(shift)) & 0xF)]) }
    }
}
