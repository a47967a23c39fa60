import TestSupport
import Testing

@testable import TraceReader

@Suite struct BitColumnTests {
    /// `lastClear` finds what a plain search finds, across word bounds and in any range.
    @Test func lastClearIsThePlainSearch() {
        var random = SeededGenerator(seed: 11)
        for round in 0..<200 {
            let count = Int.random(in: 0..<300, using: &random)
            let density = [0.0, 0.5, 0.97, 1.0][round % 4]
            var column = BitColumn()
            var bits: [Bool] = []
            for _ in 0..<count {
                let bit = Double.random(in: 0..<1, using: &random) < density
                column.append(bit)
                bits.append(bit)
            }
            #expect(column.count == count)
            #expect(column.hasSetBits == bits.contains(true))
            for _ in 0..<20 where count > 0 {
                let lower = Int.random(in: 0..<count, using: &random)
                let upper = Int.random(in: lower...count, using: &random)
                let expected = (lower..<upper).last { !bits[$0] }
                #expect(column.lastClear(in: lower..<upper) == expected, "\(lower)..<\(upper) of \(bits)")
            }
        }
    }

    /// Appending a column, at a word bound or not, and setting bits.
    @Test func appendingAndSettingKeepEveryBit() {
        var random = SeededGenerator(seed: 12)
        for _ in 0..<100 {
            var column = BitColumn()
            var bits: [Bool] = []
            for _ in 0..<Int.random(in: 0..<4, using: &random) {
                var piece = BitColumn()
                for _ in 0..<[0, 1, 63, 64, 65, 130][Int.random(in: 0..<6, using: &random)] {
                    let bit = Bool.random(using: &random)
                    piece.append(bit)
                    bits.append(bit)
                }
                column.append(contentsOf: piece)
            }
            #expect((0..<column.count).map { column[$0] } == bits)
            var cleared = BitColumn(clear: bits.count)
            for (index, bit) in bits.enumerated() where bit { cleared.set(index) }
            #expect(cleared == column || (0..<cleared.count).map { cleared[$0] } == bits)
        }
    }
}
