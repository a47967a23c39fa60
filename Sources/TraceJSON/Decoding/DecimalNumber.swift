@_spi(RewindInternals) package import RewindSupport

/// Reading a JSON number's bytes as a `Double` without making a `String`, for the `elapsed` of
/// every event (statistics, validation's clocks, reading events without their state, comparing
/// runs): `Double(String)` costs a String and `strtod` per event.
package enum DecimalNumber {
    /// The value of `bytes`, a JSON number, exactly as `Double(String(decoding: bytes, as: UTF8.self))`
    /// gives it.
    ///
    /// What the recorder writes (`1.645323`: digits, a point, digits) is read by `plainDecimal`;
    /// another short decimal on the decoder's fast path (`JSONDecodedNumber.shortDecimal`); both
    /// are Clinger's: one correctly rounded operation, as `strtod` is. Anything else goes
    /// through `Double(String)`.
    @inline(__always)
    package static func parse(_ bytes: UnsafeRawBufferPointer) -> Double? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        if let value = plainDecimal(base, count: bytes.count) { return value }
        return parseOther(bytes)
    }

    /// `parse` of the bytes of a trace line's member.
    @inline(__always)
    package static func parse(_ bytes: ByteView) -> Double? {
        parse(UnsafeRawBufferPointer(start: bytes.unsafeBaseAddress, count: bytes.count))
    }

    /// `parse` for what `plainDecimal` does not read.
    private static func parseOther(_ bytes: UnsafeRawBufferPointer) -> Double? {
        if let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
            let value = JSONDecodedNumber.shortDecimal(base, from: 0, to: bytes.count)
        {
            return value
        }
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    /// The value of the `count` bytes at `base` when they are digits, one `.` and digits, at
    /// most 15 digits in all (`elapsed` as the recorder writes it); nil for anything else.
    ///
    /// The digits without the point are an integer under 10^15 < 2^53, exact as a `Double`, and
    /// so is 10^k for the k digits after the point: their quotient, one correctly rounded
    /// division, is the correctly rounded value of the text, what `strtod` gives. The same
    /// operation as `JSONDecodedNumber.shortDecimal`, with one pass over the bytes and no
    /// exponent or sign to look for.
    @inline(__always)
    static func plainDecimal(_ base: UnsafePointer<UInt8>, count: Int) -> Double? {
        guard count >= 3 && count <= 16 else { return nil }
        var mantissa: UInt64 = 0
        var point = -1
        for index in 0..<count {
            let byte = base[index]
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
            } else if byte == UInt8(ascii: ".") && point < 0 {
                point = index
            } else {
                return nil
            }
        }
        // A digit before the point and one after it.
        guard point > 0 && point < count - 1 else { return nil }
        return Double(mantissa) / JSONDecodedNumber.powersOfTen[count - 1 - point]
    }
}
