import Testing

@testable import Inspector

/// Fitting lines to the screen with wide characters: a line never takes more columns than the
/// terminal has (else the terminal wraps it and the whole screen moves).
@Suite struct ScreenTextTests {
    static let samples = [
        "Rewind · 🛒 Shop · traces/shop.jsonl", "✨✨✨✨✨✨✨✨✨✨✨✨", "a🚀b🚀c🚀d🚀e", "漢字とカナ、ｶﾅ", "e\u{301}e\u{301}e\u{301}🇫🇷👍🏽",
        "\u{1B}[1m🚀 bold\u{1B}[0m and \u{1B}[2m✨ dim\u{1B}[0m",
    ]

    @Test(arguments: samples)
    func aFittedLineTakesExactlyTheWidth(text: String) {
        for width in 1...40 {
            let line = ScreenText.fit(text, width: width)
            #expect(ScreenText.width(line) == width, "\(text) at \(width): \(line)")
            if ScreenText.width(text) > width { #expect(line.contains("…"), "\(text) at \(width)") }
        }
    }

    @Test func measuresWideCharactersAndSkipsStyles() {
        #expect(ScreenText.width("🛒 Shop") == 7)
        #expect(ScreenText.width("\u{1B}[1m✨\u{1B}[0m") == 2)
        // A mark after a style sequence does not join the sequence's final letter.
        #expect(ScreenText.width("\u{1B}[1m\u{301}x") == 1)
    }

    @Test func aWideCharacterAtTheEdgeGoesWhole() {
        #expect(ScreenText.fit("ab🛒", width: 3) == "ab…")
        #expect(ScreenText.fit("🛒 Shop", width: 4) == "🛒 …")
        #expect(ScreenText.fit("a🛒b", width: 2) == "a…")
        #expect(ScreenText.fit("🛒", width: 1) == "…")
        #expect(ScreenText.fit("✨", width: 4) == "✨  ")
    }

    @Test func wrapsWideCharactersWithinTheWidth() {
        let lines = ScreenText.wrapped(String(repeating: "🚀", count: 13), lead: "> ", width: 12)
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { ScreenText.width($0) <= 12 })
    }
}
