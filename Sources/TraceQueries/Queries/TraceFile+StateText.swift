@_spi(RewindInternals) internal import RewindSupport
import TraceJSON
import TraceReader

/// The app state and stores' states as `JSONText`: the states' bytes as the trace holds them,
/// checked and indexed, with no `JSONValue` tree. What `inspector diff` and `show` read, so that
/// a state of any size costs about its own size in memory (a tree costs 25 to 30 times more).
/// In a version 2 trace, a state rebuilt from patches is rebuilt as `state(of:atStep:)` does
/// (as a tree) and then written as text.
extension TraceFile {
    /// The app state at step `step`, as `appState(atStep:)` gives it (each store that has an
    /// event at or before the step, mapped to the `state` of its latest `register` or
    /// `transition` event, in the order of `storeNames`), as one JSON object's text. With
    /// `store`, only that store's member (an empty object when it has no state yet).
    public func appStateText(atStep step: Int, store: String? = nil) -> JSONText {
        var unreadable: TraceReadError?
        return appStateText(atStep: step, store: store, unreadable: &unreadable)
    }

    /// The app state at step `step` as `appStateText(atStep:store:)` gives it, or an error when
    /// a store's state there cannot be given: never a state with a store left out.
    /// - Throws: `TraceReadError` naming the first such line: one that can no longer be read,
    ///   or (version 2) a patch that does not apply.
    public func readAppStateText(atStep step: Int, store: String? = nil) throws(TraceReadError) -> JSONText {
        var unreadable: TraceReadError?
        let text = appStateText(atStep: step, store: store, unreadable: &unreadable)
        if let unreadable { throw unreadable }
        return text
    }

    /// The state of `store` at step `step` as `stateText(of:atStep:)` gives it, or an error when
    /// it cannot be given.
    /// - Throws: `TraceReadError` naming the line at fault: one that can no longer be read, or
    ///   (version 2) a patch that does not apply.
    public func readStateText(of store: String, atStep step: Int) throws(TraceReadError) -> JSONText? {
        guard step > 0, let id = index.storeIDs[store],
            let position = index.latestPosition(ofStore: id, amongFirst: index.eventCount(atStep: step))
        else { return nil }
        var bytes: [UInt8] = []
        if let error = appendState(ofStore: id, at: position, to: &bytes) { throw error }
        guard let text = try? JSONText(validating: bytes) else {
            throw TraceReadError(path: path, line: index.lines[index.storeEvents[position]])
        }
        return text
    }

    /// The app state's text; why the first store's state that could not be given could not goes
    /// to `unreadable` (that store is left out).
    private func appStateText(atStep step: Int, store: String?, unreadable: inout TraceReadError?) -> JSONText {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        if step > 0 {
            let count = index.eventCount(atStep: step)
            for (id, name) in index.storeNames.enumerated() where store == nil || store == name {
                guard let position = index.latestPosition(ofStore: id, amongFirst: count) else { continue }
                let start = bytes.count
                if start > 1 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(contentsOf: JSONPrinter.quoted(name).utf8)
                bytes.append(UInt8(ascii: ":"))
                if let error = appendState(ofStore: id, at: position, to: &bytes) {
                    bytes.removeSubrange(start...)  // cannot be given: left out, as appState does
                    if unreadable == nil { unreadable = error }
                }
            }
        }
        bytes.append(UInt8(ascii: "}"))
        return (try? JSONText(validating: bytes)) ?? JSONText(.object(JSONObject()))
    }

    /// The state of `store` at step `step`, as `state(of:atStep:)` gives it, as JSON text; nil
    /// before its first event, or for a store the trace does not have.
    public func stateText(of store: String, atStep step: Int) -> JSONText? {
        guard step > 0, let id = index.storeIDs[store],
            let position = index.latestPosition(ofStore: id, amongFirst: index.eventCount(atStep: step))
        else { return nil }
        var bytes: [UInt8] = []
        guard appendState(ofStore: id, at: position, to: &bytes) == nil else { return nil }
        return try? JSONText(validating: bytes)
    }

    /// Appends the state of store `store` just after its event at `position` of `storeEvents`
    /// to `bytes`: the bytes of the event's `state`, or (version 2) the state rebuilt from
    /// patches, written compactly. Nil when appended; otherwise why it cannot be given.
    private func appendState(ofStore store: Int, at position: Int, to bytes: inout [UInt8]) -> TraceReadError? {
        guard index.isPatched(position) else {
            let event = index.storeEvents[position]
            return appendState(ofEvent: event, to: &bytes) ? nil : TraceReadError(path: path, line: index.lines[event])
        }
        switch storeState(ofStore: store, at: position) {
        case .success(let state):
            bytes.append(contentsOf: JSONPrinter.compactUTF8(state))
            return nil
        case .failure(let error):
            return error
        }
    }

    /// Appends the bytes of the `state` of event `event` to `bytes`; false when the line can no
    /// longer be read as it was indexed, or has no state.
    private func appendState(ofEvent event: Int, to bytes: inout [UInt8]) -> Bool {
        let appended: Bool? = scanEvent(at: event) { fields, line in
            guard let range = fields.stateRange else { return false }
            line[range].append(to: &bytes)
            return true
        }
        return appended == true
    }
}
