@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) import TraceJSON

/// The token readers of the recorder's layout (`RecorderLayout.swift`, `CompactValueSkip.swift`):
/// each reads one token of the exact form the recorder writes and says "not here" (nil or false,
/// without moving) for anything else, valid or not, leaving the decision to the one JSON walker
/// (`JSONScanner.scanValue`, through `EventFieldsSink` or `JSONSyntax.skipValue`). None of them
/// reports an error: the grammar's errors are the walker's.
extension EventScanner {
    /// A position in the line being scanned.
    struct Cursor {
        let line: ByteView
        let base: UnsafePointer<UInt8>
        let count: Int
        var position = 0
        /// Whether the fast path (`RecorderLayout.swift`) skipped a value with a general skip,
        /// which takes whitespace between tokens, `\n` included: a scan whose line end is not
        /// known in advance (`scanRecorderLine`) must then check that it did not pass one.
        var tookGeneralSkip = false

        init(_ line: ByteView) {
            self.line = line
            // An empty buffer may have no address; it is then never read.
            self.base =
                line.unsafeBaseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 0x10)!
            self.count = line.count
        }

        @inline(__always)
        mutating func skipWhitespace() {
            position = JSONWhitespace.skip(base, from: position, to: count)
        }

        /// Scans the string whose opening quote is at `position`; returns its body.
        @inline(__always)
        mutating func scanStringValue() throws(JSONParseError) -> EventFields.Text {
            let start = position &+ 1
            var offset = start
            // Straight to the first quote, backslash, control byte or non-ASCII byte.
            offset = JSONScanner.skipPlainASCII(base, from: offset, count: count)
            while offset < count {
                let byte = base[offset]
                if byte == UInt8(ascii: "\"") {
                    position = offset &+ 1
                    return EventFields.Text(range: start..<offset, hasEscapes: false)
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
                offset &+= 1
            }
            // Escapes, non-ASCII or control bytes: let the JSON checker find the end or the error.
            let end = try JSONSyntax.skipValue(in: line, at: position)
            position = end
            var hasEscapes = false
            for index in start..<(end &- 1) where base[index] == UInt8(ascii: "\\") {
                hasEscapes = true
                break
            }
            return EventFields.Text(range: start..<(end &- 1), hasEscapes: hasEscapes)
        }

        /// Moves past a valid JSON number at `position` and returns true; returns false (and
        /// does not move) when there is none, to let the JSON checker say what is wrong.
        @inline(__always)
        mutating func scanNumber() -> Bool {
            var offset = position
            @inline(__always) func isDigit(_ offset: Int) -> Bool {
                offset < count && base[offset] &- UInt8(ascii: "0") < 10
            }
            if offset < count && base[offset] == UInt8(ascii: "-") { offset &+= 1 }
            guard isDigit(offset) else { return false }
            if base[offset] == UInt8(ascii: "0") {
                offset &+= 1
            } else {
                while isDigit(offset) { offset &+= 1 }
            }
            if offset < count && base[offset] == UInt8(ascii: ".") {
                offset &+= 1
                guard isDigit(offset) else { return false }
                while isDigit(offset) { offset &+= 1 }
            }
            if offset < count && (base[offset] | 0x20) == UInt8(ascii: "e") {
                offset &+= 1
                if offset < count && (base[offset] == UInt8(ascii: "+") || base[offset] == UInt8(ascii: "-")) {
                    offset &+= 1
                }
                guard isDigit(offset) else { return false }
                while isDigit(offset) { offset &+= 1 }
            }
            // A digit right after the number ("01") is not JSON: let the checker report it.
            if isDigit(offset) { return false }
            position = offset
            return true
        }

        /// Moves past `true` or `false` at `position` and returns true; returns false otherwise.
        @inline(__always)
        mutating func scanBoolean() -> Bool {
            if position &+ 4 <= count
                && UnsafeRawPointer(base + position).loadUnaligned(as: UInt32.self) == UInt32(littleEndian: 0x6575_7274)
            {
                position &+= 4  // true
                return true
            }
            if position &+ 5 <= count && base[position &+ 4] == UInt8(ascii: "e")
                && UnsafeRawPointer(base + position).loadUnaligned(as: UInt32.self) == UInt32(littleEndian: 0x736C_6166)
            {
                position &+= 5  // false
                return true
            }
            return false
        }

        /// Whether the valid JSON value in `range` is an array whose elements are all strings
        /// (`stack`). Leaves the cursor where it was.
        func isArrayOfStrings(_ range: Range<Int>) -> Bool {
            var cursor = self
            cursor.position = range.lowerBound
            guard cursor.position < range.upperBound, base[cursor.position] == UInt8(ascii: "[") else { return false }
            cursor.position &+= 1
            cursor.skipWhitespace()
            if cursor.position < range.upperBound && base[cursor.position] == UInt8(ascii: "]") { return true }
            while cursor.position < range.upperBound {
                guard base[cursor.position] == UInt8(ascii: "\""), (try? cursor.scanStringValue()) != nil else {
                    return false
                }
                cursor.skipWhitespace()
                guard cursor.position < range.upperBound else { return false }
                let byte = base[cursor.position]
                cursor.position &+= 1
                if byte == UInt8(ascii: "]") { return true }
                guard byte == UInt8(ascii: ",") else { return false }
                cursor.skipWhitespace()
            }
            return false
        }

        /// Reads an integer written without fraction or exponent that fits in `Int`, and moves
        /// past it; returns nil (and does not move) for anything else, valid JSON or not.
        @inline(__always)
        mutating func scanPlainInteger() -> Int? {
            var offset = position
            var negative = false
            if offset < count && base[offset] == UInt8(ascii: "-") {
                negative = true
                offset &+= 1
            }
            let digitsStart = offset
            var magnitude: UInt64 = 0
            // Up to 18 digits cannot overflow 64 bits: no check per digit (a `seq` has about 7),
            // and one bound for both limits.
            let unchecked = min(count, digitsStart &+ 18)
            while offset < unchecked {
                let digit = base[offset] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                magnitude = magnitude &* 10 &+ UInt64(digit)
                offset &+= 1
            }
            while offset < count {
                let digit = base[offset] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
                if overflow1 || overflow2 { return nil }
                magnitude = sum
                offset &+= 1
            }
            let digitCount = offset &- digitsStart
            guard digitCount > 0 else { return nil }
            // A leading zero ("01") is not JSON; a fraction or exponent is not an integer.
            if digitCount > 1 && base[digitsStart] == UInt8(ascii: "0") { return nil }
            if offset < count {
                let next = base[offset]
                if next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { return nil }
            }
            let value: Int
            if negative {
                guard magnitude <= UInt64(Int.max) &+ 1 else { return nil }
                value = magnitude == UInt64(Int.max) &+ 1 ? Int.min : -Int(magnitude)
            } else {
                guard magnitude <= UInt64(Int.max) else { return nil }
                value = Int(magnitude)
            }
            position = offset
            return value
        }
    }
}
