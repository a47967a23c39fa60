/// Parses JSON text (RFC 8259, strictly) into a `JSONValue`.
///
/// The input must be exactly one value with optional whitespace (space, `\t`, `\n`, `\r`)
/// around it, in valid UTF-8. Rejected: trailing commas, comments, single quotes, leading zeros,
/// `+1`, `.5`, `1.`, NaN and Infinity, unescaped control characters in strings, unknown escapes,
/// invalid UTF-8 anywhere, a byte order mark at the start, and nesting deeper than
/// `maximumDepth`. Accepted and kept: duplicate object keys (in order), numbers of any size or
/// precision (as their text), and `\uXXXX` escapes of a lone UTF-16 surrogate, which become
/// U+FFFD because a Swift `String` cannot hold a surrogate.
///
/// Parsing never recurses, so no input can overflow the stack. Errors carry the line, the
/// column (in bytes) and a message, see `JSONParseError`.
public struct JSONParser: Sendable {
    /// The deepest nesting of arrays and objects accepted: 1024 levels (`[[...]]` with 1024
    /// `[` is fine, with 1025 it is an error). RFC 8259 §9 lets a parser set such a limit; it
    /// also bounds the recursion in code that walks or destroys a parsed `JSONValue`.
    public static let maximumDepth = 1024

    /// Parses the UTF-8 bytes in `bytes`: the fastest entry point.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        var scanner = JSONScanner(bytes)
        var builder = JSONTreeBuilder()
        try scanner.scanDocument(into: &builder)
        return builder.takeResult()
    }

    /// Parses UTF-8 bytes, such as `[UInt8]`, `ArraySlice<UInt8>` or `Data`.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(UnsafeRawBufferPointer(buffer)) }
        }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBytes { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(buffer) }
        }.get()
    }

    /// Parses JSON text.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(text.utf8)
    }
}
