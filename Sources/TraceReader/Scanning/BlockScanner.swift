/// The first path of `EventScanner`: one event line read 64 bytes at a time (`ByteBlock`), as
/// simdjson reads JSON. Each block is classified once with vector instructions; bit tricks find
/// the escaped bytes (`ByteBlock.escaped`), the strings (a prefix XOR of the unescaped quotes)
/// and the tokens: operators outside strings, quotes, and the first byte of each number or
/// literal. The grammar is then checked token by token, never byte by byte: a string is its two
/// quotes, whatever its length, and its bytes need no look beyond the block's classes.
///
/// The line is checked as strictly as by the general scan, and the fields come out the same (a
/// test compares them on every kind of line). This path reads the common line only: printable
/// ASCII and spaces (a block with no byte below 0x20 or above 0x7F needs no UTF-8 or control
/// byte check), escapes other than `\u`, nesting up to 64 levels, each member of the format
/// once. For any other line, and for every line that is not valid, it returns false and the
/// byte-by-byte scans read the line from its start, with their exact messages.
struct BlockScanner {
    private let line: UnsafeRawBufferPointer
    private let base: UnsafePointer<UInt8>
    private let count: Int
    /// The start of the block whose tokens are in `tokens`, and of the next one.
    private var blockStart = 0
    private var nextBlock = 0
    /// The tokens of the current block not taken yet.
    private var tokens: UInt64 = 0
    /// All ones when the previous block ended inside a string.
    private var inString: UInt64 = 0
    /// 1 when the previous block's last byte escapes this block's first (`ByteBlock.escaped`).
    private var escapeCarry: UInt64 = 0
    /// 1 when the previous block's last byte was part of a number or literal.
    private var scalarCarry: UInt64 = 0
    /// Whether the line holds a backslash (so that strings are searched for escapes).
    private var hasBackslashes = false
    /// Whether a block holds what this path leaves to the byte scans.
    private var declined = false

