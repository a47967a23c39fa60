@_spi(RewindInternals) internal import RewindSupport

/// One run of a comparison, walked event by event: its cursor, its app state after the latest
/// event (version 2 patches applied), and its latest events for cause chains.
struct RunWalk {
    let cursor: EventCursor
    /// Each store's state after the latest event, stores in the order first seen.
    private(set) var appState = JSONObject()
    private var window: CauseWindow

    init(_ input: TraceComparison.Input, window: Int) throws(ValidationFileError) {
        cursor = try EventCursor(input)
        self.window = CauseWindow(capacity: window)
    }

    /// The next event, with the app state brought past it; nil at the end.
    /// - Throws: `ValidationFileError` when a read fails or a version 2 patch does not apply.
    mutating func advance() throws(ValidationFileError) -> EventCursor.Event? {
        guard let next = try cursor.next() else { return nil }
        window.add(next.event)
        guard next.event.setsState, let store = next.event.store else { return next }
        if let state = next.object["state"] {
            appState.set(state, forKey: store)
        } else if cursor.header.version >= 2, next.event.type == "transition", let patch = next.object["patch"] {
            guard let before = appState[store] else {
                throw ValidationFileError(
                    path: cursor.name, line: next.line,
                    message:
                        "the patch of \(TerminalText.safe(store)) applies to a state this trace never gave (no register before it); run 'inspector validate' on it"
                )
            }
            do {
                appState.set(try JSONPatch.apply(patch, to: before), forKey: store)
            } catch {
                throw ValidationFileError(
                    path: cursor.name, line: next.line,
                    message:
                        "the patch does not apply to the state before it (\(error)); run 'inspector validate' on it")
            }
        } else {
            appState.set(nil, forKey: store)
        }
        return next
    }

    /// This run's side of a difference at `event` (nil: the run has ended).
    func side(event: EventCursor.Event?, input: TraceComparison.Input) throws(ValidationFileError)
        -> TraceDifference.Side
    {
        guard let event else {
            return TraceDifference.Side(name: cursor.name, event: nil, eventCount: cursor.eventCount, causes: nil)
        }
        var shown = event.event
        shown.state = nil
        let causes = try window.chain(of: event.event, rereading: input, cursor: cursor)
        return TraceDifference.Side(name: cursor.name, event: shown, eventCount: cursor.eventCount, causes: causes)
    }
}
