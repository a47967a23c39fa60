import TestSupport
import Testing

@testable import TraceQueries

/// `RadixSelection` and the exact summary of `IntervalQuantiles` that uses it, against the
/// definition: sort every value and read the ranks.
@Suite struct RadixSelectionTests {
    /// Random values of one of several shapes: few distinct values (many duplicates), negatives,
    /// sorted, reversed, all equal, spread, or apart in their last bits only; from 1 to 3,000
    /// of them, or up to 200,000 (past what is sorted rather than counted, several rounds).
    private func randomValues(seed: UInt64) -> [Double] {
        var random = SeededGenerator(seed: seed)
        let count = [
            1, 2, 3, 17, 18, 100, 2_047, 2_048, Int.random(in: 1...3_000, using: &random),
            Int.random(in: 2_048...200_000, using: &random),
        ].randomElement(using: &random)!
        var values: [Double]
        switch Int.random(in: 0..<8, using: &random) {
        case 0: values = (0..<count).map { _ in Double(Int.random(in: 0..<4, using: &random)) / 1_000 }
        case 1: values = (0..<count).map { _ in Double(Int.random(in: -50..<50, using: &random)) / 7 }
        case 2: values = (0..<count).map { Double($0) }
        case 3: values = (0..<count).map { Double(count - $0) * 0.001 }
        case 4: values = Array(repeating: 0.000_004, count: count)
        case 5:
            // The same top 48 bits: every round of counting but the last finds one bucket.
            values = (0..<count).map { _ in
                Double(bitPattern: 0x3F50_0000_0000_0000 | UInt64.random(in: 0..<5, using: &random))
            }
        case 6:
            // Intervals as the recorder writes them: differences of microseconds, some negative.
            values = (0..<count).map { _ in Double(Int.random(in: -20..<3_000, using: &random)) / 1_000_000 }
        default: values = (0..<count).map { _ in Double.random(in: -1...1e6, using: &random) }
        }
        return values
    }

    @Test(arguments: 0..<200 as Range<UInt64>) func selectedRanksAreTheSortedOnes(seed: UInt64) {
        let values = randomValues(seed: seed)
        let sorted = values.sorted()
        var random = SeededGenerator(seed: seed &+ 1_000)
        let ranks = (0..<Int.random(in: 1...3, using: &random)).map { _ in
            Int.random(in: 0..<values.count, using: &random)
        }
        var overwritten = values
        let selected = RadixSelection.values(at: ranks, overwriting: &overwritten)
        for (rank, value) in zip(ranks, selected) {
            #expect(value.bitPattern == sorted[rank].bitPattern, "rank \(rank) of \(values.count)")
        }
    }

    /// The keys order as the values do, and give the values back.
    @Test func keysOrderAsTheValues() {
        var random = SeededGenerator(seed: 7)
        let values: [Double] =
            [-.infinity, -1e300, -2, -1, -.leastNonzeroMagnitude, 0, .leastNonzeroMagnitude, 1e-9, 1, 2, .infinity]
            + (0..<500).map { _ in Double.random(in: -1e6...1e6, using: &random) }
        for a in values {
            #expect(RadixSelection.value(of: RadixSelection.key(of: a)).bitPattern == a.bitPattern)
            for b in values.prefix(20) {
                #expect((a < b) == (RadixSelection.key(of: a) < RadixSelection.key(of: b)), "\(a) < \(b)")
            }
        }
        #expect(RadixSelection.key(of: -0.0) < RadixSelection.key(of: 0.0))
    }

    @Test(arguments: 0..<200 as Range<UInt64>) func exactSummaryIsTheSortedDefinition(seed: UInt64) {
        let values = randomValues(seed: seed)
        var quantiles = IntervalQuantiles()
        for value in values { quantiles.add(value) }
        let summary = quantiles.summary()
        #expect(summary == TraceStatistics.Intervals(values))
        #expect(summary?.isApproximate == false)
        #expect(quantiles.summary() == summary, "a second summary is the same")
    }

    /// After a summary selected in place, the intervals are gone: adding one more stops the
    /// process rather than summarising it alone.
    @Test func addingAfterASelectedSummaryStops() async {
        await #expect(processExitsWith: .failure) {
            var quantiles = IntervalQuantiles()
            for value in 0..<3_000 { quantiles.add(Double(value)) }
            _ = quantiles.summary()
            quantiles.add(1)
        }
    }

    @Test func oneIntervalIsEveryRank() {
        var quantiles = IntervalQuantiles()
        quantiles.add(-0.25)
        #expect(
            quantiles.summary()
                == TraceStatistics.Intervals(count: 1, minimum: -0.25, median: -0.25, p99: -0.25, maximum: -0.25))
    }

    /// -0.0 and 0.0 are equal but printed differently, and NaN is unordered: with either, the
    /// summary is the sorted one, bit for bit.
    @Test(arguments: 0..<40 as Range<UInt64>) func signedZerosAndNaNGiveTheSortedValues(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let values = (0..<Int.random(in: 1...400, using: &random)).map { _ -> Double in
            switch Int.random(in: 0..<5, using: &random) {
            case 0: -0.0
            case 1: 0.0
            case 2: seed % 4 == 0 ? .nan : 1
            default: Double(Int.random(in: -3...3, using: &random))
            }
        }
        var quantiles = IntervalQuantiles()
        for value in values { quantiles.add(value) }
        let summary = quantiles.summary()
        let expected = TraceStatistics.Intervals(values)
        #expect(summary?.median.bitPattern == expected?.median.bitPattern)
        #expect(summary?.p99.bitPattern == expected?.p99.bitPattern)
        #expect(summary?.minimum.bitPattern == expected?.minimum.bitPattern)
        #expect(summary?.maximum.bitPattern == expected?.maximum.bitPattern)
    }

    /// Inputs that were hard cases for the quickselect this replaced ("organ pipe", sorted,
    /// all equal) and spread over every sign and exponent give the sorted ranks.
    @Test func largeInputsGiveTheSortedRanks() {
        let count = 50_000
        var random = SeededGenerator(seed: 11)
        let inputs: [[Double]] = [
            (0..<count).map { Double($0 < count / 2 ? $0 : count - $0) },
            (0..<count).map { Double($0) * 1e-6 },
            Array(repeating: -3.5, count: count),
            (0..<count).map { _ in Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &random)) }
                .filter { !$0.isNaN && $0 != 0 },
        ]
        for values in inputs {
            let sorted = values.sorted()
            let ranks = [0, values.count / 2, values.count * 99 / 100, values.count - 1, values.count / 2]
            var overwritten = values
            let selected = RadixSelection.values(at: ranks, overwriting: &overwritten)
            for (rank, value) in zip(ranks, selected) { #expect(value.bitPattern == sorted[rank].bitPattern) }
        }
    }
}
