@_spi(RewindInternals) internal import RewindSupport
internal import ToolSupport
import TraceJSON
import TraceReader

/// Every step at which the value at a path of the app state changed: a reverse watchpoint
/// ("who set this?") answered from the trace, without running anything again. The engine of
/// `inspector when`.
///
/// ```swift
/// let trace = try TraceFile(path: "run.jsonl")
/// let history = try ValueHistory(trace: trace, path: StatePath(parsing: "CartStore.lines.1.quantity"))
/// for change in history.changes() { print(change.step, change.event.action ?? "", change.after ?? "gone") }
/// history.lastChange(before: 40)     // who set the value seen just before step 40?
/// ```
///
/// How it avoids decoding every state: only the store named by the path's first component can
/// change the value, so only that store's events are read (the trace's index lists them). Each
/// is read again from the file and scanned: its top-level members are found with `state`
/// checked and skipped, then the walk into `state` skips every sibling member and element on
/// the way to the path (JSON syntax only, nothing built) and parses just the value at the path.
/// Consecutive values are compared by their bytes first, and by the data they hold (member
/// order and number spelling do not count, as in `StateDiff`, whose rules apply) only when the
/// bytes differ and their spelling does not settle it (two plain strings, two numbers written
/// canonically, two values of different kinds); a value is parsed only for a change, and the
/// event that makes it is described from the same scan of its line. The cost is one read and
/// one syntax scan of each of the store's lines, and memory for two values at the path (and a
/// few parts of changes found ahead, when `forEachChange` finds them on other threads); other
/// stores' events are never read. `lastChange(before:)` walks back from the step and stops at
/// the first change it meets.
///
/// In a version 2 trace, an event that carries a `patch` instead of its `state` is judged by its
/// patch's operations first: one whose `path` or `from` is not the path, a prefix of it or under
/// it (nor an insertion into or removal from an array on the way) changes nothing there, and no
/// state is rebuilt for it. Only at the events whose patch may change the value is the store's
/// state rebuilt (`TraceFile.readState(of:atStep:)`), for the value before and after. An event
/// whose state cannot be given (a line that can no longer be read, a patch that does not apply)
/// is passed over, as if it were not there, and named in `passedOver`: an answer that skipped
/// a state never looks like a sound one. `passOverUnreadableStates` finds the patches that do
/// not apply where no patch touches the path, too.
///
/// A value at the path appearing (its store's first event, or a member added) is a change whose
/// `before` is nil; a value going is one whose `after` is nil. A store that registers again is
/// compared with its previous state like any other event.
public struct ValueHistory: Sendable {
    /// The trace being asked.
    public let trace: TraceFile
    /// The path asked about; its first component is the store's name.
    public let path: StatePath
    let store: Int
    /// The events passed over so far, one error per file line. Guarded by its lock: parts of
    /// a walk are read on other threads.
    private let passed = Lock<[Int: TraceReadError]>([:])

    /// A history of the value at `path` in `trace`.
    /// - Throws: `ValueHistoryError` when the path does not start with a store of the trace.
    public init(trace: TraceFile, path: StatePath) throws(ValueHistoryError) {
        guard case .key(let name)? = path.components.first else {
            throw ValueHistoryError(kind: .noStore, path: path, storeNames: trace.storeNames)
        }
        guard let store = trace.index.storeIDs[name] else {
            throw ValueHistoryError(kind: .unknownStore, path: path, storeNames: trace.storeNames)
        }
        self.trace = trace
        self.path = path
        self.store = store
    }

    /// The events whose state the walks so far could not give, in line order: a version 2
    /// patch that does not apply to its store's state (`bad-patch`), or a line that can no
    /// longer be read (the file changed since it was opened). Each was passed over and the
    /// value compared across it, so a change made there is reported at the next event that
    /// can be read. Empty when every event read was sound.
    public var passedOver: [TraceReadError] {
        passed.withLock { $0.values.sorted { $0.line < $1.line } }
    }

    /// Notes that the event on `error.line` was passed over.
    func passOver(_ error: TraceReadError) {
        passed.withLock { $0[error.line] = error }
    }

    /// Every change with a step after `after` (when given) and before `before` (when given),
    /// both excluded, in step order.
    public func changes(after: Int? = nil, before: Int? = nil) -> [ValueChange] {
        var found: [ValueChange] = []
        forEachChange(after: after, before: before) { change in
            found.append(change)
            return true
        }
        return found
    }

