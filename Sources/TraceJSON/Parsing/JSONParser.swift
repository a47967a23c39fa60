@_spi(RewindInternals) package import RewindSupport

/// Parses JSON text (RFC 8259, strictly) into a `JSONValue`.
///
/// The input must be exactly one value with optional whitespace (space, `\t`, `\n`, `\r`)
/// around it, in valid UTF-8. Rejected: trailing commas, comments, single quotes, leading zeros,
/// `+1`, `.5`, `1.`, NaN and Infinity, unescaped control characters in strings, unknown escapes,
/// invalid UTF-8 anywhere, a byte order mark at the start, and nesting deeper than
/// `maximumDepth`. Accepted and kept: duplicate object keys (in order; the last member wins,
/// see `JSONObject`), numbers of any size or precision (as their text), and `\uXXXX` escapes of
/// a lone UTF-16 surrogate.
///
/// A lone surrogate (`"\ud800"`, a high one not followed by a low one, or a low one alone) is
/// valid JSON but no Unicode text, and a Swift `String` cannot hold it. The parser keeps it
/// distinct anyway, so that `"T\ud800"` and `"T\udc00"` stay two strings (two store names, a
/// change in a diff): the string holds a stand-in for it, the private-use code point U+10F800 +
/// (the surrogate − U+D800), and an input code point in U+10F7FF...U+10FFFF is held after an
/// extra U+10F7FF so that it is never taken for a stand-in. `JSONPrinter` writes the stand-in
/// back as the `\uXXXX` escape, the diff and JSON Patch compare and write the surrogate itself,
/// and the diff's lines end with "(not valid Unicode)" (`ValueText.notUnicodeNote`). Only such
/// strings differ from their plain text: every string of Unicode text, which is all a recorder
/// writes, is held as itself. `JSONValueDecoder` instead gives a `Decodable` type U+FFFD.
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

    /// Parses the bytes of a trace line's member, as the trace reader sees them.
    package static func parse(_ bytes: ByteView) throws(JSONParseError) -> JSONValue {
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
