import Recorder

/// What a recorder that writes patches (`TraceRecorder.Patches.automatic()`) keeps of each live
/// store: its last recorded state, encoded for patches (`ShallowState`), and what was written
/// since its last whole state, for the format's rule of when to write a whole state again
/// (shared/TRACE_FORMAT.md, "Version 2: patches"). Used under the recorder's lock; a class,
/// which the recorder keeps as its `PatchRecording`.
final class PatchedStates {
    struct Store {
        /// The last recorded state; nil when unknown (an encoding failed, or two live stores
        /// share the name), and then the next transition writes the whole state.
        var last: ShallowState?
        /// The size of the last whole state, and the patches written since.
        var wholeBytes = 0
        var patchBytes = 0
        var patchCount = 0
    }

    /// At most this many patches follow a whole state.
    static var maximumPatches: Int { 1024 }
    /// A store whose last whole state is smaller writes whole states (`Patches.automatic()`).
    let smallestState: Int

    private(set) var stores: [String: Store] = [:]
    /// The masks of array element types (`ElementMask`).
    let masks = ElementMask.Cache()

    init(smallestState: Int) {
        self.smallestState = smallestState
    }
    /// What the event being written changes, which counts once it is in a file.
    private var pending: (store: String, state: ShallowState?, patchBytes: Int?, wholeBytes: Int)?

    /// The last state of `store` and the most bytes its next patch may take, when the rule
    /// allows a patch; nil when the next transition writes the whole state.
    func budget(for store: String) -> (last: ShallowState, limit: Int)? {
        guard let entry = stores[store], let last = entry.last, entry.patchCount < Self.maximumPatches,
            entry.wholeBytes >= smallestState
        else { return nil }
        let limit = entry.wholeBytes - entry.patchBytes
        return limit > 2 ? (last, limit) : nil
    }

    /// Remembers that the event being written carries a patch of `size` bytes to `state`.
    func rememberPatch(store: String, state: ShallowState, size: Int) {
        pending = (store, state, size, 0)
    }

    /// Remembers that the event being written carries the whole state, `size` bytes (`state`
    /// nil when it could not be encoded for patches).
    func rememberWhole(store: String, state: ShallowState?, size: Int) {
        pending = (store, state, nil, size)
    }

    /// Makes the remembered state of the event just written the store's last state.
    func commit() {
        guard let (store, state, patchBytes, wholeBytes) = pending else { return }
        pending = nil
        var entry = stores[store] ?? Store()
        entry.last = state
        if let patchBytes {
            entry.patchBytes += patchBytes
            entry.patchCount += 1
        } else {
            entry = Store(last: state, wholeBytes: wholeBytes)
        }
        stores[store] = entry
    }

    /// A new file of a rolling trace registered `store` with its whole state, `size` bytes.
    func restart(_ store: String, wholeBytes size: Int) {
        stores[store]?.wholeBytes = size
        stores[store]?.patchBytes = 0
        stores[store]?.patchCount = 0
    }

    /// Forgets `store`, which ended; with `others` (live stores of the same name), only its
    /// state, which may have been theirs.
    func forget(_ store: String, others: Bool) {
        if others { stores[store]?.last = nil } else { stores[store] = nil }
    }
}