    /// Calls `body` with each change with a step after `after` and before `before` (each when
    /// given, both excluded), in step order, as they are found, until it returns false: a long
    /// trace's changes are printed as they come. `body` is called on the calling thread; when
    /// the store has thousands of events, they are read and compared in parts on two other
    /// threads, a few parts ahead of `body`.
    public func forEachChange(after: Int? = nil, before: Int? = nil, _ body: (ValueChange) -> Bool) {
        let positions = self.positions(after: after, before: before)
        forEachChange(in: positions, onTwoThreads: positions.count >= 8192, body)
    }

    /// `forEachChange(after:before:_:)` over the store's events at `positions`; with
    /// `onTwoThreads`, the changes are found in parts of `batchSize` positions on other threads
    /// (`ChangePipeline`) while `body` runs on the calling thread.
    func forEachChange(
        in positions: Range<Int>, onTwoThreads: Bool, batchSize: Int = 4096, _ body: (ValueChange) -> Bool
    ) {
        guard !positions.isEmpty else { return }
        guard onTwoThreads else {
            findChanges(in: positions, of: positions, body)
            return
        }
        let parts = parts(of: positions, size: batchSize)
        ChangePipeline.run(parts: parts.count) { part in
            var found: [ValueChange] = []
            findChanges(in: parts[part], of: positions) { change in
                found.append(change)
                return true
            }
            return found
        } _: { found in
            found.allSatisfy(body)
        }
    }

    /// Writes the text of each change with a step after `after` (when given), in step order, as
    /// `text.append(_:to:)` writes it, handing it to `body` on the calling thread a part (lines
    /// of many changes) at a time, until `body` returns false; empty parts are not handed over.
    /// For `inspector when`: the text is written on other threads while `body` prints the
    /// parts before, and a change of a plain scalar (most changes) is written straight from
    /// the bytes of its event's line, without a `ValueChange`. The bytes are neutralized for a
    /// terminal (`TerminalText.neutralized`, styles kept), as an output stream would: the
    /// general walk's text change by change, the writer's needing none. The parts
    /// hold the changes of `partSize` of the store's events each.
    package func writeChanges(
        after: Int?, as text: ValueChangeText, partSize: Int = 4096, _ body: (UnsafeRawBufferPointer) -> Bool
    ) {
        let positions = self.positions(after: after, before: nil)
        guard !positions.isEmpty else { return }
        let parts = parts(of: positions, size: partSize)
        let fast = ScalarChangeWriter(history: self, text: text)
        ChangePipeline.run(parts: parts.count) { part in
            // Room for a part of short changes (a heading and a line each): grown if need be.
            var output: [UInt8] = []
            output.reserveCapacity(parts[part].count * 96)
            var general: [UInt8] = []
            var names = HeadingNames()
            findChanges(
                in: parts[part], of: positions,
                fast: { position, previous, window in
                    fast.write(at: position, after: &previous, through: &window, names: &names, to: &output)
                }
            ) { change in
                // The writer's text needs no neutralizing (see `ScalarChangeWriter`); the general
                // walk's is neutralized change by change (each ends with a newline, which no
                // escape or character spans, so the bytes are those of neutralizing the part).
                general.removeAll(keepingCapacity: true)
                text.append(change, to: &general)
                if let safe = general.withUnsafeBytes({ TerminalText.neutralized($0, allowingStyles: true) }) {
                    output.append(contentsOf: safe)
                } else {
                    output.append(contentsOf: general)
                }
                return true
            }
            return output
        } _: { output in
            output.isEmpty || output.withUnsafeBytes(body)
        }
    }

    /// `positions` cut into consecutive parts of about `size` positions.
    ///
    /// In a version 2 trace, a part starts just after an event with a whole `state` (or where
    /// `positions` start): the value before a part is then read from that event at once.
    /// Anywhere else, finding it walks back over every patch since the last event that may
    /// change the value, and in a file that breaks the format's bound of 1,024 patches between
    /// whole states, each part walked back over all the parts before it (80,000 patches after
    /// one whole state took 13 s). Such a file is then walked in one part, once.
    func parts(of positions: Range<Int>, size: Int) -> [Range<Int>] {
        var starts = Array(stride(from: positions.lowerBound, to: positions.upperBound, by: max(1, size)))
        if trace.index.patched != nil {
            var adjusted: [Int] = [positions.lowerBound]
            for start in starts.dropFirst() {
                guard let whole = trace.index.wholeStatePosition(atOrBefore: start - 1, ofStore: store),
                    whole + 1 > adjusted.last!
                else { continue }
                adjusted.append(whole + 1)
            }
            starts = adjusted
        }
        return starts.indices.map { index in
            starts[index]..<(index + 1 < starts.count ? starts[index + 1] : positions.upperBound)
        }
    }

