@_spi(RewindInternals) internal import RewindSupport
import TraceJSON
import TraceReader

/// The running counts behind `TraceStatistics`, fed one scanned event line at a time. Store and
/// action names are looked up by their bytes (`NameTable`), so counting an event makes no
/// `String`; everything kept is bounded whatever the trace: at most `nameLimit` names (and
/// `nameBytesLimit` bytes of them) per table, the intervals in `IntervalQuantiles`, a hundred
/// unchanged steps, and each store's events of the last second as runs of equal `elapsed`.
struct StatisticsTally {
    /// The most store names, and the most store-and-action pairs, counted by name; the events of
    /// names first met after that are counted together (`TraceStatistics.otherStores`).
    static let defaultNameLimit = 10_000
    /// The most bytes of names kept per table (stores, actions).
    static let nameBytesLimit = 1 << 20

    /// The most `elapsed` values kept, across the stores, for their events of the last second
    /// (8 MB); a store whose window would pass it counts its events per millisecond instead.
    static let defaultWindowLimit = 1 << 20

    private struct StoreTally {
        var events = 0
        var unchanged = 0
        /// The `elapsed` of its recent events, within one second of the latest (from `windowStart`).
        var window: [Double] = []
        var windowStart = 0
        var peak = 0
        /// Once the windows hold too many events: its events per millisecond of `elapsed`, for
        /// the 1,000 milliseconds up to `lastSlot`, by slot modulo 1,000; empty before.
        var slots: [Int] = []
        var lastSlot = 0
        var slotTotal = 0
        var peakIsApproximate = false

        /// Keeps the event's `elapsed` in the window (or its millisecond) and the peak;
        /// `windowed` counts the times in every store's window.
        mutating func countRate(_ elapsed: Double, windowed: inout Int, limit: Int) {
            guard slots.isEmpty else { return addToSlots(elapsed) }
            // Full, with a quarter or more of it left behind: moved down in place rather than
            // grown into new memory (which the kernel clears page by page).
            if window.count == window.capacity && windowStart > 0 && windowStart * 4 >= window.count {
                window.removeFirst(windowStart)
                windowStart = 0
            }
            window.append(elapsed)
            windowed += 1
            while windowStart < window.count && window[windowStart] <= elapsed - 1 {
                windowStart += 1
                windowed -= 1
            }
            if windowStart > 1024 && windowStart * 2 > window.count {
                window.removeFirst(windowStart)
                windowStart = 0
            }
            peak = max(peak, window.count - windowStart)
            if windowed > limit { countPerMillisecond(windowed: &windowed) }
        }

        /// Moves the store's window into counts per millisecond: from here on its peak is the most
        /// events in 1,000 consecutive milliseconds (off by at most the events of one millisecond
        /// at either end), and the store costs 8 KB however many events a second it has.
        mutating func countPerMillisecond(windowed: inout Int) {
            let kept = window[windowStart...]
            windowed -= kept.count
            slots = [Int](repeating: 0, count: 1_000)
            lastSlot = Self.slot(of: kept.last ?? 0)
            for elapsed in kept { addToSlots(elapsed) }
            window = []
            windowStart = 0
            peakIsApproximate = true
        }

        /// Counts an event in its millisecond, after emptying the milliseconds that left the second.
        mutating func addToSlots(_ elapsed: Double) {
            let slot = Self.slot(of: elapsed)
            if slot > lastSlot {
                if slot - lastSlot >= 1_000 {
                    for index in slots.indices { slots[index] = 0 }
                    slotTotal = 0
                } else {
                    for passed in (lastSlot + 1)...slot {
                        slotTotal -= slots[passed % 1_000]
                        slots[passed % 1_000] = 0
                    }
                }
                lastSlot = slot
            }
            guard slot > lastSlot - 1_000 else { return }  // older than the second kept
            slots[slot % 1_000] += 1
            slotTotal += 1
            peak = max(peak, slotTotal)
        }

        /// The millisecond of `elapsed`, from 0 (negative or huge times share the ends).
        private static func slot(of elapsed: Double) -> Int {
            let milliseconds = (elapsed * 1_000).rounded(.down)
            guard milliseconds.isFinite else { return milliseconds > 0 ? 1 << 50 : 0 }
            return Int(max(0, min(Double(1 << 50), milliseconds)))
        }
    }

    /// A store's action, by ids.
    private struct ActionKey: Hashable {
        var store: Int
        var action: Int
    }

