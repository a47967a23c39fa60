/// Base64 (RFC 4648, the standard alphabet, with padding, no line breaks): how `JSONDecoder`
/// reads `Data` by default.
enum Base64 {
    static func encode(_ bytes: [UInt8]) -> String {
        let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let rest = bytes.count - index  // 1, 2, or 3 and more
            var group = UInt32(bytes[index]) << 16
            if rest > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if rest > 2 { group |= UInt32(bytes[index + 2]) }
            for position in 0..<4 {
                out.append(
                    position <= min(rest, 3)
                        ? alphabet.utf8Start[Int(group >> UInt32(18 - 6 * position) & 63)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