    /// Finds the changes at `part` of `positions` (not empty) in order, on the calling thread:
    /// as a walk over all of `positions` finds them, the value before `part` read again. `fast`
    /// is asked first at each position that may change the value: true when it has dealt with
    /// the position (and updated the value before the next position). It is a closure that does
    /// not escape (not an optional one, which would), so that what it changes is not boxed and
    /// checked for exclusive access at each event.
    private func findChanges(
        in part: Range<Int>, of positions: Range<Int>,
        fast: (Int, inout Reading, inout TraceSource.Window) -> Bool = { _, _, _ in false },
        _ body: (ValueChange) -> Bool
    ) {
        // The lines are read going forward through a window of the file: a system call per
        // window, not per line.
        var window = TraceSource.Window(size: 256 << 10, forward: true)
        var previous = reading(before: part.lowerBound, of: positions, through: &window)
        for position in part where mayChange(at: position, through: &window) {
            if fast(position, &previous, &window) { continue }
            // The event is described in the same scan of its line when its value's bytes differ.
            var (current, described) = read(at: position, through: &window, describingChangeFrom: previous)
            if case .unreadable = current { continue }
            // A change is made by the first event that shows the new value.
            if let change = change(
                from: &previous, to: &current, at: position, through: &window, described: described),
                !body(change)
            {
                return
            }
            previous = current
        }
    }

    /// The value a walk over `positions` compares the event at `position` with: the value after
    /// the last event before it, among those that may change it and can be read; before the
    /// first of `positions`, the value after the store's event before it, if it has one.
    private func reading(
        before position: Int, of positions: Range<Int>, through window: inout TraceSource.Window
    ) -> Reading {
        var earlier = position - 1
        while earlier >= positions.lowerBound {
            if mayChange(at: earlier, through: &window) {
                let reading = read(at: earlier, through: &window)
                if case .unreadable = reading {} else { return reading }
            }
            earlier -= 1
        }
        return positions.lowerBound > storeRange.lowerBound
            ? read(at: positions.lowerBound - 1, through: &window) : .absent
    }

    /// The last change with a step before `step` (and after `after`, when given): who set the
    /// value that step `step - 1` shows. Nil when the value never changed in that range.
    /// Walks back from `step`, reading only the events between it and the change.
    public func lastChange(before step: Int, after: Int? = nil) -> ValueChange? {
        let positions = self.positions(after: after, before: step)
        guard !positions.isEmpty else { return nil }
        var position = positions.upperBound - 1
        // The reading of the value at a position already read, carried from one round to the next.
        var carried: (position: Int, reading: Reading)?
        // Going back, a small window: the store's events may be far apart.
        var window = TraceSource.Window(size: 64 << 10)
        while position >= positions.lowerBound {
            guard mayChange(at: position, through: &window) else {
                position -= 1
                continue
            }
            var current = carried?.position == position ? carried!.reading : read(at: position, through: &window)
            if case .unreadable = current {
                // An event that cannot be read is not there: compare across it.
                position -= 1
                continue
            }
            var previous = Reading.absent
            var previousPosition = position - 1
            while previousPosition >= storeRange.lowerBound {
                previous = read(at: previousPosition, through: &window)
                if case .unreadable = previous {
                    previousPosition -= 1
                    continue
                }
                break
            }
            if previousPosition < storeRange.lowerBound { previous = .absent }
            if let change = change(from: &previous, to: &current, at: position, through: &window) { return change }
            position = previousPosition
            carried = (previousPosition, previous)
        }
        return nil
    }

    // MARK: Reading values

    /// The value at the path after one event, as bytes, before it is parsed (if ever).
    enum Reading {
        /// The state could not be given: the line could not be read again (the file changed
        /// since it was opened) or its patch does not apply (noted in `passedOver`).
        case unreadable
        /// The state has nothing at the path.
        case absent
        /// The value's bytes (as written in the trace, or written compactly from a state rebuilt
        /// from version 2 patches), and the value once parsed.
        case present([UInt8], JSONValue?)
    }

