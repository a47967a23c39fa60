/// The index of one trace file: where each event's line starts, its line number and step, and
/// for each store the events that set its state. It holds no event data; events are read from
/// the file on demand.
///
/// Kept per file on purpose, so that a trace rolled over into several files can later be read as
/// one by joining the files' indices.
///
/// Cost per event: 8 bytes for its offset, and 4 for each of these that does not simply count
/// up (see `IntegerColumn`): its line number (lines were skipped), its step (seqs have gaps or go
/// back; then the seqs are kept too, and the steps count up) and its place in its store's list
/// (several stores). A clean trace with several stores costs 12 bytes per event; a damaged one at
/// most 20, while its seqs and line numbers fit in 32 bits.
package struct TraceIndex: Sendable {
    /// The number of bytes indexed: the file's size when it was opened.
    package var byteCount = 0
    /// Each event's byte offset in the file.
    package var offsets: [Int] = []
    /// Each event's 1-based line number.
    package var lines = IntegerColumn()
    /// Each event's step: its `seq`, or its position + 1 in a trace whose seqs do not go up.
    /// Always increasing.
    var steps = IntegerColumn()
    /// Each event's `seq`, kept only when the steps are not the seqs.
    var seqs: IntegerColumn?
    /// Store names, in the order of their first event.
    package var storeNames: [String] = []
    /// Store name → position in `storeNames`.
    package var storeIDs: [String: Int] = [:]
    /// The indices of the register, transition and restore events of every store, store after store
    /// (store `s` holds `storeEvents[storeBounds[s]..<storeBounds[s + 1]]`), each store's in
    /// file order.
    package var storeEvents = IntegerColumn()
    package var storeBounds: [Int] = [0]
    /// Version 2: for each position of `storeEvents`, whether that event is a transition that
    /// carries a `patch` instead of its `state`. Nil when no event does (every version 1 trace).
    package var patched: BitColumn?
    /// What indexing skipped or noticed, in line order.
    var issues: [TraceReadIssue] = []

    /// The number of events.
    var eventCount: Int { offsets.count }

    /// The step of the last event; 0 when there is none.
    var lastStep: Int { eventCount == 0 ? 0 : steps[eventCount - 1] }

    /// The `seq` of event `index`.
    func seq(at index: Int) -> Int {
        seqs?[index] ?? steps[index]
    }

    /// The number of events at or before `step`: the events that step `step` comes after.
    package func eventCount(atStep step: Int) -> Int {
        steps.firstIndex(above: step, in: 0..<eventCount)
    }

    /// The event whose step is `step`.
    func eventIndex(atStep step: Int) -> Int? {
        let after = eventCount(atStep: step)
        guard after > 0, steps[after - 1] == step else { return nil }
        return after - 1
    }

    /// The first event, in file order, whose `seq` is `seq`.
    func eventIndex(forSeq seq: Int) -> Int? {
        guard let seqs else { return eventIndex(atStep: seq) }
        // Only in a trace whose seqs do not go up: a plain search.
        for index in 0..<eventCount where seqs[index] == seq { return index }
        return nil
    }

    /// The latest register, transition or restore event of store `store` among the first `count`
    /// events.
    func latestEvent(ofStore store: Int, amongFirst count: Int) -> Int? {
        latestPosition(ofStore: store, amongFirst: count).map { storeEvents[$0] }
    }

    /// The position in `storeEvents` of the latest register, transition or restore event of
    /// store `store` among the first `count` events.
    package func latestPosition(ofStore store: Int, amongFirst count: Int) -> Int? {
        let range = storeRange(store)
        let position = storeEvents.firstIndex(above: count - 1, in: range)
        return position > range.lowerBound ? position - 1 : nil
    }

    /// The positions in `storeEvents` of store `store`'s events.
    func storeRange(_ store: Int) -> Range<Int> {
        storeBounds[store]..<storeBounds[store + 1]
    }

    /// Whether the event at `position` of `storeEvents` carries a `patch` instead of its `state`.
    package func isPatched(_ position: Int) -> Bool {
        patched?[position] ?? false
    }

    /// The position in `storeEvents` of the latest event of store `store`, at or before
    /// `position`, that carries a whole `state`; nil when all of them carry patches.
    package func wholeStatePosition(atOrBefore position: Int, ofStore store: Int) -> Int? {
        let range = storeBounds[store]..<(position + 1)
        guard let patched else { return range.isEmpty ? nil : position }
        return patched.lastClear(in: range)
    }

    /// Where the line of event `index` must end by: the next event's offset, or the end of the
    /// indexed bytes.
    package func lineLimit(of index: Int) -> Int {
        index + 1 < eventCount ? offsets[index + 1] : byteCount
    }

    /// The bytes the index takes in memory, its arrays' elements (store names and issues aside).
    var memoryBytes: Int {
        offsets.count * MemoryLayout<Int>.stride + lines.byteCount + steps.byteCount
            + (seqs?.byteCount ?? 0) + storeEvents.byteCount + storeBounds.count * MemoryLayout<Int>.stride
            + (patched?.byteCount ?? 0)
    }
}
