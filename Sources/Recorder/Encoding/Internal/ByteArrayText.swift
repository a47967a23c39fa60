/// Reads back what `Data.encode(to:)` writes through the encoder, an array of byte values
/// (`[104,105]`), so that `FoundationValueEncoding` can write the bytes as base64.
enum ByteArrayText {
    /// The bytes of `json`; nil when it is not an array of integers 0–255 as the encoder writes
    /// them (no spaces).
    static func bytes(of json: [UInt8]) -> [UInt8]? {
        guard json.first == UInt8(ascii: "["), json.last == UInt8(ascii: "]") else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(json.count / 2)
        var value = 0
        var digits = 0
        for byte in json.dropFirst().dropLast() {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                guard value <= 255, digits <= 3 else { return nil }
            } else if byte == UInt8(ascii: ","), digits > 0 {
                bytes.append(UInt8(value))
                value = 0
                digits = 0
            } else {
                return nil
            }
        }
        if digits > 0 {
            bytes.append(UInt8(value))
        } else if json.count > 2 {
            return nil  // a trailing comma
        }
        return bytes
    }
}
