/// The number grammar of RFC 8259, in one place:
///
///     number = [ "-" ] int [ frac ] [ exp ]
///     int    = "0" / ( digit1-9 *DIGIT )
///     frac   = "." 1*DIGIT
///     exp    = ( "e" / "E" ) [ "-" / "+" ] 1*DIGIT
///
/// So no leading `+`, no leading zeros (`01`), no `.5`, no `1.`, no `1e`, no NaN or Infinity.
/// Any number of digits is allowed: the text is kept as written, nothing is rounded here.
extension JSONScanner {
    /// Scans a number whose first byte (`-` or a digit) is at `position`; leaves `position`
    /// just past it.
    @inlinable @inline(__always)
    mutating func scanNumber() throws(JSONParseError) {
        var offset = position
        if base[offset] == UInt8(ascii: "-") {
            offset &+= 1
            guard offset < count else { throw endOfInput(expecting: "a digit after '-'") }
        }
        let first = base[offset]
        if first == UInt8(ascii: "0") {
            offset &+= 1
            if offset < count && JSONScanner.isDigit(base[offset]) {
                throw error("leading zeros are not allowed in numbers", at: offset &- 1)
            }
        } else if JSONScanner.isDigit(first) {
            offset &+= 1
            while offset < count && JSONScanner.isDigit(base[offset]) { offset &+= 1 }
        } else {
            throw unexpected(expecting: "a digit after '-'", at: offset)
        }
        if offset < count && base[offset] == UInt8(ascii: ".") {
            offset &+= 1
            guard offset < count && JSONScanner.isDigit(base[offset]) else {
                throw unexpected(expecting: "a digit after the decimal point", at: offset)
            }
            offset &+= 1
            while offset < count && JSONScanner.isDigit(base[offset]) { offset &+= 1 }
        }
        if offset < count && base[offset] | 0x20 == UInt8(ascii: "e") {
            offset &+= 1
            if offset < count && (base[offset] == UInt8(ascii: "+") || base[offset] == UInt8(ascii: "-")) {
                offset &+= 1
            }
            guard offset < count && JSONScanner.isDigit(base[offset]) else {
                throw unexpected(expecting: "a digit in the exponent", at: offset)
            }
            offset &+= 1
            while offset < count && JSONScanner.isDigit(base[offset]) { offset &+= 1 }
        }
        position = offset
    }

    @inlinable @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }
}
