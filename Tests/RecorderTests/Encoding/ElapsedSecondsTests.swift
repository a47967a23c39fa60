import TestSupport
import Testing

@testable import Recorder

/// `elapsed`: seconds with microsecond precision and no trailing zeros.
@Suite struct ElapsedSecondsTests {
    /// The format, spelled out the slow way: whole seconds, then the six microsecond digits with
    /// trailing zeros removed (`.0` when all are zero).
    private func reference(_ nanoseconds: UInt64) -> String {
        let micros = (nanoseconds + 500) / 1000
        var fraction = String(micros % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.count > 1 && fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(micros / 1_000_000).\(fraction)"
    }

    @Test func matchesTheFormatOnEdgesAndRandomValues() {
        let storage = JSONOutputStorage(capacity: 16)
        let output = storage.output
        var values: [UInt64] = [
            0, 499, 500, 1_000, 10_000, 100_000, 999_999_499, 999_999_500, 1_000_000_000,
            1_000_001_000, 1_230_000_000, 12_345_678_901, 86_400_000_000_000, UInt64(Int64.max) / 2,
        ]
        var random = SeededGenerator(seed: 0xE1A9)
        for _ in 0..<20_000 { values.append(UInt64.random(in: 0..<100_000_000_000, using: &random)) }
        for value in values {
            output.count = 0
            output.appendSeconds(nanoseconds: value)
            #expect(String(decoding: output.bytes, as: UTF8.self) == reference(value), "\(value) ns")
        }
    }
}
