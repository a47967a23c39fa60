import Testing

@testable import TraceJSON

/// Deep nesting never crashes; the limit is the same for parser and checker.
@Suite struct JSONDepthTests {
    @Test(arguments: ["[", #"{"a":"#, "[{\"a\":"])
    func hundredThousandOpenersAreRejected(_ opener: String) throws {
        let bytes = Array(String(repeating: opener, count: 100_000).utf8)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes) }
        let error = bytes.withUnsafeBytes { JSONSyntax.validate($0) }
        #expect(error?.message == "nesting deeper than 1024 levels is not supported")
        #expect(throws: JSONParseError.self) {
            try bytes.withUnsafeBytes { try JSONSyntax.skipValue(in: $0, at: 0) }
        }
    }

    @Test func closedDeepNestingIsRejectedToo() {
        let bytes = Array((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes) }
        #expect(bytes.withUnsafeBytes { JSONSyntax.validate($0) } != nil)
    }

    @Test func exactlyTheLimitIsAccepted() throws {
        let depth = JSONParser.maximumDepth
        let text = String(repeating: "[", count: depth) + "7" + String(repeating: "]", count: depth)
        var value = try JSONParser.parse(text)
        var levels = 0
        while case .array(let elements) = value {
            levels += 1
            value = elements[0]
        }
        #expect(levels == depth)
        #expect(value == .number("7"))
    }

    /// The walker keeps the kinds of the innermost 64 open containers in one word and the
    /// outer ones aside: objects and arrays mixed down to the limit, each continued after its
    /// nested value closes, read back only if every level's kind comes back with it.
    @Test(arguments: [65, 200, JSONParser.maximumDepth])
    func mixedKindsComeBackAtEveryDepth(_ depth: Int) throws {
        var text = ""
        for level in 0..<depth { text += level % 3 == 0 ? #"{"k":"# : "[" }
        text += "0"
        for level in (0..<depth).reversed() { text += level % 3 == 0 ? ",\"after\":\(level)}" : ",\(level)]" }
        let bytes = Array(text.utf8)
        #expect(JSONPrinter.compact(try JSONParser.parse(bytes)) == text)
        #expect(bytes.withUnsafeBytes { JSONSyntax.validate($0) } == nil)
        #expect(DecodingOutcome(decoding: bytes) == DecodingOutcome(parsing: bytes))
    }
}

/// `JSONSyntax.skipValue` finds where a value ends, inside a larger buffer.
@Suite struct JSONSkipValueTests {
    @Test func skipsNestedValueInsideALine() throws {
        let line = #"{"seq":1,"state":{"a":[1,2,{"b":"c\"}]"}],"e":{}},"x":true}"#
        let bytes = Array(line.utf8)
        let start = try #require(line.utf8.firstIndex(of: UInt8(ascii: ":"), after: 12))
        let end = try bytes.withUnsafeBytes { try JSONSyntax.skipValue(in: $0, at: start + 1) }
        #expect(String(decoding: bytes[(start + 1)..<end], as: UTF8.self) == #"{"a":[1,2,{"b":"c\"}]"}],"e":{}}"#)
        #expect(bytes[end] == UInt8(ascii: ","))
    }

    @Test func skipsEveryKindOfScalarAndLeadingWhitespace() throws {
        for (text, length) in [
            ("  12.5e3,", 8), ("true]", 4), ("null ", 4), (#""a\u0041" x"#, 9), ("-0}", 2), ("[] ", 2),
        ] {
            let end = try Array(text.utf8).withUnsafeBytes { try JSONSyntax.skipValue(in: $0, at: 0) }
            #expect(end == length, "\(text)")
        }
    }

    @Test func errorsCountFromTheStartOfTheBuffer() throws {
        let bytes = Array("xxxx\n[1,,2]".utf8)
        do throws(JSONParseError) {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
            defer { buffer.deallocate() }
            buffer.copyBytes(from: bytes)
            _ = try JSONSyntax.skipValue(in: UnsafeRawBufferPointer(buffer), at: 5)
            Issue.record("accepted an invalid value")
        } catch {
            #expect(error.line == 2)
            #expect(error.column == 4)
            #expect(error.offset == 8)
        }
    }
}

extension String.UTF8View {
    /// The integer offset of the first `byte` at or after `offset`.
    fileprivate func firstIndex(of byte: UInt8, after offset: Int) -> Int? {
        let bytes = Array(self)
        return bytes[offset...].firstIndex(of: byte)
    }
}
