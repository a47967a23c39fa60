@_spi(RewindInternals) internal import RewindSupport
import TraceJSON

/// The last state `TraceFile` rebuilt from patches, per store (version 2), so that moving one
/// step forward applies one patch instead of every patch since the store's last whole state.
///
/// A class because it is the one cache of an open trace, shared by every copy of a reference to
/// it; its entries are behind a `Lock`, since a `TraceFile` may be read from several threads.
final class RebuiltStateCache: Sendable {
    /// One store's last rebuilt state: its state just after its event at `position` of the
    /// index's `storeEvents`.
    package struct Entry {
        var position: Int
        var state: JSONValue
        /// The size of `state`, kept with it (`RebuiltStateSize`).
        var size: RebuiltStateSize
    }

    /// Store id → its entry. Guarded by the lock: readers on several threads take and keep.
    private let entries = Lock<[Int: Entry]>([:])

    /// Takes out `store`'s entry when its position is in `positions` (so that the caller holds
    /// the state's only reference and changes it in place); nil otherwise, the entry left.
    /// The position of `store`'s last rebuilt state, left in place; nil when none is kept.
    func position(ofStore store: Int) -> Int? {
        entries.withLock { $0[store]?.position }
    }

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

    /// Store id → the position of its last patch that did not apply, and why. Guarded by the
    /// lock: so that asking again for a state after it (`step` going back and forth) answers at
    /// once instead of parsing and applying every patch before it again.
    private let failures = Lock<[Int: (position: Int, error: TraceReadError)]>([:])

    /// The error of `store`'s patch that did not apply, when its position is in `positions`.
    func failure(store: Int, in positions: ClosedRange<Int>) -> TraceReadError? {
        failures.withLock { failures in
            guard let failure = failures[store], positions.contains(failure.position) else { return nil }
            return failure.error
        }
    }

    /// Keeps `error`, why the patch at `position` of `store` did not apply.
    func keepFailure(_ error: TraceReadError, at position: Int, store: Int) {
        failures.withLock { $0[store] = (position, error) }
    }
}
