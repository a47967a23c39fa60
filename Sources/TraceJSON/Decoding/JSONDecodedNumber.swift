/// Turning a JSON number's text into the Swift number a decoder was asked for, exactly,
/// with the same results and messages wherever the decoder reads one.
///
/// Integers must be whole and in range: `1.0` and `1e2` are whole (as `JSONDecoder` reads them),
/// `1.5` is not, `300` is no `Int8`. Floating-point values are the nearest to the text; a text
/// beyond the type's range (`1e400` for `Double`) is an error, not infinity.
enum JSONDecodedNumber {
    /// The value of the number text at `start..<end` of `base`, or why it is no `T`.
    @inline(__always)
    static func integer<T: FixedWidthInteger>(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, as type: T.Type
    ) -> Result<T, Problem> {
        if let plain = plainInteger(base, from: start, to: end) {
            if plain.isNegative {
                if plain.magnitude <= UInt64(Int64.max) &+ 1,
                    let value = T(exactly: Int64(bitPattern: 0 &- plain.magnitude))
                {
                    return .success(value)
                }
            } else if let value = T(exactly: plain.magnitude) {
                return .success(value)
            }
        }
        return integer(
            String(decoding: UnsafeBufferPointer(start: base + start, count: end &- start), as: UTF8.self), as: T.self)
    }

    /// The value of a number text, or why it is no `T`: the slow path, for any spelling.
    static func integer<T: FixedWidthInteger>(_ text: String, as type: T.Type) -> Result<T, Problem> {
        if let plain = JSONNumberText.plainInteger(text), let integer = T(exactly: plain) { return .success(integer) }
        switch JSONNumberText.integer(text) {
        case .integer(let isNegative, let magnitude):
            if !isNegative, let exact = T(exactly: magnitude) { return .success(exact) }
            // -magnitude is T's when magnitude - 1 is: down to T.min, one past -T.max.
            if isNegative, T.isSigned, let below = T(exactly: magnitude - 1) { return .success(0 - below - 1) }
            return .failure(Problem(text: text, reason: "does not fit in \(T.self)"))
        case .tooLarge:
            return .failure(Problem(text: text, reason: "does not fit in \(T.self)"))
        case .fraction:
            return .failure(Problem(text: text, reason: "is not a whole number, so it is no \(T.self)"))
        case .invalid:
            return .failure(Problem(text: text, reason: "is not a valid number"))
        }
    }

    /// The nearest `T` to the number text at `start..<end` of `base`, or why there is none.
    @inline(__always)
    static func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, as type: T.Type
    ) -> Result<T, Problem> {
        if T.self == Double.self, let value = shortDecimal(base, from: start, to: end) {
            return .success(knownTypeCast(value, to: T.self))
        }
        return floatingPoint(
            String(decoding: UnsafeBufferPointer(start: base + start, count: end &- start), as: UTF8.self), as: T.self)
    }

    /// The nearest `T` to a number text: the slow path, through the C library's correctly
    /// rounded conversion.
    static func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ text: String, as type: T.Type)
        -> Result<T, Problem>
    {
        guard let number = T(text), number.isFinite else {
            return .failure(Problem(text: text, reason: "does not fit in \(T.self)"))
        }
        return .success(number)
    }

    /// Why a number text is not the number asked for: "Parsed JSON number <1.5> is not a whole
    /// number, so it is no Int."
    package struct Problem: Error {
        var text: String
        var reason: String

        var message: String { "Parsed JSON number <\(text)> \(reason)." }
    }

    // MARK: Fast paths

    /// A text of the form `-?[0-9]{1,19}` as sign and magnitude (19 digits cannot overflow
    /// 64 bits); nil for anything else, which the slow path then reads.
    @inline(__always)
    static func plainInteger(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> (
        isNegative: Bool, magnitude: UInt64
    )? {
        var offset = start
        let isNegative = offset < end && base[offset] == UInt8(ascii: "-")
        if isNegative { offset &+= 1 }
        let digits = end &- offset
        guard digits > 0 && digits <= 19 else { return nil }
        var magnitude: UInt64 = 0
        while offset < end {
            let digit = base[offset] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            magnitude = magnitude &* 10 &+ UInt64(digit)
            offset &+= 1
        }
        return (isNegative, magnitude)
    }

    /// Exact powers of ten in `Double`: 10^0 through 10^22.
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The `Double` nearest to a number text whose significant digits fit in 2^53 and whose
    /// decimal exponent is within ±22, computed as one exact integer times or divided by one
    /// exact power of ten: a single correctly rounded operation, so the result is the correctly
    /// rounded value of the text (Clinger's fast path). That covers what `Double.description`
    /// writes for everyday values (`9.99`, `0.1`, `-2.5E-3`, `1234.5678`). Nil for other texts,
    /// which the slow path reads.
    static func shortDecimal(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Double? {
        var offset = start
        let isNegative = offset < end && base[offset] == UInt8(ascii: "-")
        if isNegative { offset &+= 1 }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        var sawDigit = false
        while offset < end, case let digit = base[offset] &- UInt8(ascii: "0"), digit < 10 {
            mantissa = mantissa &* 10 &+ UInt64(digit)
            if mantissa != 0 { significantDigits &+= 1 }
            sawDigit = true
            offset &+= 1
        }
        if offset < end && base[offset] == UInt8(ascii: ".") {
            offset &+= 1
            while offset < end, case let digit = base[offset] &- UInt8(ascii: "0"), digit < 10 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
                if mantissa != 0 { significantDigits &+= 1 }
                exponent &-= 1
                offset &+= 1
            }
        }
        guard sawDigit, significantDigits <= 19 else { return nil }
        if offset < end && base[offset] | 0x20 == UInt8(ascii: "e") {
            offset &+= 1
            let negativeExponent = offset < end && base[offset] == UInt8(ascii: "-")
            if offset < end && (base[offset] == UInt8(ascii: "-") || base[offset] == UInt8(ascii: "+")) { offset &+= 1 }
            var written = 0
            var exponentDigits = 0
            while offset < end, case let digit = base[offset] &- UInt8(ascii: "0"), digit < 10 {
                written = written &* 10 &+ Int(digit)
                exponentDigits &+= 1
                offset &+= 1
            }
            guard exponentDigits > 0 && exponentDigits <= 4 else { return nil }
            exponent &+= negativeExponent ? -written : written
        }
        guard offset == end else { return nil }
        if mantissa == 0 { return isNegative ? -0.0 : 0.0 }
        guard mantissa <= 1 << 53, exponent >= -22 && exponent <= 22 else { return nil }
        let value = exponent < 0 ? Double(mantissa) / powersOfTen[-exponent] : Double(mantissa) * powersOfTen[exponent]
        return isNegative ? -value : value
    }
}
