@_spi(RewindInternals) internal import RewindSupport
import TraceJSON

/// A trace opened for reading (shared/TRACE_FORMAT.md): its header, its events one by one, and
/// the app state at any step, fast on a trace of a few lines and on one of gigabytes.
///
/// ```swift
/// let trace = try TraceFile(path: "traces/browse.jsonl")
/// trace.eventCount                                   // 42
/// trace.event(at: 0)?.store                          // "CatalogStore"
/// trace.appState(atStep: trace.lastStep)["CatalogStore"]
/// for issue in trace.issues { print(issue) }         // line 17: malformed: …
/// ```
///
/// Opening indexes the file instead of decoding it: each processor reads a piece of the file
/// with `pread`, a few megabytes at a time (the file is never mapped, so a file truncated while
/// it is open cannot crash the process), line ends are found with `memchr`, and each line is
/// checked as strict JSON while only its `type`, `seq` and `store` are taken. The index costs 12 bytes per event in a
/// clean trace and at most 20 in a damaged one, whatever the size of the states; an event is
/// decoded only when it is asked for, by reading its one line again from the file.
/// The state of a store at a step is found by binary search over that store's events, so any
/// step is as fast as the first. In a version 2 trace, where a transition may carry a `patch`
/// instead of its `state`, the index also marks the events that carry one (one bit per event),
/// and a store's state is rebuilt from its latest whole state by applying the patches after it
/// in order; a writer writes a whole state at least every 1,024 patches, which bounds the work,
/// and the last rebuilt state of each store is kept, so stepping forward applies one patch. A
/// patch that does not apply gives an error naming its line (`TraceReadError`), never a wrong
/// state.
///
/// Nothing in a file makes opening or reading trap. A file that cannot be read, or whose line 1
/// is not a trace header, throws `TraceOpenError`. Every later problem is an issue and the rest
/// of the trace stays readable: a line that is not an event is skipped (`malformed`), a torn last
/// line is not an event (`truncated`), empty lines are skipped, `\r\n` is read as `\n`, and an
/// event of an unknown type is kept but changes no store.
///
/// A trace that is still being written can be opened: the file is indexed as it is when opened,
/// and lines written later are not seen (open it again to see them). Lines are read again from
/// the file on demand; if the file was truncated or rewritten since it was opened, an event that
/// can no longer be read as it was indexed is nil, and leaves its store out of `appState`.
///
/// A class because its identity is the point: one open file, closed when the last reference
/// goes. Immutable after `init` but for the cache of rebuilt states, which is behind a lock
/// (every stored property is a `let` of a `Sendable` type), so it is checked `Sendable` and may
/// be read from several threads at once.
public final class TraceFile: Sendable {
    /// The path the trace was opened from, as given.
    public let path: String
    /// Line 1: the format version, the app and the state machines of the stores.
    public let header: TraceHeader

    package let source: TraceSource
    package let index: TraceIndex
    /// Version 2: the last state rebuilt from patches, per store.
    let rebuiltStates = RebuiltStateCache()
    /// Version 2: the most values copies may add to a rebuilt state beyond those its lines spell
    /// out (`RebuiltStateSize.maximumValues`; less in a test of the bound).
    package let rebuiltValueLimit: Int

    /// Opens and indexes the trace at `path`: a file, or a pipe such as `/dev/stdin` (read whole,
    /// up to 1 GiB).
    /// - Throws: `TraceOpenError` when the file is missing, unreadable or a directory, or when
    ///   line 1 is not a trace header (the error says why and what to do).
    public convenience init(path: String) throws(TraceOpenError) {
        try self.init(TraceLoader.open(path: path), path: path)
    }

    /// Opens a trace held in memory, such as `MemorySink().data` in a test.
    /// - Parameter name: what error messages call the trace.
    /// - Throws: `TraceOpenError` when line 1 is not a trace header.
    public convenience init(bytes: [UInt8], name: String = "trace") throws(TraceOpenError) {
        try self.init(TraceLoader.load(bytes: bytes, path: name), path: name)
    }

