import Testing
import TraceJSON

@testable import Inspector

@Suite struct ReportEscapingTests {
    static let hostile = [
        "</script><script>alert(1)</script>", "</SCRIPT >", "<!--<script>", "<img src=x onerror=alert(1)>",
        "a & b > c", "\u{2028}\u{2029}", "é 東京 🎉", "quote \" backslash \\ nul \u{0}",
    ]

    @Test(arguments: hostile)
    func scriptDataKeepsTheValueAndHasNoMarkupCharacters(text: String) throws {
        let json = JSONPrinter.compact(.object(["key \(text)": .array([.string(text)])]))
        let escaped = ScriptData.escaped(json)
        #expect(!escaped.contains("<") && !escaped.contains(">") && !escaped.contains("&"))
        #expect(!escaped.unicodeScalars.contains { $0.value == 0x2028 || $0.value == 0x2029 })
        #expect(try JSONParser.parse(escaped) == JSONParser.parse(json))
    }

    @Test func htmlTextEscapesMarkupQuotesAndControls() {
        #expect(
            HTMLText.escape("<a href='x' title=\"y\">&amp;</a>")
                == "&lt;a href=&#39;x&#39; title=&quot;y&quot;&gt;&amp;amp;&lt;/a&gt;")
        #expect(HTMLText.escape("bell\u{7}nul\u{0}del\u{7F}") == "bell\u{FFFD}nul\u{FFFD}del\u{FFFD}")
        #expect(HTMLText.escape("plain é 東京\ttab") == "plain é 東京\ttab")
    }

    @Test func sha256MatchesThePublishedTestVectors() {
        // FIPS 180-4 examples (and the empty string), as hex.
        func hex(_ text: String) -> String {
            SHA256.digest(Array(text.utf8)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            hex(String(repeating: "a", count: 1000))
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test func base64PadsAsRFC4648Says() {
        #expect(SHA256.base64(Array("".utf8)) == "")
        #expect(SHA256.base64(Array("f".utf8)) == "Zg==")
        #expect(SHA256.base64(Array("fo".utf8)) == "Zm8=")
        #expect(SHA256.base64(Array("foo".utf8)) == "Zm9v")
        #expect(SHA256.base64(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(ContentSecurityPolicy.source([]) == "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='")
    }
}
