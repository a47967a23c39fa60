import Testing
@_spi(RewindInternals) import ToolSupport

@testable import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct TerminalTextTests {
    @Test(arguments: [
        0x1B, 0x07, 0x7F, 0x85, 0x9B, 0x2028, 0x2029, 0x202A, 0x202E, 0x2066, 0x2069, 0x200B, 0x200F, 0x2060, 0xFEFF,
    ])
    func everyInvisibleOrControllingCharacterIsEscaped(value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        #expect(TerminalText.needsEscape(scalar))
        #expect(TerminalText.safe("a\(Character(scalar))b") == "a\\u{\(String(value, radix: 16))}b")
    }

    @Test func printableASCIIIsUnchangedAndEveryOtherASCIIByteEscaped() {
        for value in UInt32(0)..<0x80 {
            let scalar = Unicode.Scalar(value)!
            let text = "a\(Character(scalar))b"
            #expect((TerminalText.safe(text) == text) == !TerminalText.needsEscape(scalar), "\(value)")
        }
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

@Suite struct PathNameTests {
    @Test(arguments: [
        [UInt8](), Array("plain/path.jsonl".utf8), Array("café".utf8), [0x62, 0x61, 0x64, 0xFF, 0x2E],
        [0xC3], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x8F, 0xBE, 0x80, 0x41],
        [0xF0, 0x9F, 0x98, 0x80], [0x80, 0xBF, 0xFE],
    ])
    func everyNameRoundTripsByteForByte(bytes: [UInt8]) {
        let path = PathName.string(bytes)
        #expect(PathName.bytes(path) == bytes)
        PathName.withCString(path) { pointer in
            #expect(Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))) == bytes)
        }
    }

    @Test func validUTF8IsItsOwnTextAndOtherBytesShowAsHex() {
        #expect(PathName.string(Array("café.jsonl".utf8)) == "café.jsonl")
        #expect(TerminalText.safe(PathName.string([0x62, 0xFF, 0x0A])) == "b\\xFF\\n")
    }
}
