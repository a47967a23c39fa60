import TraceJSON

/// Writes an open trace again as version 1 (every transition with its whole `state`) or version 2
/// (a transition carries a `patch` where that is smaller than its state), following
/// shared/TRACE_FORMAT.md, "Version 2: patches". The engine of `inspector convert`.
///
/// - To version 1: every transition gets its whole `state` (rebuilt from the patches of a
///   version 2 trace) and no `patch`; the header says version 1. So `jq`, DuckDB and any JSON
///   tool can read every state.
/// - To version 2: a transition gets the JSON Patch from its store's state before it to its
///   state after it (`JSONPatch.make`) instead of its `state` when the patch is smaller, and its
///   whole `state` again by the format's rule: when the patches since the store's last whole
///   state would add up to more bytes than that state, or number more than 1,024. Registers and
///   restores keep their whole state. The header says version 2 only when some transition got a
///   patch: a trace that gains nothing stays version 1, as the format asks of a writer.
///
/// Every other member of every event is kept, in its place (a `patch` goes where the `state` was,
/// and the other way round), and printed compact, numbers as written. A `patch` the input carries
/// anywhere else (a version 1 trace may hold one as an unknown key) is dropped, so that it cannot
/// mean something in the output's version. Lines that the reader skips (`TraceFile.issues`:
/// malformed lines, a torn last line, empty lines) are left out. A state that patches turn into
/// another comes out as the same data, as `StateDiff` compares it: member order and the spelling
/// of numbers (`1.0`, `1`) aside.
///
/// It reads the trace once, event by event, keeping one state per store (version 2 output), and
/// writes as it goes, in pieces of about a megabyte. Version 2 output holds back its first lines
/// until the first patch decides the header (up to 64 MB; past that, the lines after those held
/// are converted twice).
package struct TraceConverter {
    /// The trace being converted.
    package let trace: TraceFile
    /// The version asked for: 1 or 2.
    package let version: Int

    /// At most this many patches follow a store's whole state before the next one: the
    /// format's 1,024, or fewer (for tests).
    package let patchesPerWholeState: Int

    /// How much output version 2 holds back before its first patch decides the header (64 MB, or
    /// less for tests); past it, the events after the held ones are converted a second time.
    package let heldBytes: Int

    /// The format's most patches after a whole state.
    package static let formatPatchesPerWholeState = 1024

    /// What was written.
    package struct Summary: Equatable, Sendable {
        /// The header's version: 1, or 2 when some transition carries a patch.
        package var version: Int
        /// The events written.
        package var events: Int
        /// The transitions written with a patch.
        package var patches: Int

        /// A summary; by default, of nothing written yet.
        package init(version: Int = 1, events: Int = 0, patches: Int = 0) {
            self.version = version
            self.events = events
            self.patches = patches
        }
    }

    /// A converter of `trace` to `version` (1 or 2).
    package init(
        trace: TraceFile, version: Int, patchesPerWholeState: Int = formatPatchesPerWholeState,
        heldBytes: Int = 64 << 20
    ) {
        self.trace = trace
        self.heldBytes = heldBytes
        self.version = version
        self.patchesPerWholeState = patchesPerWholeState
    }

    /// Writes the converted trace, handing `output` its bytes in order.
    /// - Throws: `TraceReadError` when a state cannot be given (a line that can no longer be
    ///   read, a version 2 patch that does not apply, a patch with no state before it: a whole
    ///   state cannot be written for it); whatever `output` throws.
    package func write(to output: ([UInt8]) throws -> Void) throws -> Summary {
        var summary = Summary()
        var stores = StoreTracks(count: trace.storeNames.count)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(Self.pieceSize + 4096)
        func append(_ object: JSONObject) throws {
            buffer.append(contentsOf: JSONPrinter.compact(.object(object)).utf8)
            buffer.append(0x0A)
            summary.events += 1
            if buffer.count >= Self.pieceSize {
                try output(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        var next = 0
        if version >= 2 {
            // The header says version 2 only if some transition gets a patch, and until one does,
            // the lines are the same under either header. So they are held back (up to
            // `heldBytes`) until the first patch or the end decides the header: the trace is
            // read once, not once to decide and again to write.
            var held: [UInt8] = []
            var heldEvents = 0
            var holding = true
            var storesAfterHeld = stores
            var first: (event: Int, object: JSONObject)?
            for event in 0..<trace.eventCount {
                if holding && held.count >= heldBytes {
                    holding = false
                    storesAfterHeld = stores
                }
                let (object, patched) = try convert(event: event, patches: true, stores: &stores)
                if patched {
                    first = (event, object)
                    break
                }
                if holding {
                    held.append(contentsOf: JSONPrinter.compact(.object(object)).utf8)
                    held.append(0x0A)
                    heldEvents += 1
                }
            }
            summary.version = first == nil ? 1 : 2
            buffer.append(contentsOf: try header(version: summary.version).utf8)
            buffer.append(0x0A)
            if !held.isEmpty {
                // Handed on as they are, not copied into `buffer` (they may be 64 MB).
                try output(buffer)
                buffer.removeAll(keepingCapacity: true)
                try output(held)
            }
            summary.events = heldEvents
            next = heldEvents
            if let first, holding {
                // Every line before the first patch is held: go on from it with the tracks as they are.
                try append(first.object)
                summary.patches += 1
                next = first.event + 1
            } else if !holding {
                // More came before the first patch (or the end) than is held: the rest is
                // converted again, from the tracks as they were after the held lines.
                stores = storesAfterHeld
            }
        } else {
            buffer.append(contentsOf: try header(version: 1).utf8)
            buffer.append(0x0A)
        }
        for event in next..<trace.eventCount {
            let (object, patched) = try convert(event: event, patches: summary.version == 2, stores: &stores)
            try append(object)
            if patched { summary.patches += 1 }
        }
        if !buffer.isEmpty { try output(buffer) }
        return summary
    }

    /// The bytes of the shortest patch with an operation: `[{"op":"remove","path":""}]`.
    private static let shortestPatch = 27

    /// How much output is gathered before it is handed on.
    private static let pieceSize = 1 << 20

    /// Line 1 with `version` in place of the input's.
    private func header(version: Int) throws(TraceReadError) -> String {
        let read: JSONValue?? = trace.source.withLine(at: 0, limit: trace.index.byteCount) { line in
            try? JSONParser.parse(line)
        }
        guard case .object(let header)?? = read else { throw TraceReadError(path: trace.path, line: 1) }
        var members = Array(header)
        for position in members.indices where members[position].key == "version" {
            members[position].value = .number(String(version))
        }
        return JSONPrinter.compact(.object(JSONObject(members)))
    }

    /// What version 2 output needs to know of each store, by store id: its state after its
    /// latest event, the bytes of its latest whole state, and the patches written since.
    struct StoreTracks {
        var states: [JSONValue?]
        var wholeBytes: [Int]
        var patchBytes: [Int]
        var patchCount: [Int]

        init(count: Int) {
            states = Array(repeating: nil, count: count)
            wholeBytes = Array(repeating: 0, count: count)
            patchBytes = Array(repeating: 0, count: count)
            patchCount = Array(repeating: 0, count: count)
        }

        mutating func wrote(whole state: JSONValue, bytes: Int, store: Int) {
            states[store] = state
            wholeBytes[store] = bytes
            patchBytes[store] = 0
            patchCount[store] = 0
        }
    }

    /// The event at `event` as the output has it, and whether it carries a patch: with its whole
    /// state, or (`patches`) the patch from its store's state before it where the rule allows.
    private func convert(event: Int, patches: Bool, stores: inout StoreTracks) throws(TraceReadError) -> (
        JSONObject, patched: Bool
    ) {
        guard let object = trace.object(ofEvent: event) else {
            throw TraceReadError(path: trace.path, line: trace.index.lines[event])
        }
        let type = object["type"]?.stringValue
        guard type == "register" || type == "transition" || type == "restore",
            let name = object["store"]?.stringValue, let store = trace.index.storeIDs[name],
            let position = trace.index.latestPosition(ofStore: store, amongFirst: event + 1),
            trace.index.storeEvents[position] == event
        else {
            // An event that sets no state: as it is, without a `patch`.
            return (JSONObject(object.filter { $0.key != "patch" }), false)
        }
        let state: JSONValue
        if let whole = object["state"] {
            state = whole
            // The next patched event of the store then starts from here, without reading it again.
            trace.rebuiltStates.keep(
                RebuiltStateCache.Entry(
                    position: position, state: whole,
                    size: RebuiltStateSize(of: whole, valueLimit: trace.rebuiltValueLimit)),
                store: store)
        } else {
            state = try trace.storeState(ofStore: store, at: position).get()
        }
        var patch: JSONValue?
        if patches {
            let stateBytes = JSONPrinter.compact(state).utf8.count
            // A patch of one operation is at least `[{"op":"remove","path":""}]`, 27 bytes: a state
            // no longer than that gets no patch, unless it did not change (`[]`).
            if type == "transition", let before = stores.states[store],
                stateBytes > Self.shortestPatch || before == state
            {
                let candidate = JSONPatch.make(from: before, to: state)
                let bytes = JSONPrinter.compact(candidate).utf8.count
                if bytes < stateBytes && stores.patchBytes[store] + bytes <= stores.wholeBytes[store]
                    && stores.patchCount[store] < patchesPerWholeState
                {
                    patch = candidate
                    stores.states[store] = state
                    stores.patchBytes[store] += bytes
                    stores.patchCount[store] += 1
                }
            }
            if patch == nil { stores.wrote(whole: state, bytes: stateBytes, store: store) }
        }
        // The members in their places: `patch` where `state` was, or `state` where `patch` was.
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(object.count)
        var placed = false
        for member in object {
            switch member.key {
            case "state", "patch":
                if !placed {
                    members.append(patch.map { ("patch", $0) } ?? ("state", state))
                    placed = true
                }
            default:
                members.append(member)
            }
        }
        return (JSONObject(members), patch != nil)
    }
}