    private let nameLimit: Int
    private let windowLimit: Int
    /// The `elapsed` values in the stores' windows.
    private var windowed = 0
    private var storeNames = NameTable()
    /// By the caller's id of a store (`add`'s `knownStore`): its id here, -2 when it is counted
    /// with the other stores (the table was full when it was first met), -1 before it is met.
    private var storeOfKnownStore: [Int32] = []
    private var recentStores = RecentNames()
    private var storeNameBytes = 0
    private var stores: [StoreTally] = []
    private var actionNames = NameTable()
    private var recentActions = RecentNames()
    private var actionNameBytes = 0
    /// (store id, action id) → position in `actions`.
    private var actionIDs: [ActionKey: Int] = [:]
    /// By action id: the position in `actions` of the first store's pair with that action name,
    /// found without hashing the pair (most action names belong to one store).
    private var firstPairOfAction: [Int] = []
    private var actions: [(key: ActionKey, events: Int, unchanged: Int)] = []
    private var intervals: IntervalQuantiles
    private var firstElapsed: Double?
    private var lastElapsed: Double?
    private var unchangedCount = 0
    /// The first unchanged transitions: their seq and their position among the events.
    private var unchangedEvents: [(seq: Int, index: Int)] = []
    private var otherEvents = 0
    /// Events of stores, and transitions of actions, not counted by name (past the limits).
    private var otherStores = TraceStatistics.Others()
    private var otherActions = TraceStatistics.Others()
    var unreadable = 0

    /// The kinds of event counted.
    enum EventKind {
        case register, transition, other

        /// The kind of an event of type `type`: restores and unknown types are counted apart.
        init(_ type: EventLineCheck.EventType) {
            switch type {
            case .register: self = .register
            case .transition: self = .transition
            case .restore, .unknown: self = .other
            }
        }
    }

    init(
        nameLimit: Int = defaultNameLimit, exactIntervals: Int = IntervalQuantiles.defaultExactLimit,
        windowLimit: Int = defaultWindowLimit
    ) {
        self.nameLimit = nameLimit
        self.windowLimit = windowLimit
        self.intervals = IntervalQuantiles(exactLimit: exactIntervals)
    }

    /// The kind of the event whose members are `fields`, by its `type`.
    static func kind(_ fields: EventFields, _ line: ByteView) -> EventKind {
        fields.type.map { EventKind(EventLineCheck.eventType($0, in: line)) } ?? .other
    }

    /// Counts the event at position `index` among the events, of kind `kind`. `knownStore`, when
    /// not -1, is the caller's id of the event's store (from 0, one per name, as
    /// `BodyLineSorter.Event.storeID`): its name is looked up only the first time.
    mutating func add(
        _ fields: ScannedFields, _ line: ByteView, kind: EventKind, seq: Int, index: Int,
        knownStore: Int32 = -1
    ) {
        // By pointer: the members (150 bytes) are not copied per event.
        let elapsed = fields.pointee.elapsedRange.flatMap {
            DecimalNumber.parse(line[$0])
        }
        if let elapsed {
            if let lastElapsed { intervals.add(elapsed - lastElapsed) }
            if firstElapsed == nil { firstElapsed = elapsed }
            lastElapsed = elapsed
        }
        guard kind != .other, let storeText = fields.pointee.store else {
            otherEvents += 1
            return
        }
        let unchanged = kind == .transition && fields.pointee.action != nil && fields.pointee.changed == false
        if unchanged {
            unchangedCount += 1
            if unchangedEvents.count < TraceStatistics.listedUnchangedSteps { unchangedEvents.append((seq, index)) }
        }
        guard let store = storeID(storeText, line, knownStore: knownStore) else {
            otherStores.add(unchanged: unchanged)
            if kind == .transition && fields.pointee.action != nil { otherActions.add(unchanged: unchanged) }
            return
        }
        if store == stores.count { stores.append(StoreTally()) }
        stores[store].events += 1
        if unchanged { stores[store].unchanged += 1 }
        if let elapsed { countRate(elapsed, store: store) }
        guard kind == .transition, let actionText = fields.pointee.action else { return }
        guard
            let action = Self.id(
                actionText, line, in: &actionNames, recent: &recentActions, bytes: &actionNameBytes, limit: nameLimit)
        else {
            otherActions.add(unchanged: unchanged)
            return
        }
        let key = ActionKey(store: store, action: action)
        let position: Int
        if action < firstPairOfAction.count && actions[firstPairOfAction[action]].key.store == store {
            position = firstPairOfAction[action]
        } else if let known = actionIDs[key] {
            position = known
        } else if actions.count < nameLimit {
            position = actions.count
            actionIDs[key] = position
            actions.append((key, 0, 0))
            if action == firstPairOfAction.count { firstPairOfAction.append(position) }
        } else {
            otherActions.add(unchanged: unchanged)
            return
        }
        actions[position].events += 1
        if unchanged { actions[position].unchanged += 1 }
    }

