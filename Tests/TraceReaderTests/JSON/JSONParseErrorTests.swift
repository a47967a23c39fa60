import Testing

@testable import TraceJSON

/// Exact positions and messages of parse errors.
@Suite struct JSONParseErrorTests {
    private func failure(_ bytes: [UInt8]) -> JSONParseError? {
        do throws(JSONParseError) {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    private func failure(_ text: String) -> JSONParseError? {
        failure(Array(text.utf8))
    }

    @Test func wrongCloserInObject() throws {
        let error = try #require(failure(#"{"a":1,"b":2]"#))
        #expect(error.line == 1)
        #expect(error.column == 13)
        #expect(error.offset == 12)
        #expect(error.message == "expected ',' or '}' after an object member, found ']'")
        #expect(error.description == "line 1, column 13: expected ',' or '}' after an object member, found ']'")
    }

    @Test func leadingZeroOnThirdLine() throws {
        let error = try #require(failure("[\n  1,\n  01\n]"))
        #expect(error.line == 3)
        #expect(error.column == 3)
        #expect(error.message == "leading zeros are not allowed in numbers")
    }

    @Test func crlfLinesCountOnce() throws {
        let error = try #require(failure("[\r\n1,\r\n x]"))
        #expect(error.line == 3)
        #expect(error.column == 2)
        #expect(error.message == "expected a value, found 'x'")
    }

    @Test func controlCharacterInString() throws {
        let error = try #require(failure(Array("[\"a".utf8) + [0x01] + Array("\"]".utf8)))
        #expect(error.column == 4)
        #expect(error.message == "control character U+0001 must be escaped in a string")
    }

    @Test func invalidUTF8Byte() throws {
        let error = try #require(failure(Array("[1, ".utf8) + [0xFF] + Array("]".utf8)))
        #expect(error.column == 5)
        #expect(error.message == "invalid UTF-8 byte 0xFF")
        let inString = try #require(failure(Array("\"ab".utf8) + [0xFF] + Array("\"".utf8)))
        #expect(inString.offset == 3)
        #expect(inString.message == "invalid UTF-8 byte 0xFF")
    }

    @Test func utf8ProblemsAreNamed() throws {
        let quote = UInt8(ascii: "\"")
        #expect(try #require(failure([quote, 0xED, 0xA0, 0x80, quote])).message.contains("surrogate"))
        #expect(try #require(failure([quote, 0xE0, 0x80, 0xAF, quote])).message.contains("overlong"))
        #expect(try #require(failure([quote, 0xF4, 0x90, 0x80, 0x80, quote])).message.contains("above U+10FFFF"))
        #expect(try #require(failure([quote, 0xC3, quote])).message.contains("truncated"))
    }

    @Test func endOfInput() throws {
        let error = try #require(failure(#"{"a":"#))
        #expect(error.column == 6)
        #expect(error.offset == 5)
        #expect(error.message == "unexpected end of input, expected a value")
        #expect(try #require(failure("")).message == "unexpected end of input, expected a value")
        #expect(try #require(failure("\"abc")).message.hasPrefix("unexpected end of input"))
    }

    @Test func columnsCountBytes() throws {
        // "é" is two bytes: the quote closing it is byte 4, the space 5, the x 6.
        let error = try #require(failure("\"é\" x"))
        #expect(error.column == 6)
        #expect(error.message == "expected the end of input after the JSON value, found 'x'")
    }

    @Test func nestingLimit() throws {
        let depth = JSONParser.maximumDepth + 1
        let error = try #require(failure(String(repeating: "[", count: depth) + String(repeating: "]", count: depth)))
        #expect(error.message == "nesting deeper than 1024 levels is not supported")
        #expect(error.column == depth)
    }

    /// A member's name is read at the top of the walk's loop, after `{` or after `,`: each
    /// place keeps its own message and position.
    @Test func memberNameErrors() throws {
        let cases: [(text: String, message: String, column: Int)] = [
            ("{1:2}", "expected a member name in double quotes or '}', found '1'", 2),
            (#"{"a":1, 2}"#, "expected a member name in double quotes, found '2'", 9),
            (#"{"a":1 , }"#, "trailing commas are not allowed: expected a member name after ','", 10),
            (#"{"a" 1}"#, "expected ':' after the member name, found '1'", 6),
            (#"{"a":1,"#, "unexpected end of input, expected a member name in double quotes", 8),
            (#"{"a":"#, "unexpected end of input, expected a value", 6),
            (#"[{"a":1,"b":[2,]}]"#, "trailing commas are not allowed: expected a value after ','", 16),
        ]
        for (text, message, column) in cases {
            let error = try #require(failure(text), "\(text)")
            #expect(error.message.hasPrefix(message), "\(text): \(error.message)")
            #expect(error.column == column, "\(text)")
        }
    }

    @Test func helpfulHints() throws {
        #expect(try #require(failure("[1,]")).message.hasPrefix("trailing commas are not allowed"))
        #expect(try #require(failure(#"{"a":1,}"#)).message.hasPrefix("trailing commas are not allowed"))
        #expect(
            try #require(failure("[NaN]")).message
                == "expected a value, found 'NaN' (NaN and Infinity are not JSON numbers)")
        #expect(try #require(failure("['a']")).message.contains("double quotes"))
        #expect(try #require(failure("[+1]")).message.contains("cannot start with '+'"))
        #expect(try #require(failure("[1.]")).message == "expected a digit after the decimal point, found ']'")
        #expect(try #require(failure(#"["\q"]"#)).message.hasPrefix("invalid escape sequence"))
    }

    @Test func byteOrderMark() throws {
        let error = try #require(failure([0xEF, 0xBB, 0xBF] + Array("{}".utf8)))
        #expect(error.offset == 0)
        #expect(error.message.contains("byte order mark"))
    }
}