    /// Opens a trace held in memory whose rebuilt states may hold at most `rebuiltValueLimit`
    /// values more than their lines spell out, instead of `RebuiltStateSize.maximumValues`: for
    /// a test of that bound that does not build 16,777,216 values.
    package convenience init(bytes: [UInt8], name: String = "trace", rebuiltValueLimit: Int) throws(TraceOpenError) {
        try self.init(TraceLoader.load(bytes: bytes, path: name), path: name, rebuiltValueLimit: rebuiltValueLimit)
    }

    init(
        _ loaded: TraceLoader.Loaded, path: String, isPartial: Bool = false,
        rebuiltValueLimit: Int = RebuiltStateSize.maximumValues
    ) {
        self.path = path
        self.rebuiltValueLimit = rebuiltValueLimit
        self.header = loaded.header
        self.source = loaded.source
        self.index = loaded.index
        self.isPartial = isPartial
    }

    /// Whether this opening indexed only the file's first part (`TraceIndexing.first`, while the
    /// whole is indexed in the background): its events are the file's first ones, and its
    /// `lastStep` and `eventCount` are not the trace's. False for every other opening.
    public let isPartial: Bool

    // MARK: Events

    /// The number of events: well-formed event lines (of any `type`), in file order. Events are
    /// numbered from 0 to `eventCount - 1`.
    public var eventCount: Int { index.eventCount }

    /// The last step: the `seq` of the last event, which is the largest; 0 when there is no
    /// event. In a trace whose seqs do not go up (see `TraceReadIssue.Kind.seqOrder`), steps
    /// follow file order and this is `eventCount`.
    public var lastStep: Int { index.lastStep }

    /// The bytes the event index takes in memory (about 12 per event): what an open trace costs
    /// beyond the file's pages, which the system shares and can drop.
    package var indexByteCount: Int { index.memoryBytes }

    /// The event at `index` (`0..<eventCount`), read and decoded from its line; nil for an index
    /// out of range, or a line that can no longer be read as it was indexed. A version 2
    /// transition that carries a `patch` has it in `patch`, and no `state`: its store's state
    /// there is `state(of:atStep:)`.
    public func event(at index: Int) -> TraceEvent? {
        guard let object = object(ofEvent: index) else { return nil }
        var event = TraceEvent(index: index, line: self.index.lines[index], object: object)
        // In version 1 `patch` is a key the format does not know; in version 2 it means
        // something only on a transition.
        if header.version < 2 || event?.type != "transition" { event?.patch = nil }
        return event
    }

    /// The event at `index` (`0..<eventCount`), read and decoded from its line; nil for an index
    /// out of range.
    /// - Throws: `TraceReadError` when the line can no longer be read as it was indexed.
    public func readEvent(at index: Int) throws(TraceReadError) -> TraceEvent? {
        guard index >= 0 && index < eventCount else { return nil }
        guard let event = event(at: index) else { throw TraceReadError(path: path, line: self.index.lines[index]) }
        return event
    }

    /// The index of the event whose `seq` is `seq` (the first one, in a damaged trace that
    /// repeats it), or nil when there is none.
    public func eventIndex(forSeq seq: Int) -> Int? {
        index.eventIndex(forSeq: seq)
    }

    /// The index of the event that step `step` comes just after, or nil when no event has that
    /// step (step 0, a step past the end, or a `seq` missing from the trace). The same as
    /// `eventIndex(forSeq:)` except in a trace whose seqs do not go up.
    public func eventIndex(atStep step: Int) -> Int? {
        index.eventIndex(atStep: step)
    }

    /// The step that comes just after the event at `index`: its `seq`, or its position + 1 in a
    /// trace whose seqs do not go up. Nil for an index out of range.
    public func step(ofEventAt index: Int) -> Int? {
        guard index >= 0 && index < eventCount else { return nil }
        return self.index.steps[index]
    }

