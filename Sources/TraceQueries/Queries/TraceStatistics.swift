import TraceReader

/// What a developer checks first on a long trace: events per store and per action, the time
/// between events, the actions that changed nothing, and the busiest stores. The engine of
/// `inspector stats`.
///
/// ```swift
/// let stats = try TraceStatistics(path: "run.jsonl")
/// stats.stores.first?.name                 // the busiest store
/// stats.intervals?.median                  // the typical time between two events, in seconds
/// stats.unchangedCount                     // actions that left the state as it was
/// ```
///
/// Computed in one pass over the events, each line scanned for its top-level members without
/// building its `state`. `init(path:)` reads the file once with no index; memory stays bounded
/// whatever the trace: one block of the file, the intervals (8 bytes each up to a million of
/// them, then a fixed histogram, see `Intervals.isApproximate`), at most 10,000 store names and
/// 10,000 store-and-action pairs (the rest counted together, see `otherStores`), and the times of
/// the stores' events within their latest second (about a million of them, then counts per
/// millisecond, see `StoreCount.peakIsApproximate`): under 64 MB in all.
public struct TraceStatistics: Sendable, Equatable {
    /// The events of one store.
    public struct StoreCount: Sendable, Equatable {
        /// The store's name.
        public var name: String
        /// Its register and transition events.
        public var events: Int
        /// Its transitions that changed nothing (`changed: false`).
        public var unchanged: Int
        /// The most of its events within any one second of `elapsed` time (0 when its events
        /// have no `elapsed`): how hard the store is driven at its busiest.
        public var peakPerSecond: Int
        /// Whether `peakPerSecond` was counted per millisecond (off by at most the events of one
        /// millisecond at either end of the second): the store had more events within a second
        /// than `TraceStatistics` keeps the times of (about a million, across the stores).
        public var peakIsApproximate: Bool

        /// Creates a count.
        public init(
            name: String, events: Int = 0, unchanged: Int = 0, peakPerSecond: Int = 0, peakIsApproximate: Bool = false
        ) {
            self.name = name
            self.events = events
            self.unchanged = unchanged
            self.peakPerSecond = peakPerSecond
            self.peakIsApproximate = peakIsApproximate
        }
    }

    /// The transitions of one action of one store.
    public struct ActionCount: Sendable, Equatable {
        /// The store's name.
        public var store: String
        /// The action's name.
        public var action: String
        /// How many times it ran.
        public var events: Int
        /// How many of those changed nothing (`changed: false`).
        public var unchanged: Int

        /// Creates a count.
        public init(store: String, action: String, events: Int = 0, unchanged: Int = 0) {
            self.store = store
            self.action = action
            self.events = events
            self.unchanged = unchanged
        }
    }

    /// The time between consecutive events (in file order, among events with an `elapsed`), in
    /// seconds. Percentiles are nearest-rank: the median is the smaller middle value.
    public struct Intervals: Sendable, Equatable {
        /// How many intervals there are: the events with an `elapsed`, minus one.
        public var count: Int
        /// The shortest interval (negative when the clock went back).
        public var minimum: Double
        /// The median interval.
        public var median: Double
        /// The 99th percentile: 99% of intervals are at most this long.
        public var p99: Double
        /// The longest interval.
        public var maximum: Double
        /// Whether `median` and `p99` are estimates: past a million intervals they are read
        /// from a histogram of log-spaced buckets, within 1% of the exact values (an interval
        /// under a nanosecond counts as 0). `count`, `minimum` and `maximum` are always exact.
        public var isApproximate = false

        /// Creates intervals from their summary.
        public init(count: Int, minimum: Double, median: Double, p99: Double, maximum: Double) {
            self.count = count
            self.minimum = minimum
            self.median = median
            self.p99 = p99
            self.maximum = maximum
        }

        /// The summary of `intervals`, or nil when there is none.
        public init?(_ intervals: [Double]) {
            self.init(sorted: intervals.sorted())
        }

        /// The summary of `sorted`, intervals in increasing order, or nil when there is none.
        init?(sorted: [Double]) {
            guard !sorted.isEmpty else { return nil }
            self.init(
                count: sorted.count, minimum: sorted[0], median: sorted[Self.nearestRank(50, count: sorted.count)],
                p99: sorted[Self.nearestRank(99, count: sorted.count)], maximum: sorted[sorted.count - 1])
        }

        /// The position, in `count` (at least 1) values in increasing order, of the `percent`th
        /// percentile by nearest rank: the smallest value with at least `percent`% of the values
        /// at or below it.
        static func nearestRank(_ percent: Int, count: Int) -> Int {
            max(0, min(count - 1, (count * percent + 99) / 100 - 1))
        }
    }

