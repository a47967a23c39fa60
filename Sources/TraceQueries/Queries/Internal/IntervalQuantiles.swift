#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The time between events, summarised in bounded memory for `TraceStatistics`: every interval
/// is kept (8 bytes each) up to `exactLimit`, so that the median and the 99th percentile of
/// all but the longest traces are exact; past that, the intervals go into a histogram of
/// log-spaced buckets (fixed size, about 35 KB), and the percentiles are read from it with a
/// relative error of at most 1%.
///
/// Why this and not a streaming estimator (P², t-digest): a log-scale histogram gives a bound on
/// the error that holds for every input, order and distribution (a bucket's representative is
/// within `(γ - 1) / (γ + 1)` of every value in the bucket), costs one logarithm per interval,
/// and merges by adding counts. The minimum, the maximum and the count stay exact.
struct IntervalQuantiles {
    /// The most intervals kept exactly: 8 MB of them, a trace of a million events.
    static let defaultExactLimit = 1 << 20
    /// The ratio between consecutive bucket bounds: a representative is within 0.99% of every
    /// value in its bucket.
    static let growth = 1.02
    /// Magnitudes below this (a nanosecond) share the zero bucket.
    static let smallest = 1e-9
    /// Buckets per sign: from a nanosecond up to 10^10 s (317 years); longer ones share the last.
    static let bucketsPerSign = Int((log(1e19) / log(growth)).rounded(.up))

    private let exactLimit: Int
    private var exact: [Double] = []
    /// Counts by bucket, from the most negative to the most positive (the zero bucket in the
    /// middle); empty while every interval is in `exact`.
    private var histogram: [Int] = []
    private(set) var count = 0
    private var minimum = Double.infinity
    private var maximum = -Double.infinity
    /// Whether an interval is NaN or -0.0: values that selection may place otherwise than a
    /// sort (see `RadixSelection`), so the summary sorts them instead.
    private var hasUnorderedValue = false
    /// The summary once the exact intervals were selected in place (and are gone).
    private var selectedSummary: TraceStatistics.Intervals?

    init(exactLimit: Int = defaultExactLimit) {
        self.exactLimit = exactLimit
    }

    /// Whether the percentiles come from the histogram.
    var isApproximate: Bool { !histogram.isEmpty }

    @inline(__always)
    mutating func add(_ interval: Double) {
        count += 1
        minimum = min(minimum, interval)
        maximum = max(maximum, interval)
        if interval == 0 ? interval.sign == .minus : interval.isNaN { hasUnorderedValue = true }
        // Inlined into the caller's loop: the common case, kept and with room.
        if exact.count < exact.capacity && exact.count < exactLimit && histogram.isEmpty {
            exact.append(interval)
            return
        }
        keep(interval)
    }

    /// `add`'s keeping of `interval`, past the common case.
    private mutating func keep(_ interval: Double) {
        // After `summary()` the exact intervals are gone (selected in place), so an interval added
        // then would be summarised with none of those before it. (`add` comes here then: the
        // array it appends to has no room.)
        precondition(selectedSummary == nil, "IntervalQuantiles.add after summary(), which used up the intervals")
        if histogram.isEmpty && exact.count < exactLimit {
            // Room for every interval kept, made once: growing by doubling copied the intervals
            // into new memory at each step (and the kernel cleared twice the pages), which cost
            // more than the counting on a long trace. Pages not yet written take no memory.
            if exact.capacity == 0 { exact.reserveCapacity(exactLimit) }
            exact.append(interval)
            return
        }
        if histogram.isEmpty {
            // Before the array grows past the limit (a doubling would take twice its memory).
            histogram = [Int](repeating: 0, count: 2 * Self.bucketsPerSign + 1)
            for value in exact { histogram[Self.bucket(of: value)] += 1 }
            exact = []
        }
        histogram[Self.bucket(of: interval)] += 1
    }

    /// The bucket of `value`: `bucketsPerSign` for the zero bucket, above it for positive values.
    static func bucket(of value: Double) -> Int {
        let magnitude = value.magnitude
        guard magnitude >= smallest else { return value.isNaN ? 2 * bucketsPerSign : bucketsPerSign }
        // Bucket k (from 1) holds magnitudes in (smallest·γ^(k-1), smallest·γ^k].
        let scaled = (log(magnitude / smallest) / log(growth)).rounded(.up)
        let k = scaled.isFinite ? max(1, min(bucketsPerSign, Int(scaled))) : bucketsPerSign
        return value < 0 ? bucketsPerSign - k : bucketsPerSign + k
    }

    /// The value that stands for bucket `index`: within 1% of every value in it.
    static func representative(of index: Int) -> Double {
        let k = index - bucketsPerSign
        guard k != 0 else { return 0 }
        let upper = smallest * pow(growth, Double(k.magnitude))
        let value = 2 * upper / (growth + 1)
        return k < 0 ? -value : value
    }

    /// The summary, or nil without any interval.
    /// The median and the 99th percentile of the exact intervals are selected (`RadixSelection`),
    /// the same values as sorting them all would give, in the intervals' memory: after that,
    /// the intervals are gone and no more can be added (`add` stops the process: a programming
    /// error); the summary is kept for another call.
    mutating func summary() -> TraceStatistics.Intervals? {
        if let selectedSummary { return selectedSummary }
        guard count > 0 else { return nil }
        guard isApproximate else {
            guard !hasUnorderedValue else {
                exact.sort()
                return TraceStatistics.Intervals(sorted: exact)
            }
            let median = TraceStatistics.Intervals.nearestRank(50, count: exact.count)
            let p99 = TraceStatistics.Intervals.nearestRank(99, count: exact.count)
            let selected = RadixSelection.values(at: [median, p99], overwriting: &exact)
            // Without NaN or -0.0 (`hasUnorderedValue`), the minimum and the maximum are the
            // first and the last values a sort would give.
            let summary = TraceStatistics.Intervals(
                count: exact.count, minimum: minimum, median: selected[0], p99: selected[1], maximum: maximum)
            exact = []
            selectedSummary = summary
            return summary
        }
        func rank(_ percent: Int) -> Double {
            // Nearest rank, as `Intervals(_:)` finds it exactly.
            let position = max(1, min(count, (count * percent + 99) / 100))
            var seen = 0
            for (index, bucketCount) in histogram.enumerated() {
                seen += bucketCount
                if seen >= position { return min(maximum, max(minimum, Self.representative(of: index))) }
            }
            return maximum
        }
        var summary = TraceStatistics.Intervals(
            count: count, minimum: minimum, median: rank(50), p99: rank(99), maximum: maximum)
        summary.isApproximate = true
        return summary
    }
}
