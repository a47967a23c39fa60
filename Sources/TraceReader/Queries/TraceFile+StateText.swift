/// The app state and stores' states as `JSONText`: the states' bytes as the trace holds them,
/// checked and indexed, with no `JSONValue` tree. What `inspector diff` and `show` read, so that
/// a state of any size costs about its own size in memory (a tree costs 25 to 30 times more).
extension TraceFile {
    /// The app state at step `step`, as `appState(atStep:)` gives it (each store that has an
    /// event at or before the step, mapped to the `state` of its latest `register` or
    /// `transition` event, in the order of `storeNames`), as one JSON object's text. With
    /// `store`, only that store's member (an empty object when it has no state yet).
    public func appStateText(atStep step: Int, store: String? = nil) -> JSONText {
        var unreadable: Int?
        return appStateText(atStep: step, store: store, unreadable: &unreadable)
    }

    /// The app state at step `step` as `appStateText(atStep:store:)` gives it, or an error when
    /// a line it needs can no longer be read: never a state with a store left out.
    /// - Throws: `TraceChangedError` naming the first such line.
    public func readAppStateText(atStep step: Int, store: String? = nil) throws(TraceChangedError) -> JSONText {
        var unreadable: Int?
        let text = appStateText(atStep: step, store: store, unreadable: &unreadable)
        if let unreadable { throw TraceChangedError(path: path, line: index.lines[unreadable]) }
        return text
    }

    /// The state of `store` at step `step` as `stateText(of:atStep:)` gives it, or an error when
    /// its line can no longer be read.
    /// - Throws: `TraceChangedError` naming that line.
    public func readStateText(of store: String, atStep step: Int) throws(TraceChangedError) -> JSONText? {
        guard step > 0, let id = index.storeIDs[store],
            let event = index.latestEvent(ofStore: id, amongFirst: index.eventCount(atStep: step))
        else { return nil }
        var bytes: [UInt8] = []
        guard appendState(ofEvent: event, to: &bytes), let text = try? JSONText(validating: bytes) else {
            throw TraceChangedError(path: path, line: index.lines[event])
        }
        return text
    }

    /// The app state's text; the first event whose line could not be read goes to `unreadable`
    /// (its store is left out).
    private func appStateText(atStep step: Int, store: String?, unreadable: inout Int?) -> JSONText {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        if step > 0 {
            let count = index.eventCount(atStep: step)
            for (id, name) in index.storeNames.enumerated() where store == nil || store == name {
                guard let event = index.latestEvent(ofStore: id, amongFirst: count) else { continue }
                let start = bytes.count
                if start > 1 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(contentsOf: JSONPrinter.quoted(name).utf8)
                bytes.append(UInt8(ascii: ":"))
                if !appendState(ofEvent: event, to: &bytes) {
                    bytes.removeSubrange(start...)  // no longer readable: left out, as appState does
                    if unreadable == nil { unreadable = event }
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
            let event = index.latestEvent(ofStore: id, amongFirst: index.eventCount(atStep: step))
        else { return nil }
        var bytes: [UInt8] = []
        guard appendState(ofEvent: event, to: &bytes) else { return nil }
        return try? JSONText(validating: bytes)
    }

    /// Appends the bytes of the `state` of event `event` to `bytes`; false when the line can no
    /// longer be read as it was indexed, or has no state.
    private func appendState(ofEvent event: Int, to bytes: inout [UInt8]) -> Bool {
        let appended: Bool? = scanEvent(at: event) { fields, line in
            guard let range = fields.stateRange else { return false }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: line[range]))
            return true
        }
        return appended == true
    }
}