    /// The 1-based file line of the event at `index`, without reading it; nil for an index out
    /// of range.
    public func line(ofEventAt index: Int) -> Int? {
        guard index >= 0 && index < eventCount else { return nil }
        return self.index.lines[index]
    }

    /// The index of the event on file line `line`, found without reading the file; nil when
    /// that line holds no event (the header, a skipped line, a line past the end).
    public func eventIndex(atLine line: Int) -> Int? {
        let found = index.lines.firstIndex(above: line - 1, in: 0..<eventCount)
        guard found < eventCount, index.lines[found] == line else { return nil }
        return found
    }

    // MARK: App state

    /// The store names, in the order of their first register, transition or restore event.
    public var storeNames: [String] { index.storeNames }

    /// The app state at step `step`: each store that has an event at or before the step, mapped
    /// to its state after its latest `register`, `transition` or `restore` event, in the order of
    /// `storeNames`. Step 0 (or below) is the empty object; a step past the end is the last step.
    /// In a version 2 trace, a store whose latest event carries a `patch` has the state rebuilt
    /// from its latest whole state by applying the patches since, in order. A store whose state
    /// cannot be given (its line can no longer be read, or a patch does not apply) is left out,
    /// never given wrong; `readAppState(atStep:)` says why instead.
    public func appState(atStep step: Int) -> JSONObject {
        guard step > 0 else { return JSONObject() }
        let count = index.eventCount(atStep: step)
        var state = JSONObject()
        for (store, name) in index.storeNames.enumerated() {
            guard let position = index.latestPosition(ofStore: store, amongFirst: count),
                case .success(let value) = storeState(ofStore: store, at: position)
            else { continue }
            state.append(key: name, value: value)
        }
        return state
    }

    /// The app state at step `step`, as `appState(atStep:)` gives it, or an error when a store's
    /// state there cannot be given: never a state with a store left out.
    /// - Throws: `TraceReadError` naming the first such line: one that can no longer be read,
    ///   or (version 2) a patch that does not apply.
    public func readAppState(atStep step: Int) throws(TraceReadError) -> JSONObject {
        guard step > 0 else { return JSONObject() }
        let count = index.eventCount(atStep: step)
        var state = JSONObject()
        for (store, name) in index.storeNames.enumerated() {
            guard let position = index.latestPosition(ofStore: store, amongFirst: count) else { continue }
            state.append(key: name, value: try storeState(ofStore: store, at: position).get())
        }
        return state
    }

    /// The state of `store` at step `step`, as `state(of:atStep:)` gives it, or an error when it
    /// cannot be given.
    /// - Throws: `TraceReadError` naming the line at fault: one that can no longer be read, or
    ///   (version 2) a patch that does not apply.
    public func readState(of store: String, atStep step: Int) throws(TraceReadError) -> JSONValue? {
        guard let (id, position) = latestPosition(of: store, atStep: step) else { return nil }
        return try storeState(ofStore: id, at: position).get()
    }

    /// The state of `store` at step `step`: its state after its latest `register`, `transition`
    /// or `restore` event at or before the step (in version 2, rebuilt from patches as
    /// `appState(atStep:)` says). Nil before its first one, for a store the trace does not have,
    /// or when the state cannot be given (`readState(of:atStep:)` says why).
    public func state(of store: String, atStep step: Int) -> JSONValue? {
        guard let (id, position) = latestPosition(of: store, atStep: step) else { return nil }
        return try? storeState(ofStore: id, at: position).get()
    }

