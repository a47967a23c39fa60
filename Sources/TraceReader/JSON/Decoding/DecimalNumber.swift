/// Reading a JSON number's bytes as a `Double` without making a `String`, for the `elapsed` of
/// every event (statistics, validation's clocks, reading events without their state, comparing
/// runs): `Double(String)` costs a String and `strtod` per event.
enum DecimalNumber {
    /// The value of `bytes`, a JSON number, exactly as `Double(String(decoding: bytes, as: UTF8.self))`
    /// gives it.
    ///
    /// A short decimal (`1.645323`, what the recorder writes) is read on the decoder's fast path
    /// (`JSONDecodedNumber.shortDecimal`, Clinger's: one correctly rounded operation, as `strtod`
    /// is); anything else goes through `Double(String)`.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Double? {
        if let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
            let value = JSONDecodedNumber.shortDecimal(base, from: 0, to: bytes.count)
        {
            return value
        }
        return Double(String(decoding: bytes, as: UTF8.self))
    }
}