    private init(_ line: UnsafeRawBufferPointer) {
        self.line = line
        base = line.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 0x10)!
        count = line.count
    }

    /// Reads `line` into `fields` (empty on entry) and returns true when the line is a valid JSON
    /// object that this path reads; false otherwise (`fields` then holds a part of it).
    static func scan(_ line: UnsafeRawBufferPointer, into fields: inout EventFields) -> Bool {
        var scanner = BlockScanner(line)
        return scanner.scanEvent(into: &fields)
    }

    // MARK: Tokens

    /// Classifies the next block; false at the end of the line, or when it is declined.
    @inline(__always)
    private mutating func loadBlock() -> Bool {
        guard nextBlock < count, !declined else { return false }
        let remaining = count &- nextBlock
        let block: ByteBlock
        if remaining >= 64 {
            block = ByteBlock(UnsafeRawPointer(base + nextBlock))
        } else {
            // The last bytes, padded with spaces (the line's buffer may end right after them).
            var padded = SIMD64<UInt8>(repeating: 0x20)
            withUnsafeMutableBytes(of: &padded) {
                $0.baseAddress!.copyMemory(from: base + nextBlock, byteCount: remaining)
            }
            block = withUnsafeBytes(of: &padded) { ByteBlock($0.baseAddress!) }
        }
        guard block.unusual == 0 else {
            declined = true
            return false
        }
        var quotes = block.quotes
        if block.backslashes != 0 || escapeCarry != 0 {
            hasBackslashes = true
            let escaped = ByteBlock.escaped(block.backslashes, carry: &escapeCarry)
            quotes &= ~escaped
            let strings = ByteBlock.prefixXOR(quotes) ^ inString
            guard checkEscapes(escaped, inStrings: strings) else {
                declined = true
                return false
            }
        }
        // From each opening quote up to its closing quote (not included).
        let strings = ByteBlock.prefixXOR(quotes) ^ inString
        inString = UInt64(bitPattern: Int64(bitPattern: strings) &>> 63)
        let outside = ~(strings | quotes)
        let scalars = outside & ~block.operators & ~block.spaces
        let scalarStarts = scalars & ~(scalars &<< 1 | scalarCarry)
        scalarCarry = scalars &>> 63
        tokens = (block.operators & outside) | quotes | scalarStarts
        blockStart = nextBlock
        nextBlock &+= 64
        return true
    }

    /// Whether each escaped byte of the block is in a string and one of `"\/bfnrt` (a `\u`
    /// escape, which may be half of a surrogate pair, is left to the byte scans).
    private func checkEscapes(_ escaped: UInt64, inStrings strings: UInt64) -> Bool {
        guard escaped & ~strings == 0 else { return false }
        var bits = escaped
        while bits != 0 {
            let offset = nextBlock &+ bits.trailingZeroBitCount
            bits &= bits &- 1
            guard offset < count else { return false }
            switch base[offset] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                continue
            default:
                return false
            }
        }
        return true
    }

    /// The offset of the next token, or `count` at the end of the line (or when declined).
    @inline(__always)
    private mutating func next() -> Int {
        while tokens == 0 {
            guard loadBlock() else { return count }
        }
        let offset = blockStart &+ tokens.trailingZeroBitCount
        tokens &= tokens &- 1
        return offset
    }

    // MARK: Grammar

    private static let openBrace = UInt8(ascii: "{")
    private static let closeBrace = UInt8(ascii: "}")
    private static let openBracket = UInt8(ascii: "[")
    private static let closeBracket = UInt8(ascii: "]")
    private static let quote = UInt8(ascii: "\"")
    private static let colon = UInt8(ascii: ":")
    private static let comma = UInt8(ascii: ",")

    private mutating func scanEvent(into fields: inout EventFields) -> Bool {
        var token = next()
        guard token < count, base[token] == Self.openBrace else { return false }
        token = next()
        guard token < count else { return false }
        if base[token] != Self.closeBrace {
            while true {
                // A member: its name's quotes, the colon, its value.
                guard base[token] == Self.quote else { return false }
                let close = next()
                guard close < count, base[close] == Self.quote else { return false }
                let colon = next()
                guard colon < count, base[colon] == Self.colon else { return false }
                let value = next()
                guard value < count, let end = skipValue(at: value) else { return false }
                let nameRange = (token &+ 1)..<close
                if hasBackslashes && contains(Self.backslash, in: nameRange) { return false }
                if nameRange.count <= 8,
                    let packed = EventScanner.pack(UnsafeRawBufferPointer(rebasing: line[nameRange])),
                    let key = EventScanner.key(packed: packed)
                {
                    // A member of the format written twice: the general scan says which wins.
                    guard (fields.present.bits | fields.wrongTypes.bits) & (1 &<< key.rawValue) == 0 else {
                        return false
                    }
                    keep(key, value..<end, in: &fields)
                }
                token = next()
                guard token < count else { return false }
                if base[token] == Self.comma {
                    token = next()
                    guard token < count else { return false }
                    continue
                }
                guard base[token] == Self.closeBrace else { return false }
                break
            }
        }
        // Nothing but spaces after the object.
        return next() == count && !declined
    }

    private static let backslash = UInt8(ascii: "\\")

    /// Whether `byte` is in `range` of the line.
    private func contains(_ byte: UInt8, in range: Range<Int>) -> Bool {
        for offset in range where base[offset] == byte { return true }
        return false
    }

    /// Keeps the value of a member of the format, as `EventScanner.Cursor.scanMember` does.
    @inline(__always)
    private func keep(_ key: EventFields.Key, _ range: Range<Int>, in fields: inout EventFields) {
        let first = base[range.lowerBound]
        switch key {
        case .type, .store, .action, .caseName, .from, .to, .source:
            if first == Self.quote {
                let body = (range.lowerBound &+ 1)..<(range.upperBound &- 1)
                fields.setText(
                    EventFields.Text(range: body, hasEscapes: hasBackslashes && contains(Self.backslash, in: body)),
                    for: key)
                fields.present.insert(key)
            } else {
                fields.wrongTypes.insert(key)
            }
        case .seq, .cause, .step:
            var cursor = EventScanner.Cursor(line)
            cursor.position = range.lowerBound
            if let integer = cursor.scanPlainInteger(), cursor.position == range.upperBound {
                if key == .seq { fields.seq = integer } else if key == .cause { fields.cause = integer }
                fields.present.insert(key)
            } else {
                fields.wrongTypes.insert(key)
            }
        case .elapsed:
            if first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) {
                fields.elapsedRange = range
                fields.present.insert(key)
            } else {
                fields.wrongTypes.insert(key)
            }
        case .changed:
            if first == UInt8(ascii: "t") || first == UInt8(ascii: "f") {
                fields.changed = first == UInt8(ascii: "t")
                fields.present.insert(key)
            } else {
                fields.wrongTypes.insert(key)
            }
        case .state:
            fields.stateRange = range
            fields.present.insert(key)
        case .args, .machine:
            if first == Self.openBrace {
                if key == .args { fields.argsRange = range } else { fields.machineRange = range }
                fields.present.insert(key)
            } else {
                fields.wrongTypes.insert(key)
            }
        case .trace:
            if first == Self.quote { fields.present.insert(key) } else { fields.wrongTypes.insert(key) }
        case .stack:
            if EventScanner.Cursor(line).isArrayOfStrings(range) {
                fields.present.insert(key)
            } else {
                fields.wrongTypes.insert(key)
            }
        case .patch:
            fields.patchRange = range
            fields.present.insert(key)
        }
    }

    /// Checks the value whose first token is at `start` and returns the offset just past it; nil
    /// when it is not valid (or not read by this path).
    @inline(__always)
    private mutating func skipValue(at start: Int) -> Int? {
        let byte = base[start]
        if byte == Self.quote {
            let close = next()
            guard close < count, base[close] == Self.quote else { return nil }
            return close &+ 1
        }
        if byte == Self.openBrace || byte == Self.openBracket { return skipContainer(at: start) }
        return scalarEnd(at: start)
    }

    /// The end of the number, `true`, `false` or `null` at `start`; nil when there is none, or
    /// when it runs on into other bytes (`12x`).
    @inline(__always)
    private func scalarEnd(at start: Int) -> Int? {
        var cursor = EventScanner.Cursor(line)
        cursor.position = start
        let byte = base[start]
        if byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) {
            guard cursor.scanNumber() else { return nil }
        } else if byte == UInt8(ascii: "t") || byte == UInt8(ascii: "f") {
            guard cursor.scanBoolean() else { return nil }
        } else if byte == UInt8(ascii: "n") {
            guard start &+ 4 <= count, base[start &+ 1] == UInt8(ascii: "u"), base[start &+ 2] == UInt8(ascii: "l"),
                base[start &+ 3] == UInt8(ascii: "l")
            else { return nil }
            cursor.position = start &+ 4
        } else {
            return nil
        }
        let end = cursor.position
        guard end < count else { return end }
        switch base[end] {
        case 0x20, Self.comma, Self.colon, Self.closeBrace, Self.closeBracket, Self.openBrace, Self.openBracket,
            Self.quote:
            return end
        default:
            return nil
        }
    }

    /// Checks the object or array whose opening token is at `start`, and everything in it;
    /// returns the offset just past its closing token.
    private mutating func skipContainer(at start: Int) -> Int? {
        var objects: UInt64 = 0  // bit d: the container at depth d + 1 is an object
        var depth = 0
        var token = start
        var end = 0
        while true {
            // A value starts at `token`.
            let byte = base[token]
            if byte == Self.openBrace || byte == Self.openBracket {
                guard depth < 64 else { return nil }
                let isObject = byte == Self.openBrace
                objects = objects &<< 1 | (isObject ? 1 : 0)
                depth &+= 1
                token = next()
                guard token < count else { return nil }
                if base[token] == (isObject ? Self.closeBrace : Self.closeBracket) {
                    end = token &+ 1
                    depth &-= 1
                    objects &>>= 1
                } else {
                    if isObject {
                        guard let value = member(at: token) else { return nil }
                        token = value
                    }
                    continue
                }
            } else if byte == Self.quote {
                let close = next()
                guard close < count, base[close] == Self.quote else { return nil }
                end = close &+ 1
            } else {
                guard let scalar = scalarEnd(at: token) else { return nil }
                end = scalar
            }
            // After a value: a comma and the next element, or the closing token of its container.
            while true {
                if depth == 0 { return end }
                token = next()
                guard token < count else { return nil }
                let inObject = objects & 1 != 0
                if base[token] == Self.comma {
                    token = next()
                    guard token < count else { return nil }
                    if inObject {
                        guard let value = member(at: token) else { return nil }
                        token = value
                    }
                    break
                }
                guard base[token] == (inObject ? Self.closeBrace : Self.closeBracket) else { return nil }
                end = token &+ 1
                depth &-= 1
                objects &>>= 1
            }
        }
    }

    /// Reads a member's name (its quotes at `start`) and colon; returns its value's first token.
    @inline(__always)
    private mutating func member(at start: Int) -> Int? {
        guard base[start] == Self.quote else { return nil }
        let close = next()
        guard close < count, base[close] == Self.quote else { return nil }
        let colon = next()
        guard colon < count, base[colon] == Self.colon else { return nil }
        let value = next()
        return value < count ? value : nil
    }
}
