import TestSupport
import Testing

@testable import TraceJSON

@Suite struct DecimalNumberTests {
    /// The fast path gives what `Double(String)` gives, bit for bit, on seeded random numbers
    /// of every shape: few and many digits, signs, exponents, leading zeros, and not numbers.
    @Test func agreesWithDoubleFromString() {
        var random = SeededGenerator(seed: 21)
        var texts = [
            "0", "-0", "0.0", "1", "1.645323", "9007199254740993", "0.1", "1e3", "-2.5E-3", "", "-", ".", "1.2.3",
        ]
        for _ in 0..<20_000 {
            let whole = String(
                UInt64.random(in: 0...UInt64.max, using: &random) >> UInt64.random(in: 0...63, using: &random))
            let fraction = String(
                (0..<Int.random(in: 0...24, using: &random)).map { _ in
                    Character(String(Int.random(in: 0...9, using: &random)))
                })
            var text = (Bool.random(using: &random) ? "-" : "") + whole
            if !fraction.isEmpty { text += "." + fraction }
            if Int.random(in: 0..<10, using: &random) == 0 { text += "e\(Int.random(in: -30...30, using: &random))" }
            texts.append(text)
        }
        for text in texts {
            let expected = Double(text)
            let found = Array(text.utf8).withUnsafeBytes { DecimalNumber.parse($0) }
            #expect(found?.bitPattern == expected?.bitPattern, "\(text)")
        }
    }

    /// Numbers as the recorder writes `elapsed` (`plainDecimal`'s shape: up to 15 digits, a point
    /// anywhere among them, trailing and leading zeros) and near misses read the same as
    /// `Double(String)`, bit for bit.
    @Test func recorderDecimalsAgreeWithDoubleFromString() {
        var random = SeededGenerator(seed: 22)
        var texts = [
            "0.000001", "0.0", "00.5", "1.0", "123456789.123456", "99999999999999.9", "9.99999999999999",
            "999999999999999.9", "1.", ".5", "1..2", "1.2e3", "-1.5", "1.5 ", "0.1234567890123456", "12a.4",
        ]
        for _ in 0..<100_000 {
            let digits = Int.random(in: 2...17, using: &random)
            var text = String(
                (0..<digits).map { _ in
                    Character(String(Int.random(in: 0...9, using: &random)))
                })
            if Int.random(in: 0..<3, using: &random) == 0 { text = String(repeating: "0", count: digits / 2) + text }
            let point = text.index(text.startIndex, offsetBy: Int.random(in: 1..<text.count, using: &random))
            text.insert(".", at: point)
            texts.append(text)
        }
        var plainCount = 0
        for text in texts {
            let expected = Double(text)
            let found = Array(text.utf8).withUnsafeBytes { DecimalNumber.parse($0) }
            #expect(found?.bitPattern == expected?.bitPattern, "\(text)")
            let plain = Array(text.utf8).withUnsafeBufferPointer {
                DecimalNumber.plainDecimal($0.baseAddress!, count: $0.count)
            }
            if let plain {
                plainCount += 1
                #expect(plain.bitPattern == expected?.bitPattern, "\(text)")
            }
        }
        #expect(plainCount > texts.count / 2, "most texts take the plain path")
    }
}
