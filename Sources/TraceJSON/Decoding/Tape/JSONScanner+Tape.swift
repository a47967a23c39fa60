/// A faster walk for `JSONTapeDecoder`: the same structure as `scanValue(into:)`, with the
/// common tokens read inline (short ASCII strings found a word at a time) and the rest handed
/// to the shared rules (`scanString`, `scanNumber`, `scanLiteral`).
///
/// It only ever says "valid, here is the tape" or "not sure": on anything it does not accept
/// outright (an error, or input it leaves to the shared rules' error paths) it returns false,
/// and the caller walks the document again with `scanDocument(into:)`, which decides: the same
/// acceptance, errors and messages as `JSONParser`, by construction.
extension JSONScanner {
    /// Walks a whole document onto the tape; false when the document must be walked by
    /// `scanDocument(into:)` instead.
    mutating func scanTapeDocument(into tape: inout JSONTapeState) -> Bool {
        if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF { return false }
        guard scanTapeValue(into: &tape) else { return false }
        skipWhitespace()
        return position == count
    }

    /// One value and everything in it, without recursion (the depth limit is the parser's).
    /// The innermost container's member count and kind are kept here, in locals, and handed to
    /// the tape when containers open and close.
    private mutating func scanTapeValue(into tape: inout JSONTapeState) -> Bool {
        var depth = 0
        var members = 0  // of the innermost container, counting the value being read
        var inObject = false  // whether the innermost container is an object
        nextValue: while true {
            skipWhitespace()
            guard position < count else { return false }
            members &+= 1
            switch base[position] {
            case 0x7B, 0x5B:  // { [
                guard depth < JSONParser.maximumDepth else { return false }
                inObject = base[position] == 0x7B
                depth &+= 1
                position &+= 1
                tape.openContainer(inObject ? .object : .array, parentCount: members)
                members = 0
                skipWhitespace()
                guard position < count else { return false }
                if base[position] == (inObject ? 0x7D : 0x5D) {  // } or ]: empty
                    position &+= 1
                    depth &-= 1
                    (members, inObject) = tape.closeContainer(count: 0)
                } else {
                    if inObject {
                        guard scanTapeName(into: &tape) else { return false }
                    }
                    continue nextValue
                }
            case 0x22:  // "
                let start = position &+ 1
                guard let traits = scanTapeString() else { return false }
                tape.appendLeaf(
                    JSONTapeEntry(
                        .string, start: start, end: position &- 1, hasEscapes: traits & JSONScanner.escapesTrait != 0))
            case 0x2D, 0x30...0x39:  // - 0-9
                let start = position
                do { try scanNumber() } catch { return false }
                tape.appendLeaf(JSONTapeEntry(.number, start: start, end: position))
            case 0x74:  // t
                do { try scanLiteral("true") } catch { return false }
                tape.appendLeaf(JSONTapeEntry(.true, start: 0, end: 0))
            case 0x66:  // f
                do { try scanLiteral("false") } catch { return false }
                tape.appendLeaf(JSONTapeEntry(.false, start: 0, end: 0))
            case 0x6E:  // n
                do { try scanLiteral("null") } catch { return false }
                tape.appendLeaf(JSONTapeEntry(.null, start: 0, end: 0))
            default:
                return false
            }
            // A value is complete: close containers until one continues with ','.
            while depth > 0 {
                skipWhitespace()
                guard position < count else { return false }
                let byte = base[position]
                if byte == 0x2C {  // ,
                    position &+= 1
                    if inObject {
                        skipWhitespace()
                        guard scanTapeName(into: &tape) else { return false }
                    }
                    continue nextValue
                }
                guard byte == (inObject ? 0x7D : 0x5D) else { return false }  // } or ]
                position &+= 1
                depth &-= 1
                (members, inObject) = tape.closeContainer(count: members)
            }
            return true
        }
    }

    /// `"name"` `:` at `position`.
    @inline(__always)
    private mutating func scanTapeName(into tape: inout JSONTapeState) -> Bool {
        guard position < count, base[position] == 0x22 else { return false }
        let start = position &+ 1
        guard let traits = scanTapeString() else { return false }
        let end = position &- 1
        tape.appendName(
            from: start, to: end, prefix: prefixWord(at: start, length: end &- start),
            hasEscapes: traits & JSONScanner.escapesTrait != 0, isASCII: traits & JSONScanner.nonASCIITrait == 0)
        skipWhitespace()
        guard position < count, base[position] == 0x3A else { return false }  // :
        position &+= 1
        return true
    }

    /// A string whose opening quote is at `position`, leaving `position` past its closing quote.
    /// Runs of plain ASCII are skipped a block at a time (`JSONScanner.skipPlainASCII`: sixteen
    /// bytes with SSE2 on x86-64, eight elsewhere) up to the first byte that needs a look (a
    /// quote, a backslash, a control byte, non-ASCII), found in one step; escapes and
    /// UTF-8 sequences are checked by the shared rules (`scanEscape`, `scanUTF8Sequence`).
    /// Returns `escapesTrait` and `nonASCIITrait` as they apply; nil when the string is invalid.
    @inline(__always)
    private mutating func scanTapeString() -> UInt8? {
        var offset = position &+ 1
        var traits: UInt8 = 0
        while true {
            offset = JSONScanner.skipPlainASCII(base, from: offset, count: count)
            guard offset < count else { return nil }
            let byte = base[offset]
            if byte == UInt8(ascii: "\"") {
                position = offset &+ 1
                return traits
            } else if byte >= 0x80 {
                do { offset = try scanUTF8Sequence(at: offset) } catch { return nil }
                traits |= JSONScanner.nonASCIITrait
            } else if byte == UInt8(ascii: "\\") {
                do { offset = try scanEscape(at: offset) } catch { return nil }
                traits |= JSONScanner.escapesTrait
            } else if byte >= 0x20 {
                offset &+= 1  // the tail, fewer than 8 bytes before the end of the input
            } else {
                return nil  // a control byte
            }
        }
    }

    /// What `scanTapeString` found in a string.
    static let escapesTrait: UInt8 = 1
    static let nonASCIITrait: UInt8 = 2

    /// The first `min(length, 8)` bytes at `offset`, zero-padded, as one little-endian word.
    @inline(__always)
    func prefixWord(at offset: Int, length: Int) -> UInt64 {
        JSONScanner.prefixWord(base, count: count, at: offset, length: length)
    }

    /// The first `min(length, 8)` bytes at `offset` of the `count` bytes at `base`,
    /// zero-padded, as one little-endian word (one load when 8 bytes are there to read).
    @inline(__always)
    static func prefixWord(_ base: UnsafePointer<UInt8>, count: Int, at offset: Int, length: Int) -> UInt64 {
        if offset &+ 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
            return length >= 8 ? word : word & ((1 &<< UInt64(length &* 8)) &- 1)
        }
        var word: UInt64 = 0
        var index = 0
        while index < length && index < 8 {
            word |= UInt64(base[offset &+ index]) &<< UInt64(index &* 8)
            index &+= 1
        }
        return word
    }
}