    /// Events counted together because their names were first met after the most names
    /// `TraceStatistics` keeps (10,000 per table, 1 MB of names): a trace with that many
    /// distinct names.
    public struct Others: Sendable, Equatable {
        /// How many events.
        public var events = 0
        /// How many of those changed nothing.
        public var unchanged = 0

        /// Nothing counted.
        public init() {}

        mutating func add(unchanged: Bool) {
            events += 1
            if unchanged { self.unchanged += 1 }
        }
    }

    /// The most steps `unchangedSteps` lists.
    public static let listedUnchangedSteps = 100

    /// The number of events of every type.
    public var events: Int
    /// Events whose type is neither `register` nor `transition`.
    public var otherEvents: Int
    /// Events that could not be read again (the file changed since it was opened).
    public var unreadableEvents: Int
    /// Every store, busiest (most events) first; ties by name.
    public var stores: [StoreCount]
    /// Every store's actions, most run first; ties by store, then action.
    public var actions: [ActionCount]
    /// The time between events; nil with fewer than two events with an `elapsed`.
    public var intervals: Intervals?
    /// The time from the first `elapsed` to the last, in seconds; nil without any `elapsed`.
    public var duration: Double?
    /// The transitions that changed nothing (`changed: false`).
    public var unchangedCount: Int
    /// The steps of the first `listedUnchangedSteps` of them, in order.
    public var unchangedSteps: [Int]
    /// Register and transition events of stores not in `stores` (past the names kept).
    public var otherStores = Others()
    /// Transitions not in `actions` (past the names kept).
    public var otherActions = Others()
    /// What the reading skipped or noticed, as `TraceFile.issues` lists it (`init(path:)` only).
    public var issues: [TraceReadIssue] = []

    /// Creates statistics from their parts.
    public init(
        events: Int, otherEvents: Int = 0, unreadableEvents: Int = 0, stores: [StoreCount], actions: [ActionCount],
        intervals: Intervals?, duration: Double?, unchangedCount: Int, unchangedSteps: [Int]
    ) {
        self.events = events
        self.otherEvents = otherEvents
        self.unreadableEvents = unreadableEvents
        self.stores = stores
        self.actions = actions
        self.intervals = intervals
        self.duration = duration
        self.unchangedCount = unchangedCount
        self.unchangedSteps = unchangedSteps
    }

    /// The statistics of `trace`, read in one pass.
    public init(trace: TraceFile) {
        var tally = StatisticsTally()
        // The file is read in blocks, not a read per line: one pass at the speed of the scanner.
        trace.scanEvents(0..<trace.eventCount) { index, fields, line in
            guard let fields else {
                tally.unreadable += 1
                return
            }
            let step = trace.step(ofEventAt: index) ?? 0
            ScannedFields.lending(fields) {
                tally.add($0, line, kind: StatisticsTally.kind(fields, line), seq: step, index: index)
            }
        }
        self = tally.finish(events: trace.eventCount, stepsAreSeqs: true)
        issues = trace.issues
    }

    /// The statistics of the trace at `path` (a file, or a pipe read as it comes), read once
    /// from its first line to its last without indexing it: the same as `init(trace:)` on
    /// `TraceFile(path:)`, with `issues` its `issues`, in bounded memory.
    /// - Throws: `TraceOpenError` as `TraceFile(path:)` throws it.
    public init(path: String) throws(TraceOpenError) {
        try self.init(path: path, nameLimit: StatisticsTally.defaultNameLimit)
    }

    /// `init(path:)` with smaller bounds, for tests.
    init(
        path: String, nameLimit: Int, exactIntervals: Int = IntervalQuantiles.defaultExactLimit,
        windowLimit: Int = StatisticsTally.defaultWindowLimit
    ) throws(TraceOpenError) {
        var tally = StatisticsTally(nameLimit: nameLimit, exactIntervals: exactIntervals, windowLimit: windowLimit)
        let summary = try TraceEventScan.forEachEvent(path: path, into: &tally)
        self = tally.finish(events: summary.eventCount, stepsAreSeqs: summary.stepsAreSeqs)
        issues = summary.issues
    }
}

extension StatisticsTally: TraceEventScan.Visitor {
    mutating func visit(_ fields: ScannedFields, _ event: BodyLineSorter.Event, index: Int) {
        add(
            fields, event.bytes, kind: EventKind(event.type), seq: fields.pointee.seq ?? 0, index: index,
            knownStore: event.storeID)
    }
}
