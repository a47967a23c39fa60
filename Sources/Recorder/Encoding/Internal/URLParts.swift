/// Reads back what `URL.encode(to:)` writes through the encoder, `{"relative":"…"}` (with a
/// `"base"` when the URL is relative to another), so that `FoundationValueEncoding` can write a
/// URL as its string.
enum URLParts {
    /// The absolute string of the URL written as `json`: its relative string when it has no
    /// base; nil when it has one, or when `json` is not shaped as above.
    static func absoluteString(json: [UInt8]) -> String? {
        let prefix: StaticString = "{\"relative\":"
        let start = UnsafeRawBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        guard json.starts(with: start), json.last == UInt8(ascii: "}"),
            let text = OwnJSONString.decode(json[start.count..<(json.count - 1)])
        else { return nil }
        return String(decoding: text, as: UTF8.self)
    }
}