    /// The id of the store named `text`, or nil when it is counted with the other stores; by
    /// `knownStore` once it is met (a table's name is refused at its first meeting or never).
    @inline(__always)
    private mutating func storeID(_ text: EventFields.Text, _ line: ByteView, knownStore: Int32) -> Int? {
        guard knownStore >= 0 else {
            return Self.id(text, line, in: &storeNames, recent: &recentStores, bytes: &storeNameBytes, limit: nameLimit)
        }
        let known = Int(knownStore)
        if known < storeOfKnownStore.count {
            let store = storeOfKnownStore[known]
            if store >= 0 { return Int(store) }
            if store == -2 { return nil }
        } else {
            storeOfKnownStore += repeatElement(-1, count: known + 1 - storeOfKnownStore.count)
        }
        let store = Self.id(
            text, line, in: &storeNames, recent: &recentStores, bytes: &storeNameBytes, limit: nameLimit)
        storeOfKnownStore[known] = store.map { Int32(truncatingIfNeeded: $0) } ?? -2
        return store
    }

    /// Keeps the store's events of the last second and the most there ever were in one.
    private mutating func countRate(_ elapsed: Double, store: Int) {
        // Changed in place (the array's element, not a copy of it): no copy of its window.
        stores[store].countRate(elapsed, windowed: &windowed, limit: windowLimit)
    }

    /// The id of the name `text`, adding it when it is new and the table has room; nil when not.
    /// The names looked up last are found in `recent` first.
    @inline(__always)
    private static func id(
        _ text: EventFields.Text, _ line: ByteView, in table: inout NameTable,
        recent: inout RecentNames, bytes: inout Int, limit: Int
    ) -> Int? {
        func id(_ name: ByteView) -> Int? {
            let key = RecentNames.Key(name)
            if let key, let known = recent.id(for: key) { return known }
            let id: Int
            if let known = table.find(name) {
                id = known
            } else {
                guard table.count < limit && bytes + name.count <= nameBytesLimit else { return nil }
                bytes += name.count
                id = table.intern(name)
            }
            if let key { recent.remember(key, id: id) }
            return id
        }
        guard text.hasEscapes else { return id(line[text.range]) }
        return ByteView.withBytes(of: EventFields.string(text, in: line)) { id($0) }
    }

    /// The statistics of the `events` events counted; `stepsAreSeqs` says whether each event's
    /// step is its seq (the seqs go up) or its position + 1 (the order of the file).
    mutating func finish(events: Int, stepsAreSeqs: Bool) -> TraceStatistics {
        let storeCounts = stores.enumerated().map { id, tally in
            TraceStatistics.StoreCount(
                name: storeNames.name(id), events: tally.events, unchanged: tally.unchanged, peakPerSecond: tally.peak,
                peakIsApproximate: tally.peakIsApproximate)
        }.sorted { ($0.events, $1.name) > ($1.events, $0.name) }
        let actionCounts = actions.map { action in
            TraceStatistics.ActionCount(
                store: storeNames.name(action.key.store), action: actionNames.name(action.key.action),
                events: action.events, unchanged: action.unchanged)
        }.sorted { ($0.events, $1.store, $1.action) > ($1.events, $0.store, $0.action) }
        let duration = firstElapsed.flatMap { first in lastElapsed.map { $0 - first } }
        var statistics = TraceStatistics(
            events: events, otherEvents: otherEvents, unreadableEvents: unreadable, stores: storeCounts,
            actions: actionCounts, intervals: intervals.summary(), duration: duration,
            unchangedCount: unchangedCount,
            unchangedSteps: unchangedEvents.map { stepsAreSeqs ? $0.seq : $0.index + 1 })
        statistics.otherStores = otherStores
        statistics.otherActions = otherActions
        return statistics
    }
}
