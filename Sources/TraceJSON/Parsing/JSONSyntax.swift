@_spi(RewindInternals) package import RewindSupport

/// Checks JSON without building anything: the same grammar, depth limit and error messages as
/// `JSONParser`, at the speed of a scan and with no allocation (except to describe an error).
public enum JSONSyntax {
    /// Checks that `bytes` hold exactly one valid JSON value with optional surrounding
    /// whitespace; returns the first problem, or nil when the input is valid.
    public static func validate(_ bytes: UnsafeRawBufferPointer) -> JSONParseError? {
        var scanner = JSONScanner(bytes)
        var sink = JSONDiscardingSink()
        do {
            try scanner.scanDocument(into: &sink)
            return nil
        } catch {
            return error
        }
    }

    /// Skips optional whitespace and then one complete, valid JSON value that starts at
    /// `offset` in `bytes`, checking it on the way; returns the offset just past the value.
    /// What follows the value is not looked at. Error positions count from the start of `bytes`.
    public static func skipValue(in bytes: UnsafeRawBufferPointer, at offset: Int) throws(JSONParseError) -> Int {
        try skipValue(in: ByteView(bytes), at: offset)
    }

    /// `skipValue(in:at:)` of a trace line as the reader holds it.
    package static func skipValue(in bytes: ByteView, at offset: Int) throws(JSONParseError) -> Int {
        precondition(offset >= 0 && offset <= bytes.count, "JSONSyntax.skipValue: offset out of range")
        var scanner = JSONScanner(bytes, position: offset)
        var sink = JSONDiscardingSink()
        try scanner.scanValue(into: &sink)
        return scanner.position
    }
}