    /// The state of `store` at step `step` decoded as `T`: what an app's tests use to look at a
    /// recorded run in the app's own types. A whole recorded `state` is decoded straight from the
    /// trace's bytes (no `JSONValue` in between); a state rebuilt from version 2 patches is
    /// decoded from the rebuilt value. Nil before the store's first event, for a store the trace
    /// does not have, or when the line can no longer be read.
    ///
    /// - Throws: `DecodingError` when the recorded state is not a `T`; `TraceReadError` when a
    ///   version 2 patch does not apply.
    public func state<T: Decodable>(
        of store: String, atStep step: Int, as type: T.Type, decoder: JSONValueDecoder = JSONValueDecoder()
    ) throws -> T? {
        guard let (id, position) = latestPosition(of: store, atStep: step) else { return nil }
        if index.isPatched(position) {
            let state: JSONValue
            switch storeState(ofStore: id, at: position) {
            case .success(let value): state = value
            case .failure(let error) where error.kind == .changed: return nil
            case .failure(let error): throw error
            }
            return try decoder.decode(T.self, from: state)
        }
        let event = index.storeEvents[position]
        let expectedSeq = index.seq(at: event)
        let decoded: Result<T, any Error>?? = source.withLine(
            at: index.offsets[event], limit: index.lineLimit(of: event)
        ) { line in
            // The line must still be the event indexed (the file may have changed since).
            guard let fields = try? EventScanner.scan(line), fields.seq == expectedSeq, let range = fields.stateRange
            else { return nil }
            let bytes = line[range]
            return Result { try decoder.decode(T.self, from: bytes) }
        }
        guard let outcome = decoded ?? nil else { return nil }
        return try outcome.get()
    }

    /// The index of `store`'s last event before the event at `index`; nil when it has none
    /// before it. From the index, without reading a line: walking back along one store's events
    /// costs the same on a gigabyte trace.
    public func eventIndex(of store: String, before index: Int) -> Int? {
        guard index > 0, let id = self.index.storeIDs[store] else { return nil }
        return self.index.latestEvent(ofStore: id, amongFirst: min(index, eventCount))
    }

    /// The index of `store`'s first event after the event at `index` (its first event for a
    /// negative `index`); nil when it has none after it. From the index, without reading a line,
    /// by binary search over the store's events: the step view's store filter moves on it.
    package func eventIndex(of store: String, after index: Int) -> Int? {
        guard let id = self.index.storeIDs[store] else { return nil }
        let range = self.index.storeRange(id)
        let position = self.index.storeEvents.firstIndex(above: index, in: range)
        return position < range.upperBound ? self.index.storeEvents[position] : nil
    }

    /// The store id of `store`, and the position in the index's `storeEvents` of its latest
    /// event at or before `step`; nil before its first one or for a store the trace does not have.
    private func latestPosition(of store: String, atStep step: Int) -> (store: Int, position: Int)? {
        guard step > 0, let id = index.storeIDs[store],
            let position = index.latestPosition(ofStore: id, amongFirst: index.eventCount(atStep: step))
        else { return nil }
        return (id, position)
    }

    // MARK: Issues

    /// What indexing skipped or noticed, in line order, at most 100 of each kind plus one issue
    /// per kind saying how many more there were.
    public var issues: [TraceReadIssue] { index.issues }

    // MARK: Reading lines

    /// Calls `body` with the bytes of event `index`'s line (without its line end), read again
    /// from the file, for readers that take a few members of a line without parsing all of it
    /// (`ValueHistory`, `CauseChain`, `TraceStatistics`). Nil for an index out of range or a line
    /// that can no longer be read; the caller checks that the line is still the indexed event
    /// (its `seq` is `index.seq(at:)`).
    func withLine<Result>(ofEvent index: Int, _ body: (ByteView) -> Result) -> Result? {
        guard index >= 0 && index < eventCount else { return nil }
        return source.withLine(at: self.index.offsets[index], limit: self.index.lineLimit(of: index), body)
    }

    /// The parsed line of event `index`, when it can still be read and is the event indexed.
    package func object(ofEvent index: Int) -> JSONObject? {
        guard index >= 0 && index < eventCount else { return nil }
        let expectedSeq = self.index.seq(at: index)
        let parsed = source.withLine(at: self.index.offsets[index], limit: self.index.lineLimit(of: index)) { line in
            try? JSONParser.parse(line)
        }
        guard case .object(let object)?? = parsed, object["seq"]?.intValue == expectedSeq else { return nil }
        return object
    }
}