    /// The positions of the store's events in `trace.index.storeEvents`.
    private var storeRange: Range<Int> {
        trace.index.storeBounds[store]..<trace.index.storeBounds[store + 1]
    }

    /// The positions of the store's events whose steps are after `after` and before `before`.
    func positions(after: Int?, before: Int?) -> Range<Int> {
        let index = trace.index
        let range = storeRange
        var lower = range.lowerBound
        var upper = range.upperBound
        if let after {
            // Events at or before step `after` are the first `eventCount(atStep: after)`.
            lower = index.storeEvents.firstIndex(above: index.eventCount(atStep: after) - 1, in: range)
        }
        if let before {
            upper =
                before <= 0
                ? range.lowerBound
                : index.storeEvents.firstIndex(above: index.eventCount(atStep: before - 1) - 1, in: range)
        }
        return lower < upper ? lower..<upper : lower..<lower
    }

    /// Whether the event at `position` may change the value: any event with a whole `state`,
    /// and a version 2 patch whose operations touch the path (`PatchTouch`).
    private func mayChange(at position: Int, through window: inout TraceSource.Window) -> Bool {
        guard trace.index.isPatched(position) else { return true }
        let tail = path.components.dropFirst()
        let touches: Bool? = trace.scanEvent(at: trace.index.storeEvents[position], through: &window) {
            fields, line in
            guard let range = fields.patchRange,
                case .array(let operations)? = try? JSONParser.parse(line[range])
            else { return true }
            return PatchTouch.mayChange(tail, operations: operations)
        }
        return touches ?? true
    }

    private func read(at position: Int, through window: inout TraceSource.Window) -> Reading {
        read(at: position, through: &window, describingChangeFrom: nil).reading
    }

    /// An event that changes the value, as `change` reports it: the event without its state,
    /// and the path as its state reads it (`lines.2` is `lines[2]` in an array).
    private struct Described {
        var event: TraceEvent
        var components: [StatePath.Component]
    }

    /// The value at `position`, and when `previous` is given and the value's bytes are not
    /// its bytes (the value may have changed), the event described from the same scan of its
    /// line (version 1 events only).
    private func read(
        at position: Int, through window: inout TraceSource.Window, describingChangeFrom previous: Reading?
    ) -> (reading: Reading, described: Described?) {
        let eventIndex = trace.index.storeEvents[position]
        let tail = path.components.dropFirst()
        if trace.index.isPatched(position) {
            let state: JSONValue
            switch trace.storeState(ofStore: store, at: position) {
            case .success(let rebuilt): state = rebuilt
            case .failure(let error):
                passOver(error)
                return (.unreadable, nil)
            }
            let value = Self.locate(tail, in: state).value
            return (value.map { .present(JSONPrinter.compactUTF8($0), $0) } ?? .absent, nil)
        }
        let path = self.path
        let lineNumber = previous == nil ? nil : trace.line(ofEventAt: eventIndex)
        let scanned: ([UInt8]?, Described?)? = trace.scanEvent(at: eventIndex, through: &window) { fields, line in
            guard let state = fields.stateRange else { return (nil, nil) }
            let found = ValueLocator.locate(tail, in: line, range: state)
            let bytes = found.map { line[$0].array }
            let same: Bool
            switch previous {
            case nil, .unreadable?: same = true
            case .absent?: same = bytes == nil
            case .present(let old, _)?: same = bytes == old
            }
            guard !same, let lineNumber,
                let event = TraceEvent(fields: fields, in: line, index: eventIndex, lineNumber: lineNumber)
            else { return (bytes, nil) }
            // Only a name that is a number can select an array element (`lines.2`): without one, the
            // path reads the same in every state.
            guard path.components.contains(where: Self.mayNameAnIndex) else {
                return (bytes, Described(event: event, components: path.components))
            }
            let components = path.components.prefix(1) + ValueLocator.normalize(tail, in: line, range: state)
            return (bytes, Described(event: event, components: Array(components)))
        }
        switch scanned {
        case nil:
            passOver(TraceReadError(path: trace.path, line: trace.index.lines[eventIndex]))
            return (.unreadable, nil)
        case (nil, _)?: return (.absent, nil)
        case (let value?, let described)?: return (.present(value, nil), described)
        }
    }

