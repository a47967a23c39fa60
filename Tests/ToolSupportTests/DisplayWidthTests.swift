import Testing

@testable import ToolSupport

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("abc", 3), ("🛒", 2), ("✨", 2), ("🚀", 2), ("漢字", 4), ("Ａ", 2), ("ｱ", 1), ("é", 1),
        ("e\u{301}", 1), ("\u{301}", 0), ("❤", 1), ("❤\u{FE0F}", 2), ("#\u{FE0F}\u{20E3}", 2), ("👍🏽", 2),
        ("🇫🇷", 2), ("\u{1100}\u{1161}\u{11A8}", 2), ("क्ष", 2), ("→", 1), ("─", 1), ("…", 1), ("\u{1B}", 0),
    ])
    func measuresEachGraphemeAsATerminalDrawsIt(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    /// Text of printable ASCII is counted by its bytes; any other byte, a control character or
    /// a combining mark after ASCII, is measured character by character.
    @Test func asciiTextTakesAColumnPerPrintableCharacterOnly() {
        for value in UInt32(0)..<0x80 {
            let character = Character(Unicode.Scalar(value)!)
            let columns = (0x20..<0x7F).contains(value) ? 1 : 0
            #expect(DisplayWidth.of("ab\(character)cd") == 4 + columns, "\(value)")
        }
        #expect(DisplayWidth.of("ae\u{301}") == 2)
        #expect(DisplayWidth.of("a\r\nb") == 2)
    }

    /// The generated table matches the toolchain's Unicode data: when Swift moves to a newer
    /// Unicode version this fails, and `Scripts/generate-display-width.swift` makes it pass again.
    @Test func everyEmojiPresentationScalarIsWideAndEveryMarkTakesNoColumn() {
        var wrong: [String] = []
        for value in UInt32(0xA0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), wrong.count < 10 else { continue }
            let properties = scalar.properties
            if properties.isEmojiPresentation && DisplayWidth.of(scalar) != 2 {
                wrong.append("U+\(String(value, radix: 16)) is an emoji")
            }
            if (properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark)
                && DisplayWidth.of(scalar) != 0
            {
                wrong.append("U+\(String(value, radix: 16)) is a combining mark")
            }
        }
        #expect(wrong.isEmpty, "regenerate the table: \(wrong)")
    }

    @Test func tablesAreSortedAndDisjoint() {
        for table in [DisplayWidth.wide, DisplayWidth.emoji, DisplayWidth.zero] {
            #expect(!table.isEmpty)
            #expect(zip(table, table.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound })
        }
    }
}
