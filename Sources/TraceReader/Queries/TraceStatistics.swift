/// What a developer checks first on a long trace: events per store and per action, the time
/// between events, the actions that changed nothing, and the busiest stores. The engine of
/// `inspector stats`.
///
/// ```swift
/// let stats = TraceStatistics(trace: try TraceFile(path: "run.jsonl"))
/// stats.stores.first?.name                 // the busiest store
/// stats.intervals?.median                  // the typical time between two events, in seconds
/// stats.unchangedCount                     // actions that left the state as it was
/// ```
///
/// Computed in one pass over the events, each line scanned for its top-level members without
/// building its `state`. Memory: 8 bytes per event with an `elapsed` (the intervals are kept to
/// find their median and 99th percentile exactly), plus a little per store and action.
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

        /// Creates a count.
        public init(name: String, events: Int = 0, unchanged: Int = 0, peakPerSecond: Int = 0) {
            self.name = name
            self.events = events
            self.unchanged = unchanged
            self.peakPerSecond = peakPerSecond
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
            guard !intervals.isEmpty else { return nil }
            let sorted = intervals.sorted()
            func rank(_ percent: Int) -> Double {
                // Nearest rank: the smallest value with at least `percent`% of values at or below it.
                let position = (sorted.count * percent + 99) / 100
                return sorted[max(0, min(sorted.count - 1, position - 1))]
            }
            self.init(
                count: sorted.count, minimum: sorted[0], median: rank(50), p99: rank(99),
                maximum: sorted[sorted.count - 1])
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
            tally.add(fields, line, step: trace.step(ofEventAt: index) ?? 0)
        }
        self = tally.finish(events: trace.eventCount)
    }
}
