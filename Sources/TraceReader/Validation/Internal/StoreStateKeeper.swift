@_spi(RewindInternals) internal import RewindSupport
import TraceJSON

/// The current state of each store of a version 2 trace, kept so that every `patch` can be
/// applied to the state before it (shared/TRACE_FORMAT.md, "Version 2: patches"; `bad-patch`).
///
/// A store's latest whole `state` is kept as the bytes of its line (copied, not parsed), and
/// parsed only when a patch comes for it; from then on its state is kept as a value that each
/// patch changes in place (`PatchApplier`, one operation after the other, so that no operation
/// copies the state). So a store never patched costs a copy of its latest state, and one that is
/// patched one parsed state; never one per event. A version 1 trace keeps nothing.
struct StoreStateKeeper {
    /// What is known of one store's state.
    private enum Kept {
        /// Not known: never set (an unregistered store), or a patch did not apply.
        case unknown
        /// The bytes of its latest whole `state`, valid JSON.
        case text([UInt8])
        /// Its state, with the patches since its latest whole state applied, and its size.
        case value(JSONValue, RebuiltStateSize)
    }

    /// What applying a patch found.
    package enum Outcome {
        /// The patch applied; the store's state is the result.
        case applied
        /// The store's state is not known, so the patch was not checked.
        case skipped
        /// The patch does not apply; the store's state is unknown from now on.
        case failed(JSONPatchError)
    }

    private var kept: [Kept] = []
    /// The most values copies may add to a state beyond those its lines spell out
    /// (`RebuiltStateSize.maximumValues`; less in a test of the bound).
    var valueLimit = RebuiltStateSize.maximumValues

    /// Sets `store`'s state to the whole state written in `bytes`.
    mutating func setState(of store: Int, to bytes: ByteView) {
        grow(to: store)
        var text: [UInt8] = []
        if case .text(let old) = kept[store] {
            kept[store] = .unknown  // so that `old` is the only reference and is reused in place
            text = old
            text.removeAll(keepingCapacity: true)
        }
        bytes.append(to: &text)
        kept[store] = .text(text)
    }

    /// Applies the operations of a patch (shaped as the format says) to `store`'s state.
    mutating func apply(_ operations: [JSONValue], to store: Int) -> Outcome {
        grow(to: store)
        var state: JSONValue
        var size: RebuiltStateSize
        switch kept[store] {
        case .unknown:
            return .skipped
        case .text(let text):
            guard let parsed = try? JSONParser.parse(text) else {
                // Valid JSON that the parser refuses (nested too deeply): not checkable.
                kept[store] = .unknown
                return .skipped
            }
            state = parsed
            size = RebuiltStateSize(of: parsed, valueLimit: valueLimit)
        case .value(let value, let valueSize):
            state = value
            size = valueSize
        }
        kept[store] = .unknown  // `state` holds the only reference: changed in place
        do {
            try JSONPatch.apply(operations, to: &state, size: &size)
        } catch {
            return .failed(error)
        }
        kept[store] = .value(state, size)
        return .applied
    }

    private mutating func grow(to store: Int) {
        if store >= kept.count { kept.append(contentsOf: repeatElement(.unknown, count: store + 1 - kept.count)) }
    }
}
