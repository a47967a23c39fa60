import Testing

@testable import TraceJSON
@testable import TraceReader

/// The number fast paths give exactly what the slow, obviously right ones give.
@Suite struct JSONDecodedNumberTests {
    private func shortDecimal(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { JSONDecodedNumber.shortDecimal($0, from: 0, to: buffer.count) }
        }
    }

    private func double(_ text: String) -> Result<Double, JSONDecodedNumber.Problem> {
        Array(text.utf8).withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else {
                return .failure(JSONDecodedNumber.Problem(text: text, reason: "is empty"))
            }
            return JSONDecodedNumber.floatingPoint(base, from: 0, to: buffer.count, as: Double.self)
        }
    }

    @Test func shortDecimalsAreCorrectlyRounded() {
        var generator = JSONTapeSyntaxTests.Generator(state: 7)
        var fastPathTaken = 0
        for _ in 0..<20_000 {
            // Mantissas of 1 to 20 digits, a decimal point anywhere, exponents around the
            // fast path's limits: both sides of every boundary.
            let digits = 1 + generator.below(20)
            var mantissa = String(1 + generator.below(9))
            for _ in 1..<digits {
                mantissa.append(Character(Unicode.Scalar(UInt8(ascii: "0") + UInt8(generator.below(10)))))
            }
            let point = generator.below(digits + 1)
            if point > 0 && point < digits {
                mantissa.insert(".", at: mantissa.index(mantissa.startIndex, offsetBy: point))
            }
            let exponent = generator.below(60) - 30
            let text = (generator.below(2) == 0 ? "-" : "") + mantissa + (generator.below(3) == 0 ? "" : "e\(exponent)")
            guard let expected = Double(text) else {
                Issue.record("not a number: \(text)")
                continue
            }
            if let fast = shortDecimal(text) {
                fastPathTaken += 1
                #expect(fast.bitPattern == expected.bitPattern, "\(text)")
            }
            if case .success(let value) = double(text) {
                #expect(value.bitPattern == expected.bitPattern, "\(text)")
            } else {
                #expect(!expected.isFinite, "\(text)")
            }
        }
        #expect(fastPathTaken > 5_000)
    }

    @Test func zerosAndSigns() throws {
        #expect(shortDecimal("0")?.bitPattern == Double(0).bitPattern)
        #expect(shortDecimal("-0")?.bitPattern == (-0.0 as Double).bitPattern)
        #expect(shortDecimal("-0.0e5")?.bitPattern == (-0.0 as Double).bitPattern)
        #expect(shortDecimal("0e99999") == nil)  // too many exponent digits: the slow path decides
        #expect(try double("0e99999").get() == 0)
        #expect(throws: JSONDecodedNumber.Problem.self) { try double("1e400").get() }
    }

    @Test func plainIntegersMatchIntParsing() throws {
        var generator = JSONTapeSyntaxTests.Generator(state: 11)
        for _ in 0..<5_000 {
            let value = Int64(bitPattern: generator.next()) >> Int64(generator.below(63))
            let text = String(value)
            let bytes = Array(text.utf8)
            let parsed = bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.flatMap { JSONDecodedNumber.integer($0, from: 0, to: buffer.count, as: Int64.self) }
            }
            #expect(try parsed?.get() == value, "\(text)")
            let narrow = bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.flatMap { JSONDecodedNumber.integer($0, from: 0, to: buffer.count, as: Int16.self) }
            }
            #expect((try? narrow?.get()) == Int16(exactly: value), "\(text)")
        }
    }

    /// Integers written with an exponent or a fraction take the slow path, a sign and a 64-bit
    /// magnitude: each type's bounds are reached exactly, and one past them is refused.
    @Test func integersWithExponentsReachEachTypesBounds() {
        func value<T: FixedWidthInteger>(_ text: String, _ type: T.Type) -> T? {
            try? JSONDecodedNumber.integer(text, as: type).get()
        }
        #expect(value("-9.223372036854775808e18", Int.self) == Int.min)
        #expect(value("-92233720368547758.09e2", Int.self) == nil)
        #expect(value("9.223372036854775807e18", Int.self) == Int.max)
        #expect(value("9.223372036854775808e18", Int.self) == nil)
        #expect(value("1.8446744073709551615e19", UInt64.self) == UInt64.max)
        #expect(value("1.8446744073709551616e19", UInt64.self) == nil)
        #expect(value("-1.28e2", Int8.self) == Int8.min)
        #expect(value("-1.29e2", Int8.self) == nil)
        #expect(value("-1e0", UInt.self) == nil)
        #expect(value("-0e5", UInt8.self) == 0)
        #expect(value("-0.0", Int.self) == 0)
        #expect(value("2.5e0", Int.self) == nil)
    }
}
