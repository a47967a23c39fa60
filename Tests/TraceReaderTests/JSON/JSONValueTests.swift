import Testing

@testable import TraceJSON

/// Accessors, exact equality and equivalence of `JSONValue`, and string decoding details.
@Suite struct JSONValueTests {
    @Test func accessors() throws {
        let value = try JSONParser.parse(
            #"{"s":"x","i":42,"big":12345678901234567890,"f":1.5,"b":true,"n":null,"a":[1,2],"o":{}}"#)
        #expect(value["s"]?.stringValue == "x")
        #expect(value["i"]?.intValue == 42)
        #expect(value["big"]?.intValue == nil)
        #expect(value["big"]?.doubleValue == 12345678901234567890.0)
        #expect(value["f"]?.intValue == nil)
        #expect(value["f"]?.doubleValue == 1.5)
        #expect(value["b"]?.boolValue == true)
        #expect(value["n"] == .null)
        #expect(value["a"]?[1] == .number("2"))
        #expect(value["a"]?[2] == nil)
        #expect(value["a"]?[-1] == nil)
        #expect(value["o"]?.objectValue?.isEmpty == true)
        #expect(value["a"]?.arrayValue?.count == 2)
        #expect(value["s"]?.intValue == nil)
        #expect(value[0] == nil)
        #expect(JSONValue.number("-9223372036854775808").intValue == Int.min)
        #expect(JSONValue.number("9223372036854775808").intValue == nil)
        #expect(JSONValue.number("-0").intValue == 0)
        #expect(JSONValue.number("1e400").doubleValue == .infinity)
    }

    @Test func kindNames() throws {
        let value = try JSONParser.parse(#"[null,true,1,"s",[],{}]"#)
        #expect(value.arrayValue?.map(\.kindName) == ["null", "boolean", "number", "string", "array", "object"])
    }

    @Test func equalityIsExact() throws {
        #expect(try JSONParser.parse("1.0") != JSONParser.parse("1"))
        #expect(try JSONParser.parse(#"{"a":1,"b":2}"#) != JSONParser.parse(#"{"b":2,"a":1}"#))
        #expect(try JSONParser.parse(#"{"a":[1,"x"]}"#) == JSONParser.parse(#" { "a" : [ 1 , "x" ] } "#))
    }

    @Test(arguments: [
        ("1", "1.0"), ("1", "1e0"), ("10", "1E1"), ("0", "-0"), ("0", "0e99"), ("0.5", "5e-1"),
        ("1e400", "1E400"), ("1e400", "10e399"), ("-12.50", "-1.25e1"),
        ("123456789012345678901234567890", "1.2345678901234567890123456789e29"),
    ])
    func equivalentNumbers(_ left: String, _ right: String) {
        #expect(JSONValue.number(left).isEquivalent(to: .number(right)))
        #expect(JSONValue.number(right).isEquivalent(to: .number(left)))
    }

    @Test(arguments: [
        ("1", "1.1"), ("12345678901234567890", "12345678901234567891"), ("1e400", "1e401"), ("-1", "1"),
        ("0.1", "0.01"),
    ])
    func differentNumbers(_ left: String, _ right: String) {
        #expect(!JSONValue.number(left).isEquivalent(to: .number(right)))
    }

    @Test func structuralEquivalence() throws {
        let a = try JSONParser.parse(#"{"x":[1.0,{"p":true,"q":null}],"y":"s","y":"t"}"#)
        let b = try JSONParser.parse(#"{"y":"t","x":[1,{"q":null,"p":true}]}"#)
        #expect(a.isEquivalent(to: b))
        #expect(b.isEquivalent(to: a))
        let c = try JSONParser.parse(#"{"y":"s","x":[1,{"q":null,"p":true}]}"#)
        #expect(!a.isEquivalent(to: c))
        let d = try JSONParser.parse(#"{"y":"t","x":[1,{"q":null,"p":true}],"z":0}"#)
        #expect(!a.isEquivalent(to: d) && !d.isEquivalent(to: a))
        #expect(!JSONValue.number("1").isEquivalent(to: .string("1")))
        #expect(!JSONValue.array([.null]).isEquivalent(to: .array([.null, .null])))
    }

    @Test func escapesAndSurrogates() throws {
        #expect(try JSONParser.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONParser.parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
        #expect(try JSONParser.parse(#""a\u0000b""#) == .string("a\u{0}b"))
        #expect(try JSONParser.parse(#""\u00e9\u00C9""#) == .string("éÉ"))
        // Lone surrogates are accepted, kept apart from each other and from U+FFFD, and printed
        // as they were read; a valid pair is the one character it spells.
        let high = try JSONParser.parse(#""\ud800""#)
        #expect(high != (try JSONParser.parse(#""\udbff""#)))
        #expect(high != .string("\u{FFFD}"))
        #expect(high.stringValue.map(LoneSurrogates.isNotUnicode) == true)
        for text in [#""\ud800""#, #""\ud800A""#, #""\ude00\ud83d""#, #""x\udbff""#, #"{"\udfaa":0,"b":"\udc00"}"#] {
            #expect(JSONPrinter.compact(try JSONParser.parse(text)) == text)
        }
        #expect(JSONPrinter.compact(try JSONParser.parse(#""\ud800\u0041""#)) == #""\ud800A""#)
        #expect(try JSONParser.parse(#"{"\udfaa":0}"#).objectValue?.keys.first.map(LoneSurrogates.isNotUnicode) == true)
        // Text that holds the code points the stand-ins use is read and printed as itself.
        let top = "\"\u{10F7FF}\u{10F800}\u{10FFFF}\""
        #expect(JSONPrinter.compact(try JSONParser.parse(top)) == top)
        #expect(try JSONParser.parse(top) != (try JSONParser.parse(#""\udbfd\udfff\ud800\udbff\udfff""#)))
        #expect(try JSONParser.parse(top).stringValue.map(LoneSurrogates.isNotUnicode) == false)
        #expect(JSONPrinter.compact(try JSONParser.parse(#""\udbff\udfff""#)) == "\"\u{10FFFF}\"")
    }

    @Test func inputKinds() throws {
        let text = #"{"a":[1,"é"]}"#
        let fromString = try JSONParser.parse(text)
        #expect(try JSONParser.parse(Array(text.utf8)) == fromString)
        #expect(try JSONParser.parse(Array(text.utf8)[...]) == fromString)
        #expect(try JSONParser.parse(text.utf8.lazy.map { $0 }) == fromString)  // not contiguous
        #expect(try Array(text.utf8).withUnsafeBytes { try JSONParser.parse($0) } == fromString)
    }
}
