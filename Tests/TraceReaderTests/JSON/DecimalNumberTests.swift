import TestSupport
import Testing

@testable import TraceReader

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
}
