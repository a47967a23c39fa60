/// Reads back a JSON string as `JSONOutput` writes one (escaping only `"`, `\` and control
/// characters), for the places that look again at what the encoder wrote: a URL's parts, the
/// keys of an enum-keyed dictionary.
enum OwnJSONString {
    /// The text of the JSON string at the start of `bytes` and what follows it; nil when
    /// `bytes` does not start with one, or holds an escape `JSONOutput` does not write.
    static func read(_ bytes: ArraySlice<UInt8>) -> (text: [UInt8], rest: ArraySlice<UInt8>)? {
        guard bytes.first == UInt8(ascii: "\"") else { return nil }
        var text: [UInt8] = []
        var index = bytes.startIndex + 1
        while index < bytes.endIndex {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { return (text, bytes[index...]) }
            guard byte == UInt8(ascii: "\\") else {
                text.append(byte)
                continue
            }
            guard index < bytes.endIndex else { return nil }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "u"):
                // `\u00XX`: a control character, the only kind the encoder writes this way.
                guard index + 4 <= bytes.endIndex, bytes[index] == UInt8(ascii: "0"),
                    bytes[index + 1] == UInt8(ascii: "0"), let high = hexDigit(bytes[index + 2]),
                    let low = hexDigit(bytes[index + 3])
                else { return nil }
                text.append(high << 4 | low)
                index += 4
            default: text.append(escaped)  // \" \\ \/
            }
        }
        return nil
    }

    /// The text of `bytes`, which must be exactly one JSON string.
    static func decode(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        guard let (text, rest) = read(bytes), rest.isEmpty else { return nil }
        return text
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
