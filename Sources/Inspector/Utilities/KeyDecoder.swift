/// Turns the bytes a terminal sends into keys: a pure function over what was read so far, so
/// that every sequence is tested without a terminal (`Terminal` reads the bytes).
enum KeyDecoder {
    /// What the bytes read so far start with.
    enum Outcome: Equatable {
        /// A key, made of the first `length` bytes.
        case key(Key, length: Int)
        /// The start of a sequence: read more (if more comes soon), else decode with `complete`.
        case incomplete
    }

    /// The longest escape sequence read; a longer one is dropped as an escape.
    static let longestSequence = 18

    /// The key at the start of `bytes`. With `complete` (nothing more came within a moment), a
    /// sequence that is cut short is an escape (or an ESC alone), never `incomplete`.
    static func decode(_ bytes: ArraySlice<UInt8>, complete: Bool = false) -> Outcome {
        guard let first = bytes.first else { return .incomplete }
        switch first {
        case 3: return .key(.interrupt, length: 1)
        case 9: return .key(.tab, length: 1)
        case 10, 13: return .key(.enter, length: 1)
        case 8, 127: return .key(.backspace, length: 1)
        case 26: return .key(.suspend, length: 1)
        case 27: return escape(bytes, complete: complete)
        case 0..<0x80: return .key(.character(Character(Unicode.Scalar(first))), length: 1)
        default: return utf8(bytes, complete: complete)
        }
    }

    /// ESC alone, or a CSI (`ESC [`) or SS3 (`ESC O`) sequence: arrows, Home/End, Page Up/Down.
    private static func escape(_ bytes: ArraySlice<UInt8>, complete: Bool) -> Outcome {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return complete ? .key(.escape, length: 1) : .incomplete }
        let introducer = bytes[start + 1]
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
            return .key(.escape, length: 1)
        }
        var parameters: [UInt8] = []
        var index = start + 2
        while index < bytes.endIndex {
            let byte = bytes[index]
            let length = index - start + 1
            if (0x40...0x7E).contains(byte) { return .key(final(byte, parameters), length: length) }
            parameters.append(byte)
            if length >= longestSequence { return .key(.escape, length: length) }
            index += 1
        }
        return complete ? .key(.escape, length: bytes.count) : .incomplete
    }

    private static func final(_ byte: UInt8, _ parameters: [UInt8]) -> Key {
        switch (byte, parameters) {
        case (UInt8(ascii: "A"), _): return .up
        case (UInt8(ascii: "B"), _): return .down
        case (UInt8(ascii: "C"), _): return .right
        case (UInt8(ascii: "D"), _): return .left
        case (UInt8(ascii: "H"), _): return .home
        case (UInt8(ascii: "F"), _): return .end
        case (UInt8(ascii: "~"), [UInt8(ascii: "1")]), (UInt8(ascii: "~"), [UInt8(ascii: "7")]): return .home
        case (UInt8(ascii: "~"), [UInt8(ascii: "4")]), (UInt8(ascii: "~"), [UInt8(ascii: "8")]): return .end
        case (UInt8(ascii: "~"), [UInt8(ascii: "5")]): return .pageUp
        case (UInt8(ascii: "~"), [UInt8(ascii: "6")]): return .pageDown
        default: return .escape
        }
    }

    /// A character of two to four bytes; a byte that cannot start one is an escape.
    private static func utf8(_ bytes: ArraySlice<UInt8>, complete: Bool) -> Outcome {
        let first = bytes[bytes.startIndex]
        let length: Int
        switch first {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return .key(.escape, length: 1)  // a byte that starts no character
        }
        guard bytes.count >= length else { return complete ? .key(.escape, length: bytes.count) : .incomplete }
        let text = String(decoding: bytes.prefix(length), as: UTF8.self)
        guard let character = text.first, text.count == 1, character != "\u{FFFD}" else {
            return .key(.escape, length: length)
        }
        return .key(.character(character), length: length)
    }
}
