/// JSON text made safe to sit inside a `<script type="application/json">` element.
///
/// The HTML parser ends a script element at the first `</script` whatever the JSON means, and
/// `<!--` changes how it looks for that end. So every `<`, `>` and `&` is written as `\u003c`,
/// `\u003e` and `\u0026`, and U+2028/U+2029 as `\u2028`/`\u2029` (they end lines in older
/// JavaScript). In valid JSON these characters can only be inside strings, where the escapes
/// mean the same characters: `JSON.parse` gives back exactly the original value, and the
/// element's text can never contain `<` at all.
enum ScriptData {
    /// Appends `json`, which must be valid JSON text, to `output` with the escapes above.
    static func append(json: String, to output: inout [UInt8]) {
        var json = json
        json.withUTF8 { append(bytes: $0, to: &output) }
    }

    /// Appends the UTF-8 bytes of valid JSON text to `output` with the escapes above.
    static func append(bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var start = 0
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            let escape: StaticString?
            var width = 1
            switch byte {
            case UInt8(ascii: "<"): escape = "\\u003c"
            case UInt8(ascii: ">"): escape = "\\u003e"
            case UInt8(ascii: "&"): escape = "\\u0026"
            case 0xE2 where index + 2 < count && bytes[index + 1] == 0x80 && bytes[index + 2] == 0xA8:
                escape = "\\u2028"
                width = 3
            case 0xE2 where index + 2 < count && bytes[index + 1] == 0x80 && bytes[index + 2] == 0xA9:
                escape = "\\u2029"
                width = 3
            default: escape = nil
            }
            if let escape {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                escape.withUTF8Buffer { output.append(contentsOf: $0) }
                index += width
                start = index
            } else {
                index += 1
            }
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<count]))
    }

    /// `json` with the escapes above, as a string.
    static func escaped(_ json: String) -> String {
        var output: [UInt8] = []
        append(json: json, to: &output)
        return String(decoding: output, as: UTF8.self)
    }
}
