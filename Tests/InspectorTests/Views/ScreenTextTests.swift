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

/// Scrolling a line sideways and breaking a value at the width, by display columns (issue 20,
/// item 3): a wide character is never split, every character stays reachable.
@Suite struct ScreenTextColumnTests {
    @Test(arguments: ScreenTextTests.samples)
    func aLineSeenFromAColumnKeepsTheColumnsAfterIt(text: String) {
        let total = ScreenText.width(text)
        for column in 0...total + 2 {
            let line = ScreenText.from(column: column, of: text)
            #expect(ScreenText.width(line) == max(0, total - column), "\(text) from \(column): \(line)")
            if column > 0 && column < total { #expect(line.hasPrefix("…") || line.hasPrefix("\u{1B}")) }
        }
    }

    @Test func aWideCharacterCutByTheEdgeLeavesABlank() {
        #expect(ScreenText.from(column: 0, of: "🛒ab") == "🛒ab")
        #expect(ScreenText.from(column: 1, of: "🛒abc") == "…abc")
        #expect(ScreenText.from(column: 2, of: "🛒abc") == "…bc")
        #expect(ScreenText.from(column: 2, of: "ab漢字cd") == "… 字cd")
        #expect(ScreenText.from(column: 3, of: "ab漢字cd") == "…字cd")
        #expect(ScreenText.from(column: 5, of: "abc") == "")
        // A style set before the edge still applies after it.
        #expect(ScreenText.from(column: 2, of: "\u{1B}[1mabcd\u{1B}[0m") == "…\u{1B}[1md\u{1B}[0m")
    }

    @Test func aBrokenValueKeepsEveryCharacter() {
        let text = String(repeating: "word 漢字 🚀 ", count: 30)
        for width in [12, 40, 80] {
            let lines = ScreenText.wrapped(text, lead: "  ", width: width, atSpaces: false)
            #expect(lines.allSatisfy { ScreenText.width($0) <= width })
            #expect(lines.map { String($0.dropFirst(2)) }.joined() == text)
            #expect(lines.dropLast().allSatisfy { ScreenText.width($0) >= width - 1 })
        }
    }
}
