@_spi(RewindInternals) import RewindSupport
import Testing

@_spi(RewindInternals) @testable import TraceJSON

/// The walker reports each `true`, `false` and `null` with the offset of its first byte, at any
/// depth and with any whitespace around it.
@Suite struct WalkerLiteralOffsetTests {
    /// Keeps the literals and their offsets; ignores the rest.
    private struct Literals: JSONEventSink {
        var found: [(value: JSONValue, offset: Int)] = []
        mutating func beginArray(at offset: Int) {}
        mutating func endArray(at offset: Int) {}
        mutating func beginObject(at offset: Int) {}
        mutating func endObject(at offset: Int) {}
        mutating func key(_ bytes: ByteView, from start: Int, to end: Int, hasEscapes: Bool) {}
        mutating func string(_ bytes: ByteView, from start: Int, to end: Int, hasEscapes: Bool) {}
        mutating func number(_ bytes: ByteView, from start: Int, to end: Int) {}
        mutating func literal(_ value: JSONValue, at offset: Int) { found.append((value, offset)) }
    }

    @Test(arguments: [
        "true", " false ", "[true,false,null]", #"{"a" : null, "b":[ true ,{"c":false}],"d":"null"}"#,
        "[[[[null]]],\n\tfalse]",
    ])
    func literalsAreReportedAtTheirFirstByte(text: String) throws {
        let bytes = Array(text.utf8)
        var sink = Literals()
        try ByteView.withBytes(of: bytes) { buffer in
            var scanner = JSONScanner(buffer)
            try scanner.scanDocument(into: &sink)
        }
        // Every literal of the text, outside strings: where each word starts.
        var expected: [Int] = []
        var inString = false
        for (offset, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "\"") { inString.toggle() }
            if !inString && [UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n")].contains(byte) {
                expected.append(offset)
            }
        }
        #expect(sink.found.map(\.offset) == expected, "\(text)")
        for (value, offset) in sink.found {
            let word =
                switch value {
                case .bool(true): "true"
                case .bool(false): "false"
                default: "null"
                }
            #expect(Array(bytes[offset..<min(bytes.count, offset + word.utf8.count)]) == Array(word.utf8), "\(text)")
        }
    }
}
