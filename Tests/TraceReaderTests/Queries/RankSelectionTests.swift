import TestSupport
import Testing

@testable import TraceReader

/// `RankSelection` and the exact summary of `IntervalQuantiles` that uses it, against the
/// definition: sort every value and read the ranks.
@Suite struct RankSelectionTests {
    /// Random values of one of several shapes: few distinct values (many duplicates), negatives,
    /// sorted, reversed, all equal, or spread; from 1 to 3,000 of them.
    private func randomValues(seed: UInt64) -> [Double] {
        var random = SeededGenerator(seed: seed)
        let count = [1, 2, 3, 17, 18, 100, Int.random(in: 1...3_000, using: &random)].randomElement(using: &random)!
        var values: [Double]
        switch Int.random(in: 0..<6, using: &random) {
        case 0: values = (0..<count).map { _ in Double(Int.random(in: 0..<4, using: &random)) / 1_000 }
        case 1: values = (0..<count).map { _ in Double(Int.random(in: -50..<50, using: &random)) / 7 }
        case 2: values = (0..<count).map { Double($0) }
        case 3: values = (0..<count).map { Double(count - $0) * 0.001 }
        case 4: values = Array(repeating: 0.000_004, count: count)
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
        var selected = values
        RankSelection.select(ranks, in: &selected)
        for rank in ranks {
            #expect(selected[rank] == sorted[rank], "rank \(rank) of \(values.count)")
            #expect(selected[..<rank].allSatisfy { $0 <= selected[rank] })
            #expect(selected[(rank + 1)...].allSatisfy { $0 >= selected[rank] })
        }
        #expect(selected.sorted() == sorted, "selection only reorders")
    }

    @Test(arguments: 0..<200 as Range<UInt64>) func exactSummaryIsTheSortedDefinition(seed: UInt64) {
        let values = randomValues(seed: seed)
        var quantiles = IntervalQuantiles()
        for value in values { quantiles.add(value) }
        let summary = quantiles.summary()
        #expect(summary == TraceStatistics.Intervals(values))
        #expect(summary?.isApproximate == false)
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

    /// An input whose every median of three is a poor pivot still gives the sorted ranks (the
    /// selection falls back to sorting the range).
    @Test func aDegenerateInputStillGivesTheSortedRanks() {
        let count = 5_000
        // "Organ pipe": up then down, a known bad case for a median of three.
        let values = (0..<count).map { Double($0 < count / 2 ? $0 : count - $0) }
        let sorted = values.sorted()
        for rank in [0, count / 2, count * 99 / 100, count - 1] {
            var selected = values
            RankSelection.select(rank, in: &selected)
            #expect(selected[rank] == sorted[rank])
        }
    }
}
