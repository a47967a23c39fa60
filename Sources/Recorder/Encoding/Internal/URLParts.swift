/// Reads back what `URL.encode(to:)` writes through the encoder, `{"relative":"…"}` with a
/// `"base"` when the URL is relative to another (which the encoder has already written as its
/// absolute string), so that `FoundationValueEncoding` can write the absolute string.
struct URLParts {
    var relative: String
    var base: String?

    /// The parts in `json`; nil when it is not shaped as above.
    init?(json: [UInt8]) {
        var rest = json[...]
        func take(_ text: StaticString) -> Bool {
            let bytes = UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
            guard rest.starts(with: bytes) else { return false }
            rest = rest.dropFirst(bytes.count)
            return true
        }
        guard take("{\"relative\":"), let relative = Self.string(&rest) else { return nil }
        self.relative = relative
        if take(",\"base\":") {
            guard let base = Self.string(&rest) else { return nil }
            self.base = base
        }
        guard take("}"), rest.isEmpty else { return nil }
    }

    /// The URL's absolute string: the relative one resolved against the base (RFC 3986).
    var absoluteString: String {
        base.map { URLReference.resolve(relative, against: $0) } ?? relative
    }

    /// Reads a JSON string at the start of `rest`, and moves past it.
    private static func string(_ rest: inout ArraySlice<UInt8>) -> String? {
        guard rest.first == UInt8(ascii: "\"") else { return nil }
        rest = rest.dropFirst()
        var scalars = String.UnicodeScalarView()
        var text: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: text, as: UTF8.self).unicodeScalars)
            text.removeAll(keepingCapacity: true)
        }
        while let byte = rest.first {
            rest = rest.dropFirst()
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                guard let escaped = rest.first else { return nil }
                rest = rest.dropFirst()
                switch escaped {
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "u"):
                    guard let unit = hex4(&rest) else { return nil }
                    var value = UInt32(unit)
                    if (0xD800..<0xDC00).contains(unit), rest.starts(with: [0x5C, 0x75]) {
                        rest = rest.dropFirst(2)
                        guard let low = hex4(&rest), (0xDC00..<0xE000).contains(low) else { return nil }
                        value = 0x10000 + (UInt32(unit) - 0xD800) << 10 + (UInt32(low) - 0xDC00)
                    }
                    flush()
                    scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                default: text.append(escaped)  // \" \\ \/
                }
            default:
                text.append(byte)
            }
        }
        return nil
    }

    private static func hex4(_ rest: inout ArraySlice<UInt8>) -> UInt16? {
        guard rest.count >= 4 else { return nil }
        var value: UInt16 = 0
        for byte in rest.prefix(4) {
            guard let digit = hexDigit(byte) else { return nil }
            value = value << 4 | UInt16(digit)
        }
        rest = rest.dropFirst(4)
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
