import Testing

@testable import RewindSupport

@Suite struct TerminalTextTests {
    @Test(arguments: [
        0x1B, 0x07, 0x7F, 0x85, 0x9B, 0x2028, 0x2029, 0x202A, 0x202E, 0x2066, 0x2069, 0x200B, 0x200F, 0x2060, 0xFEFF,
    ])
    func everyInvisibleOrControllingCharacterIsEscaped(value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        #expect(TerminalText.needsEscape(scalar))
        #expect(TerminalText.safe("a\(Character(scalar))b") == "a\\u{\(String(value, radix: 16))}b")
    }

    @Test func plainTextIsUnchanged() {
        #expect(TerminalText.safe("plain é 😀 → ‐ \u{2010}") == "plain é 😀 → ‐ \u{2010}")
        #expect(!TerminalText.needsEscape("\u{2061}") && !TerminalText.needsEscape("\u{202F}"))
    }

    static func neutralized(_ text: String, styles: Bool = true) -> String? {
        var text = text
        return text.withUTF8 { TerminalText.neutralized(UnsafeRawBufferPointer($0), allowingStyles: styles) }
            .map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func theLastLineOfDefenceKeepsStylesAndEscapesTheRestAsJSON() {
        #expect(Self.neutralized("plain\nlines\twith tabs → é") == nil)
        #expect(Self.neutralized("\u{1B}[31mred\u{1B}[0m") == nil)
        #expect(Self.neutralized("\u{1B}[31mred\u{1B}[0m", styles: false) == "\\u001b[31mred\\u001b[0m")
        #expect(Self.neutralized("title\u{1B}]0;x\u{07}") == "title\\u001b]0;x\\u0007")
        #expect(Self.neutralized("{\"a\":\"\u{202E}\u{9B}\u{7F}\u{FEFF}\"}") == #"{"a":"\u202e\u009b\u007f\ufeff"}"#)
        #expect(Self.neutralized("\u{1B}[2J") == "\\u001b[2J")
    }
}
