@_spi(RewindInternals) internal import RewindSupport
import TraceJSON
import TraceReader

// `TerminalText` moves from RewindSupport to ToolSupport on main: import it from where it is.
#if canImport(ToolSupport)
    @_spi(RewindInternals) internal import ToolSupport
#endif

/// One run of a comparison, walked event by event: its cursor, each store's state after the
/// latest event (version 2 patches applied), and its latest events for cause chains.
///
/// A state is kept as the bytes the trace wrote while it can be: two runs that wrote the same
/// bytes agree without either being parsed. It is parsed when the bytes differ, when a patch
/// applies to it, and for the app state at a difference.
struct RunWalk {
    /// A store's state: as written, or parsed (rebuilt by patches, with its size).
    enum StoreState {
        case bytes(ArraySlice<UInt8>)
        case value(JSONValue, RebuiltStateSize)

        var value: JSONValue? {
            switch self {
            case .bytes(let bytes): try? JSONParser.parse(bytes)
            case .value(let value, _): value
            }
        }

        /// The state, parsed, and its size; nil when its bytes do not parse.
        var sizedValue: (JSONValue, RebuiltStateSize)? {
            switch self {
            case .bytes(let bytes):
                guard let value = try? JSONParser.parse(bytes) else { return nil }
                return (value, RebuiltStateSize(of: value))
            case .value(let value, let size): return (value, size)
            }
        }
    }

    let cursor: EventCursor
    /// Each store's state after the latest event.
    private(set) var states: [String: StoreState] = [:]
    /// The stores in the order first seen.
    private var order: [String] = []
    private var window: CauseWindow

    init(_ input: TraceComparison.Input, window: Int) throws(ValidationFileError) {
        cursor = try EventCursor(input)
        self.window = CauseWindow(capacity: window)
    }

    /// The app state after the latest event: each store's state, parsed, in the order first seen.
    var appState: JSONObject {
        JSONObject(order.compactMap { store in states[store]?.value.map { (store, $0) } })
    }

    /// The next event, with the states brought past it; nil at the end.
    /// - Throws: `ValidationFileError` when a read fails or a version 2 patch does not apply.
    mutating func advance() throws(ValidationFileError) -> EventCursor.Event? {
        guard let next = try cursor.next() else { return nil }
        window.add(next.event)
        guard next.event.setsState, let store = next.event.store else { return next }
        if states[store] == nil { order.append(store) }
        if let state = next.raw(next.fields.stateRange) {
            states[store] = .bytes(state)
        } else if cursor.header.version >= 2, next.event.type == "transition",
            let patch = next.value(next.fields.patchRange)
        {
            guard let operations = patch.arrayValue else {
                throw ValidationFileError(
                    path: cursor.name, line: next.event.line,
                    message:
                        "the patch of \(TerminalText.safe(store)) is \(patch.kindName), not an array of operations; run 'inspector validate' on it"
                )
            }
            guard var (state, size) = states[store]?.sizedValue else {
                throw ValidationFileError(
                    path: cursor.name, line: next.event.line,
                    message:
                        "the patch of \(TerminalText.safe(store)) applies to a state this trace never gave (no register before it); run 'inspector validate' on it"
                )
            }
            states[store] = nil  // `state` holds the only reference: changed in place
            do {
                try JSONPatch.apply(operations, to: &state, size: &size)
                states[store] = .value(state, size)
            } catch {
                // Worded as every other command words it (`TraceFile.readState`), with the kind
                // `validate` reports.
                let action = JSONPrinter.quoted(next.event.action ?? "?", terminalSafe: true)
                throw ValidationFileError(
                    path: cursor.name, line: next.event.line,
                    message:
                        "the patch of \(action) on \(JSONPrinter.quoted(store, terminalSafe: true)) does not apply to its state before it (bad-patch): \(error); run 'inspector validate' on it"
                )
            }
        } else {
            states[store] = nil
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
        shown.args = event.value(event.fields.argsRange)?.objectValue
        let causes = try window.chain(of: event.event, rereading: input, cursor: cursor)
        return TraceDifference.Side(name: cursor.name, event: shown, eventCount: cursor.eventCount, causes: causes)
    }
}
