import Testing

@testable import TraceJSON

/// Printing: byte-exact round trips, pretty layout, escaping and terminal safety.
@Suite struct JSONPrinterTests {
    static let compactDocuments = [
        #"{"b":1,"a":[0.1,1e400,-0,12345678901234567890123,1E-7,0.10,true,false,null,"x\ny"],"":{}}"#,
        "[]",
        "{}",
        #"{"a":{"a":{}},"z":[[],[[]]]}"#,
        #"["\u0000\u001f\"\\\b\f\n\r\t","é€😀","DEL \#u{7F} and U+2028 \#u{2028} stay raw unless terminal-safe"]"#,
        #""just a string""#,
        "-1.5E+300",
    ]

    @Test(arguments: compactDocuments)
    func compactRoundTripIsByteExact(_ document: String) throws {
        let value = try JSONParser.parse(document)
        #expect(JSONPrinter.compact(value) == document)
    }

    @Test func numbersKeepTheirText() throws {
        let value = try JSONParser.parse("[0.1, 1e400, -0, 12345678901234567890123, 1.0]")
        #expect(
            value.arrayValue?.compactMap { if case .number(let text) = $0 { text } else { nil } }
                == ["0.1", "1e400", "-0", "12345678901234567890123", "1.0"])
    }

    @Test func prettyLayout() throws {
        let value = try JSONParser.parse(#"{"name":"a","list":[1,{"x":null}],"empty":{},"none":[]}"#)
        let expected = """
            {
              "name": "a",
              "list": [
                1,
                {
                  "x": null
                }
              ],
              "empty": {},
              "none": []
            }
            """
        #expect(JSONPrinter.pretty(value) == expected)
        #expect(JSONPrinter.pretty(value, indent: 4).contains("\n    \"name\": \"a\""))
        #expect(try JSONParser.parse(JSONPrinter.pretty(value, indent: 0)) == value)
    }

    @Test func quotedEscapesPerRFC8259() {
        #expect(JSONPrinter.quoted("say \"hi\"\\\n") == #""say \"hi\"\\\n""#)
        #expect(JSONPrinter.quoted("\u{01}\u{1F}\u{08}\u{0C}\t\r") == #""\u0001\u001f\b\f\t\r""#)
        #expect(JSONPrinter.quoted("é/€") == "\"é/€\"")
        #expect(JSONPrinter.quoted("") == "\"\"")
    }

    static let hostile = [
        "\u{1B}]0;title\u{07}",  // OSC: set the window title, ended by BEL
        "\u{9B}31m red",  // C1 CSI
        "\u{1B}[2J\u{1B}[H",  // clear screen
        "del \u{7F} c1 \u{80}\u{85}\u{9F} seps \u{2028}\u{2029} ok é😀",
    ]

    @Test(arguments: hostile)
    func terminalSafeOutputHasNoRawControls(_ text: String) throws {
        let value = JSONValue.object(["k\u{9B}": .string(text), "list": .array([.string(text)])])
        for printed in [
            JSONPrinter.compact(value, terminalSafe: true), JSONPrinter.pretty(value, terminalSafe: true),
            JSONPrinter.quoted(text, terminalSafe: true),
        ] {
            let scalars = printed.unicodeScalars
            #expect(!scalars.contains { $0.value < 0x20 && $0 != "\n" })
            #expect(!scalars.contains { (0x7F...0x9F).contains($0.value) })
            #expect(!scalars.contains { $0.value == 0x2028 || $0.value == 0x2029 })
        }
        // Escaped, not lost: it reads back as the same text.
        #expect(try JSONParser.parse(JSONPrinter.compact(value, terminalSafe: true)) == value)
        #expect(try JSONParser.parse(JSONPrinter.quoted(text, terminalSafe: true)) == .string(text))
    }

    @Test func withoutTerminalSafetyOnlyRFCEscapes() {
        let printed = JSONPrinter.quoted("\u{1B}\u{9B}\u{7F}\u{2028}")
        #expect(printed == "\"\\u001b\u{9B}\u{7F}\u{2028}\"")
        #expect(JSONPrinter.quoted("\u{1B}\u{9B}\u{7F}\u{2028}", terminalSafe: true) == #""\u001b\u009b\u007f\u2028""#)
    }

    @Test func aRepeatedNamePrintsItsLastMember() throws {
        let value = try JSONParser.parse(#"{"dup":1,"a":0,"dup":3,"b":{"x":1,"x":[2]}}"#)
        #expect(JSONPrinter.compact(value) == #"{"a":0,"dup":3,"b":{"x":[2]}}"#)
        #expect(!JSONPrinter.pretty(value).contains("1"))
        // Names are the same only when their bytes are: "é" and "e" + U+0301 are two members.
        let decomposed = try JSONParser.parse("{\"\u{E9}\":1,\"e\u{301}\":2}")
        #expect(JSONPrinter.compact(decomposed) == "{\"\u{E9}\":1,\"e\u{301}\":2}")
    }

    @Test func aNumberTextThatIsNoNumberPrintsAsAString() throws {
        let value = JSONValue.array([.number("12"), .number("abc"), .number(""), .number("1.")])
        #expect(JSONPrinter.compact(value) == #"[12,"abc","","1."]"#)
    }
}
