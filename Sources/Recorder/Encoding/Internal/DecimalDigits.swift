/// A JSON number as its sign, its significant digits and a power of ten: `-1.25e3` is negative,
/// digits 1 2 5, exponent 1. Leading zeros are dropped; zero has no digits.
struct DecimalDigits {
    var isNegative = false
    /// Each digit's value, 0–9, most significant first.
    var digits: [UInt8] = []
    var exponent = 0

    init?(_ text: UnsafeRawBufferPointer) {
        var index = 0
        func byte() -> UInt8? { index < text.count ? text[index] : nil }
        if byte() == UInt8(ascii: "-") {
            isNegative = true
            index += 1
        }
        var sawDigit = false
        var sawPoint = false
        while let current = byte() {
            if current >= UInt8(ascii: "0") && current <= UInt8(ascii: "9") {
                sawDigit = true
                if !(digits.isEmpty && current == UInt8(ascii: "0")) { digits.append(current - UInt8(ascii: "0")) }
                if sawPoint { exponent -= 1 }
            } else if current == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else {
                break
            }
            index += 1
        }
        guard sawDigit else { return nil }
        if let marker = byte(), marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            index += 1
            var negativeExponent = false
            if let sign = byte(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                negativeExponent = sign == UInt8(ascii: "-")
                index += 1
            }
            var value = 0
            var sawExponentDigit = false
            while let current = byte(), current >= UInt8(ascii: "0") && current <= UInt8(ascii: "9") {
                value = min(value * 10 + Int(current - UInt8(ascii: "0")), 100_000)
                sawExponentDigit = true
                index += 1
            }
            guard sawExponentDigit else { return nil }
            exponent += negativeExponent ? -value : value
        }
        guard index == text.count else { return nil }
        if digits.isEmpty { exponent = 0 }
    }
}
