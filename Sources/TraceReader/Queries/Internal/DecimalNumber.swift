/// Reading a JSON number's bytes as a `Double` without making a `String`, for the `elapsed` of
/// every event (`TraceStatistics`): `Double(String)` costs a String and `strtod` per event.
enum DecimalNumber {
    /// The powers of ten that a `Double` holds exactly.
    private static let exactPowersOfTen: [Double] = (0...22).map { power in
        (0..<power).reduce(1.0) { value, _ in value * 10 }
    }

    /// The value of `bytes`, a JSON number, exactly as `Double(String(decoding: bytes, as: UTF8.self))`
    /// gives it.
    ///
    /// A number of at most 15 or so digits without an exponent (`1.645323`, what the recorder
    /// writes) is read on the fast path of Clinger (1990): its digits make an integer `m` below
    /// 2^53 and it has `k` ≤ 22 decimals, so `m` and 10^k are exact `Double`s and the one
    /// division `m / 10^k` is correctly rounded, as `strtod` is. Anything else goes to `strtod`.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Double? {
        var index = 0
        let negative = !bytes.isEmpty && bytes[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: UInt64 = 0
        var decimals = 0
        var seenPoint = false
        var seenDigit = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                if mantissa > 1 << 53 { return slow(bytes) }
                if seenPoint { decimals += 1 }
                seenDigit = true
            } else if byte == UInt8(ascii: ".") && !seenPoint {
                seenPoint = true
            } else {
                return slow(bytes)  // an exponent, or not a number
            }
            index += 1
        }
        guard seenDigit, decimals < exactPowersOfTen.count else { return slow(bytes) }
        let value = Double(mantissa) / exactPowersOfTen[decimals]
        return negative ? -value : value
    }

    private static func slow(_ bytes: UnsafeRawBufferPointer) -> Double? {
        Double(String(decoding: bytes, as: UTF8.self))
    }
}
