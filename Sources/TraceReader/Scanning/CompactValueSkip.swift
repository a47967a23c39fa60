@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) import TraceJSON

/// The fast path's skip of a value it does not read (`state`, `args`, `machine`, `patch`,
/// `stack`): a JSON value written as the recorder writes it, compact.
///
/// Design. The general skip (`JSONSyntax.skipValue`) takes any valid JSON: whitespace between
/// every two tokens, a stack of up to `JSONParser.maximumDepth` open containers, a sink told of
/// every token. A recorded value has no whitespace and little nesting, so this walk checks the
/// same grammar on a smaller language and gives up (returns false) at the first byte outside it:
///
/// - no whitespace anywhere (the recorder writes none); at most 64 open containers (one bit each
///   in a `UInt64`: object or array); the value must be followed by the end of the bytes or by a
///   byte that is not a letter, digit or `_` (the JSON scanner refuses `truex`);
/// - strings: plain ASCII runs are passed sixteen or eight bytes at a time
///   (`JSONScanner.skipPlainASCII`), and a string with an escape, a control byte or UTF-8 is
///   checked by the JSON scanner's own string rules (`JSONScanner.scanString`), so no string
///   grammar is written twice;
/// - numbers by the fast path's own `scanNumber`, which takes exactly the JSON number grammar.
///
/// So when this returns true, the general skip would have accepted the same bytes and ended at
/// the same offset (it reads the same grammar, and a JSON value's end is decided by its bytes);
/// when it returns false, the caller runs the general skip from the value's start, which then
/// finds the error, or the end of a value written with whitespace or deep nesting. It never
/// decides that a value is invalid. Every read is at an offset below `count` (checked before it).
///
/// Why not a SIMD classification of the line first (simdjson's stage 1)? The masks would save
/// little here: about 1,300 instructions of this whole scan of a recorded line of 230 bytes
/// (callgrind) are spent per token (about 20 to 40 each: the dispatch on a value's first byte,
/// the depth, a name's colon), which masks do not remove, and a state's strings are short. What
/// vectors do well, a string's run of plain bytes, they do: `JSONScanner.skipPlainASCII` reads
/// sixteen bytes at a time with SSE2 on x86-64 (2.6% fewer instructions for the whole
/// validation, 1.5% less CPU). A vector run of an `elapsed`'s digits took fewer instructions and
/// more time (6%): measured, not kept.
extension EventScanner.Cursor {
    /// Moves past the compact JSON value at `position` and returns true; returns false (the
    /// position then is anywhere) when the value is not in the compact form described above,
    /// valid or not.
    @inline(__always)
    mutating func skipCompactValue() -> Bool {
        var isObject: UInt64 = 0  // bit d: the container at depth d is an object
        var depth = 0
        while true {
            // A value starts at `position`.
            guard position < count else { return false }
            switch base[position] {
            case UInt8(ascii: "{"):
                guard depth < 64 else { return false }
                isObject |= 1 &<< UInt64(depth)
                depth &+= 1
                position &+= 1
                if position < count && base[position] == UInt8(ascii: "}") {
                    position &+= 1
                    depth &-= 1
                } else {
                    guard skipCompactName() else { return false }
                    continue
                }
            case UInt8(ascii: "["):
                guard depth < 64 else { return false }
                isObject &= ~(1 &<< UInt64(depth))
                depth &+= 1
                position &+= 1
                if position < count && base[position] == UInt8(ascii: "]") {
                    position &+= 1
                    depth &-= 1
                } else {
                    continue
                }
            case UInt8(ascii: "\""):
                guard skipCompactString() else { return false }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard scanNumber() else { return false }
            case UInt8(ascii: "t"):
                guard skipCompactLiteral(0x6575_7274, length: 4) else { return false }  // true
            case UInt8(ascii: "f"):
                // `false`: "alse" after the `f`.
                position &+= 1
                guard skipCompactLiteral(0x6573_6C61, length: 4) else { return false }
            case UInt8(ascii: "n"):
                guard skipCompactLiteral(0x6C6C_756E, length: 4) else { return false }  // null
            default:
                return false
            }
            // A value is complete: close containers until one goes on with `,`.
            while depth > 0 {
                guard position < count else { return false }
                let byte = base[position]
                let inObject = (isObject &>> UInt64(depth &- 1)) & 1 != 0
                position &+= 1
                if byte == UInt8(ascii: ",") {
                    if inObject { guard skipCompactName() else { return false } }
                    break
                }
                guard byte == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
                depth &-= 1
            }
            if depth == 0 {
                // The JSON scanner ends a top-level number or literal at any byte, and refuses a
                // literal followed by a letter, digit or `_`: leave both cases to it.
                return position >= count || !JSONScanner.isWordByte(base[position])
            }
        }
    }

    /// Where the compact JSON value at `offset` in `line` ends (`skipCompactValue`), or nil.
    ///
    /// The fast path's scan of a line calls this rather than `skipCompactValue` on its own cursor:
    /// a walk that is not inlined, given the cursor `inout`, made the scan keep its cursor in
    /// memory, so that each token of the line (an `elapsed` digit, a string's end) stored its
    /// position and loaded it again; here the walk has a cursor of its own, kept in registers.
    @inline(never)
    static func compactValueEnd(in line: ByteView, at offset: Int) -> Int? {
        var cursor = EventScanner.Cursor(line)
        cursor.position = offset
        return cursor.skipCompactValue() ? cursor.position : nil
    }

    /// Moves past `"name":` at `position`; false when it is not there in compact form.
    @inline(__always)
    private mutating func skipCompactName() -> Bool {
        guard position < count, base[position] == UInt8(ascii: "\""), skipCompactString(),
            position < count, base[position] == UInt8(ascii: ":")
        else { return false }
        position &+= 1
        return true
    }

    /// Moves past the valid string whose opening quote is at `position`; false when it is not
    /// valid (or not closed within the line).
    @inline(__always)
    private mutating func skipCompactString() -> Bool {
        // Most strings of a state are short: their closing quote is in the first block read.
        let offset = JSONScanner.skipPlainASCII(base, from: position &+ 1, count: count)
        if offset < count && base[offset] == UInt8(ascii: "\"") {
            position = offset &+ 1
            return true
        }
        return skipStringByTheRules()
    }

    /// An escape, a control byte, UTF-8, or the last bytes of the line: the JSON scanner's string
    /// rules decide, from the opening quote at `position`.
    @inline(__always)
    private mutating func skipStringByTheRules() -> Bool {
        guard let end = Self.stringEndByTheRules(line, quoteAt: position) else { return false }
        position = end
        return true
    }

    /// Where the valid string whose opening quote is at `offset` in `line` ends (past its closing
    /// quote), by the JSON scanner's string rules; nil when it is not valid. (Static, and given
    /// the line rather than the cursor: a call that took the cursor `inout` made the walks that
    /// might call it keep `position` in memory, storing and loading it again at every token.)
    @inline(never)
    private static func stringEndByTheRules(_ line: ByteView, quoteAt offset: Int) -> Int? {
        var scanner = JSONScanner(line, position: offset)
        guard (try? scanner.scanString()) != nil else { return nil }
        return scanner.position
    }

    /// Moves past the 4-byte `word` (little-endian) at `position`; false when it is not there.
    @inline(__always)
    private mutating func skipCompactLiteral(_ word: UInt32, length: Int) -> Bool {
        guard position &+ length <= count,
            line.loadUnaligned(at: position, as: UInt32.self) == UInt32(littleEndian: word)
        else { return false }
        position &+= length
        return true
    }
}