    /// The change from `previous` to `current` made by the event at `position`, or nil when the
    /// value is the same. Parses what it compares, and keeps `previous` parsed.
    private func change(
        from previous: inout Reading, to current: inout Reading, at position: Int,
        through window: inout TraceSource.Window, described: Described? = nil
    ) -> ValueChange? {
        let before: JSONValue?
        let after: JSONValue?
        switch (previous, current) {
        case (.absent, .absent), (.unreadable, _), (_, .unreadable):
            return nil
        case (.present(let old, _), .present(let new, _)) where old == new:
            return nil
        case (.present(let old, let parsed), .present(let new, let newParsed)):
            // Most changes are of a scalar whose spelling tells (`ScalarDifference`); the rest
            // are compared as the diff compares them.
            guard ScalarDifference.differ(old, new) ?? !Self.sameData(old, new) else { return nil }
            guard let oldValue = parsed ?? Self.parse(old), let newValue = newParsed ?? Self.parse(new) else {
                return nil
            }
            previous = .present(old, oldValue)
            current = .present(new, newValue)
            before = oldValue
            after = newValue
        case (.absent, .present(let new, let newParsed)):
            before = nil
            after = newParsed ?? Self.parse(new)
            current = .present(new, after)
        case (.present(let old, let parsed), .absent):
            before = parsed ?? Self.parse(old)
            after = nil
        }
        let eventIndex = trace.index.storeEvents[position]
        guard let lineNumber = trace.line(ofEventAt: eventIndex), let step = trace.step(ofEventAt: eventIndex) else {
            return nil
        }
        if let described {
            return ValueChange(
                path: StatePath(described.components), step: step, event: described.event, before: before,
                after: after)
        }
        // The event, and the path as its state reads it (`lines.2` is `lines[2]` in an array).
        let path = self.path
        let read: (TraceEvent?, [StatePath.Component])? = trace.scanEvent(at: eventIndex, through: &window) {
            fields, line in
            let event = TraceEvent(fields: fields, in: line, index: eventIndex, lineNumber: lineNumber)
            guard let state = fields.stateRange else { return (event, path.components) }
            return (
                event,
                path.components.prefix(1) + ValueLocator.normalize(path.components.dropFirst(), in: line, range: state)
            )
        }
        guard let (event, readComponents) = read, let event else { return nil }
        var components = readComponents
        if trace.index.isPatched(position), case .success(let state) = trace.storeState(ofStore: store, at: position) {
            components = path.components.prefix(1) + Self.locate(path.components.dropFirst(), in: state).components
        }
        return ValueChange(path: StatePath(components), step: step, event: event, before: before, after: after)
    }

    /// Whether `component` is a name that selects an element in an array (`2` in `lines.2`).
    static func mayNameAnIndex(_ component: StatePath.Component) -> Bool {
        if case .key(let name) = component { JSONPointer.arrayIndex(name) != nil } else { false }
    }

    /// Whether two values' bytes are the same data, as the diff decides it (see `StateDiff`).
    private static func sameData(_ old: [UInt8], _ new: [UInt8]) -> Bool {
        guard let oldText = try? JSONText(validating: old), let newText = try? JSONText(validating: new) else {
            return false
        }
        return oldText.isSameData(as: newText)
    }

    private static func parse(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONParser.parse(bytes)
    }

    /// The value at `components` in `state`, followed as `ValueLocator` follows a path in a
    /// state's bytes (member names matched by their exact bytes, the last of a name counting; a
    /// decimal name selects an index in an array), and the components as `state` reads them, as
    /// `ValueLocator.normalize` gives them: a name that selects an array element becomes an index.
    private static func locate(_ components: ArraySlice<StatePath.Component>, in state: JSONValue) -> (
        value: JSONValue?, components: [StatePath.Component]
    ) {
        var result = Array(components)
        var value: JSONValue? = state
        for (position, component) in components.enumerated() {
            switch (component, value) {
            case (.key(let name), .object(let object)?):
                value = ObjectMembers(object)[name]
            case (.key(let name), .array(let elements)?):
                guard let index = JSONPointer.arrayIndex(name) else { return (nil, result) }
                result[position] = .index(index)
                value = elements.indices.contains(index) ? elements[index] : nil
            case (.index(let index), .array(let elements)?):
                value = elements.indices.contains(index) ? elements[index] : nil
            case (.id(let id), .array(let elements)?):
                value = elements.first { StatePath.ItemID(of: $0) == id }
            default:
                value = nil
            }
            if value == nil { return (nil, result) }
        }
        return (value, result)
    }
}
