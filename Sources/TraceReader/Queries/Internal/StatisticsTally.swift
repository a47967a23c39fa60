/// The running counts behind `TraceStatistics`, fed one scanned event line at a time. Store and
/// action names are looked up by their bytes (`StoreNameTable`), so counting an event makes no
/// `String`.
struct StatisticsTally {
    private struct StoreTally {
        var events = 0
        var unchanged = 0
        /// The `elapsed` of its recent events, within one second of the latest (from `windowStart`).
        var window: [Double] = []
        var windowStart = 0
        var peak = 0
    }

    private var storeNames = StoreNameTable()
    private var stores: [StoreTally] = []
    private var actionNames = StoreNameTable()
    /// A store's action, by ids.
    private struct ActionKey: Hashable {
        var store: Int
        var action: Int
    }

    /// (store id, action id) → position in `actions`.
    private var actionIDs: [ActionKey: Int] = [:]
    private var actions: [TraceStatistics.ActionCount] = []
    private var intervals: [Double] = []
    private var firstElapsed: Double?
    private var lastElapsed: Double?
    private var unchangedCount = 0
    private var unchangedSteps: [Int] = []
    private var otherEvents = 0
    var unreadable = 0

    mutating func add(_ fields: EventFields, _ line: UnsafeRawBufferPointer, step: Int) {
        let elapsed = fields.elapsedRange.flatMap {
            Double(String(decoding: UnsafeRawBufferPointer(rebasing: line[$0]), as: UTF8.self))
        }
        if let elapsed {
            if let lastElapsed { intervals.append(elapsed - lastElapsed) }
            if firstElapsed == nil { firstElapsed = elapsed }
            lastElapsed = elapsed
        }
        guard let typeText = fields.type, let storeText = fields.store else {
            otherEvents += 1
            return
        }
        let type = name(typeText, line)
        guard type == .transition || type == .register else {
            otherEvents += 1
            return
        }
        let store = Self.id(storeText, line, in: &storeNames)
        if store == stores.count { stores.append(StoreTally()) }
        stores[store].events += 1
        if let elapsed { countRate(elapsed, store: store) }
        guard type == .transition, let actionText = fields.action else { return }
        let action = Self.id(actionText, line, in: &actionNames)
        let key = ActionKey(store: store, action: action)
        let position: Int
        if let known = actionIDs[key] {
            position = known
        } else {
            position = actions.count
            actionIDs[key] = position
            actions.append(
                TraceStatistics.ActionCount(store: storeNames.names[store], action: actionNames.names[action]))
        }
        actions[position].events += 1
        if fields.changed == false {
            actions[position].unchanged += 1
            stores[store].unchanged += 1
            unchangedCount += 1
            if unchangedSteps.count < TraceStatistics.listedUnchangedSteps { unchangedSteps.append(step) }
        }
    }

    /// Keeps the store's events of the last second and the most there ever were in one.
    private mutating func countRate(_ elapsed: Double, store: Int) {
        var tally = stores[store]
        stores[store] = StoreTally()  // no second reference while the window is changed
        tally.window.append(elapsed)
        while tally.windowStart < tally.window.count && tally.window[tally.windowStart] <= elapsed - 1 {
            tally.windowStart += 1
        }
        if tally.windowStart > 1024 && tally.windowStart * 2 > tally.window.count {
            tally.window.removeFirst(tally.windowStart)
            tally.windowStart = 0
        }
        tally.peak = max(tally.peak, tally.window.count - tally.windowStart)
        stores[store] = tally
    }

    private enum TypeName { case register, transition, other }

    private func name(_ text: EventFields.Text, _ line: UnsafeRawBufferPointer) -> TypeName {
        switch EventFields.string(text, in: line) {
        case "register": .register
        case "transition": .transition
        default: .other
        }
    }

    private static func id(_ text: EventFields.Text, _ line: UnsafeRawBufferPointer, in table: inout StoreNameTable)
        -> Int
    {
        if text.hasEscapes { return table.id(for: EventFields.string(text, in: line)) }
        return table.id(for: UnsafeRawBufferPointer(rebasing: line[text.range]))
    }

    func finish(events: Int) -> TraceStatistics {
        let storeCounts = stores.enumerated().map { id, tally in
            TraceStatistics.StoreCount(
                name: storeNames.names[id], events: tally.events, unchanged: tally.unchanged, peakPerSecond: tally.peak)
        }.sorted { ($0.events, $1.name) > ($1.events, $0.name) }
        let actionCounts = actions.sorted { ($0.events, $1.store, $1.action) > ($1.events, $0.store, $0.action) }
        let duration = firstElapsed.flatMap { first in lastElapsed.map { $0 - first } }
        return TraceStatistics(
            events: events, otherEvents: otherEvents, unreadableEvents: unreadable, stores: storeCounts,
            actions: actionCounts, intervals: TraceStatistics.Intervals(intervals), duration: duration,
            unchangedCount: unchangedCount, unchangedSteps: unchangedSteps)
    }
}
