@_spi(RewindInternals) internal import RewindSupport

/// The last state `TraceFile` rebuilt from patches, per store (version 2), so that moving one
/// step forward applies one patch instead of every patch since the store's last whole state.
///
/// A class because it is the one cache of an open trace, shared by every copy of a reference to
/// it; its entries are behind a `Lock`, since a `TraceFile` may be read from several threads.
final class RebuiltStateCache: Sendable {
    /// One store's last rebuilt state: its state just after its event at `position` of the
    /// index's `storeEvents`.
    struct Entry {
        var position: Int
        var state: JSONValue
        /// The size of `state`, kept with it (`RebuiltStateSize`).
        var size: RebuiltStateSize
    }

    /// Store id → its entry. Guarded by the lock: readers on several threads take and keep.
    private let entries = Lock<[Int: Entry]>([:])

    /// Takes out `store`'s entry when its position is in `positions` (so that the caller holds
    /// the state's only reference and changes it in place); nil otherwise, the entry left.
    func take(store: Int, in positions: ClosedRange<Int>) -> Entry? {
        entries.withLock { entries in
            guard let entry = entries[store], positions.contains(entry.position) else { return nil }
            entries[store] = nil
            return entry
        }
    }

    /// Keeps `entry` as `store`'s last rebuilt state.
    func keep(_ entry: Entry, store: Int) {
        entries.withLock { $0[store] = entry }
    }
}
