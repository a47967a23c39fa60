@_spi(RewindInternals) internal import RewindSupport
import TraceJSON

/// A store's state at one of its events, read from the event's whole `state` or, in a version 2
/// trace, rebuilt from the store's latest whole state before it by applying the patches after it
/// in order (shared/TRACE_FORMAT.md, "Version 2: patches").
///
/// The index marks which events carry a patch (`TraceIndex.patched`), so the latest whole state
/// is found without reading the file; a writer writes one at least every 1,024 patches or when
/// the patches outweigh the state, which bounds the work. The last state rebuilt for each store
/// is kept (`RebuiltStateCache`): moving forward from it applies only the patches in between.
extension TraceFile {
    /// The state of store `store` (an id of the index) just after its event at `position` of
    /// the index's `storeEvents`; an error, never a wrong state, when it cannot be given.
    package func storeState(ofStore store: Int, at position: Int) -> Result<JSONValue, TraceReadError> {
        guard index.isPatched(position) else { return wholeState(at: position) }
        // Going forward from the last state rebuilt, with only patches in between (a walk over
        // the store's events): that state is the start, and the whole state before it is not
        // looked for. Looking back over every patch since it, at every event, was quadratic in
        // a run of patches that breaks the format's bound (28% of `when S` on 200,000 patches).
        if let near = rebuiltStates.position(ofStore: store), near <= position,
            near >= index.storeBounds[store], index.patched?.lastClear(in: (near + 1)..<(position + 1)) == nil,
            rebuiltStates.failure(store: store, in: near...position) == nil,
            var entry = rebuiltStates.take(store: store, in: near...position)
        {
            return rebuild(from: &entry, to: position, ofStore: store)
        }
        guard let whole = index.wholeStatePosition(atOrBefore: position, ofStore: store) else {
            let name = EventLineCheck.quoted(index.storeNames[store])
            return .failure(
                TraceReadError(
                    path: path, line: index.lines[index.storeEvents[index.storeBounds[store]]], kind: .unknownState,
                    message:
                        "store \(name) starts with a patch, which has no state before it to apply to (a store starts with a register event that carries its whole \"state\"); its state is unknown until its first event with a whole \"state\""
                ))
        }
        // A patch between the whole state and here did not apply: the state is unknown.
        if let error = rebuiltStates.failure(store: store, in: whole...position) { return .failure(error) }
        var entry: RebuiltStateCache.Entry
        if let cached = rebuiltStates.take(store: store, in: whole...position) {
            entry = cached
        } else {
            switch wholeState(at: whole) {
            case .success(let state):
                entry = RebuiltStateCache.Entry(
                    position: whole, state: state, size: RebuiltStateSize(of: state, valueLimit: rebuiltValueLimit))
            case .failure(let error): return .failure(error)
            }
        }
        return rebuild(from: &entry, to: position, ofStore: store)
    }

    /// Applies the patches after `entry` up to the one at `position`, keeps the result as the
    /// store's last rebuilt state, and gives it; the error of a patch that does not apply.
    private func rebuild(from entry: inout RebuiltStateCache.Entry, to position: Int, ofStore store: Int) -> Result<
        JSONValue, TraceReadError
    > {
        while entry.position < position {
            let next = entry.position + 1
            if let error = applyPatch(at: next, ofStore: store, to: &entry.state, size: &entry.size) {
                if error.kind == .badPatch { rebuiltStates.keepFailure(error, at: next, store: store) }
                return .failure(error)
            }
            entry.position = next
        }
        rebuiltStates.keep(entry, store: store)
        return .success(entry.state)
    }

    /// The whole `state` of the event at `position` of `storeEvents`, parsed from its line.
    private func wholeState(at position: Int) -> Result<JSONValue, TraceReadError> {
        let event = index.storeEvents[position]
        let parsed: JSONValue?? = scanEvent(at: event) { fields, line in
            fields.stateRange.flatMap { try? JSONParser.parse(line[$0]) }
        }
        guard let state = parsed ?? nil else { return .failure(TraceReadError(path: path, line: index.lines[event])) }
        return .success(state)
    }

    /// Applies the `patch` of the event at `position` of `storeEvents` to `state`, in place;
    /// the error when it cannot be read or does not apply (`state` is then to be thrown away).
    private func applyPatch(
        at position: Int, ofStore store: Int, to state: inout JSONValue, size: inout RebuiltStateSize
    ) -> TraceReadError? {
        let event = index.storeEvents[position]
        let line = index.lines[event]
        let read: (patch: Result<JSONValue, JSONParseError>?, action: String)? = scanEvent(at: event) { fields, bytes in
            let action = fields.action.map { EventFields.string($0, in: bytes) } ?? "?"
            let patch = fields.patchRange.map { range in
                Result { () throws(JSONParseError) in
                    try JSONParser.parse(bytes[range])
                }
            }
            return (patch, action)
        }
        // Indexed as a patched transition: a line without a patch is no longer that event.
        guard let read, let patch = read.patch else { return TraceReadError(path: path, line: line) }
        let what =
            "the patch of \(EventLineCheck.quoted(read.action)) on \(EventLineCheck.quoted(index.storeNames[store]))"
        let unknown = "the store's state is unknown from this line until its next event with a whole \"state\""
        let operations: [JSONValue]
        switch patch {
        case .success(.array(let elements)): operations = elements
        case .success(let other):
            // The index checked the shape; only a file that changed since gets here.
            return TraceReadError(
                path: path, line: line, kind: .badPatch,
                message: "\(what) is \(other.kindName), not an array of operations; \(unknown)")
        case .failure(let error):
            return TraceReadError(
                path: path, line: line, kind: .badPatch,
                message: "\(what) cannot be read (column \(error.column): \(error.message)); \(unknown)")
        }
        do {
            try JSONPatch.apply(operations, to: &state, size: &size)
        } catch {
            return TraceReadError(
                path: path, line: line, kind: .badPatch,
                message: "\(what) does not apply to its state before it (bad-patch): \(error); \(unknown)")
        }
        return nil
    }
}
