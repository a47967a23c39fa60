/// Reading the value of a JSON number's text exactly, without rounding through `Double`.
enum JSONNumberText {
    /// A number as sign × digits × 10^exponent, with no leading or trailing zero in `digits`
    /// (zero has no digits and is never negative), so equal values have equal decimals.
    struct Decimal: Equatable {
        var isNegative: Bool
        var digits: [UInt8]
        var exponent: Int
    }

    /// The exact decimal value of a JSON number text, or nil when the text is not one.
    /// Exponents beyond ±10^15 are clamped there (no real number text gets that far).
    static func decimal(_ text: String) -> Decimal? {
        var text = text
        var digits: [UInt8] = []
        let sign = text.withUTF8 { canonical(UnsafeRawBufferPointer($0), digits: &digits) }
        guard let sign else { return nil }
        return Decimal(isNegative: sign.isNegative, digits: digits, exponent: sign.exponent)
    }

    /// The exact decimal value of the number text `text` (loosely checked, nil for what is not a
    /// number), as `Decimal` keeps it: its significant digits replace `digits`; the sign and
    /// exponent are returned. Reuses `digits`'s memory, so comparing or hashing many numbers
    /// allocates nothing.
    static func canonical(_ text: UnsafeRawBufferPointer, digits: inout [UInt8]) -> (isNegative: Bool, exponent: Int)? {
        digits.removeAll(keepingCapacity: true)
        var isNegative = false
        var fractionDigits = 0
        var exponent = 0
        var exponentIsNegative = false
        var state = 0  // 0 sign, 1 integer digits, 2 fraction digits, 3 exponent sign, 4 exponent digits
        var sawDigit = false
        for byte in text {
            switch (state, byte) {
            case (0, UInt8(ascii: "-")) where !isNegative && !sawDigit:
                isNegative = true
            case (0...2, UInt8(ascii: "0")...UInt8(ascii: "9")):
                if state == 0 { state = 1 }
                if state == 2 { fractionDigits += 1 }
                if !digits.isEmpty || byte != UInt8(ascii: "0") { digits.append(byte) }
                sawDigit = true
            case (1, UInt8(ascii: ".")):
                state = 2
            case (1...2, UInt8(ascii: "e")), (1...2, UInt8(ascii: "E")):
                state = 3
            case (3, UInt8(ascii: "+")), (3, UInt8(ascii: "-")):
                exponentIsNegative = byte == UInt8(ascii: "-")
                state = 4
            case (3...4, UInt8(ascii: "0")...UInt8(ascii: "9")):
                state = 4
                exponent = min(exponent * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000_000_000_000)
            default:
                return nil
            }
        }
        guard sawDigit, state != 3 else { return nil }
        if exponentIsNegative { exponent = -exponent }
        exponent -= fractionDigits
        while let last = digits.last, last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        if digits.isEmpty { return (false, 0) }
        return (isNegative, exponent)
    }

    /// Whether `text` is exactly one number of the JSON grammar (see `JSONScanner+Number`).
    static func isNumber(_ text: UnsafeRawBufferPointer) -> Bool {
        guard let first = text.first, first == UInt8(ascii: "-") || JSONScanner.isDigit(first) else { return false }
        var scanner = JSONScanner(text)
        do { try scanner.scanNumber() } catch { return false }
        return scanner.position == text.count
    }

    /// The value of a number text written as a plain integer (`-?[0-9]+`) that fits in `Int`.
    static func plainInteger(_ text: String) -> Int? {
        var utf8 = text.utf8.makeIterator()
        guard var byte = utf8.next() else { return nil }
        let isNegative = byte == UInt8(ascii: "-")
        if isNegative {
            guard let next = utf8.next() else { return nil }
            byte = next
        }
        var magnitude: UInt64 = 0
        while true {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1 && !overflow2 else { return nil }
            magnitude = sum
            guard let next = utf8.next() else { break }
            byte = next
        }
        if isNegative {
            return magnitude <= UInt64(Int.max) + 1 ? Int(truncatingIfNeeded: 0 &- magnitude) : nil
        }
        return magnitude <= UInt64(Int.max) ? Int(magnitude) : nil
    }

    /// What a number text holds as an integer.
    enum IntegerReading {
        /// An integer, with its magnitude limited to 64 bits (a sign and a magnitude, since
        /// `Int128` needs iOS 18 and macOS 15).
        case integer(isNegative: Bool, magnitude: UInt64)
        /// A number with a fractional part, such as `1.5` or `1e-3`.
        case fraction
        /// An integer whose magnitude needs more than 64 bits.
        case tooLarge
        /// Not a JSON number text.
        case invalid
    }

    /// The exact integer value of a number text, which may be written with a fraction or an
    /// exponent when its value is whole (`1.0`, `1e2`), as `JSONDecoder` accepts.
    static func integer(_ text: String) -> IntegerReading {
        if let value = plainInteger(text) { return .integer(isNegative: value < 0, magnitude: UInt64(value.magnitude)) }
        guard let decimal = decimal(text) else { return .invalid }
        if decimal.digits.isEmpty { return .integer(isNegative: false, magnitude: 0) }
        guard decimal.exponent >= 0 else { return .fraction }
        guard decimal.digits.count + decimal.exponent <= 20 else { return .tooLarge }
        var magnitude: UInt64 = 0
        for digit in decimal.digits + [UInt8](repeating: UInt8(ascii: "0"), count: decimal.exponent) {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            guard !overflow1 && !overflow2 else { return .tooLarge }
            magnitude = sum
        }
        return .integer(isNegative: decimal.isNegative && magnitude != 0, magnitude: magnitude)
    }
}
