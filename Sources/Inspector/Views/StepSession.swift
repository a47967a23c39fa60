import TraceJSON
import TraceQueries
import TraceReader

/// Where a person is in a trace, and how they move: the model behind `inspector step`, with no
/// terminal in it, so the full-screen view and the line-command mode share it and tests drive it.
///
/// A position is a moment of the trace: 0 is step 0, before any event; position `k` is just
/// after the event at index `k - 1`.
struct StepSession {
    /// The trace; a newer opening of the same file when it grows (`--follow`).
    private(set) var trace: TraceFile
    /// Validation problems by file line.
    private(set) var problems: ProblemMarks
    /// Indices of the events that have a problem, in order: an event's own, or those of lines
    /// that are not events (the header, a malformed line), shown on the next event.
    private(set) var problemEvents: [Int]
    /// The lines that are not events but have problems, by the index of the event they are
    /// shown on (the first event after them, or the last event).
    private(set) var offEventLines: [Int: [Int]] = [:]
    private(set) var position: Int = 0
    /// While `trace` is the first part of a trace indexed in the background: the last step the
    /// file's end gives (`TraceIndexing.expectedLastStep`).
    var expectedLastStep: Int?
    /// The last search, repeated by an empty one.
    private(set) var lastSearch: String?
    /// The events the list shows and `next()` / `previous()` step through.
    var filter = EventFilter()
    /// The events of the action filter's action, once scanned (`ActionEventScan`): the filter
    /// moves on them while they are of this trace and action; before, it looks at every event.
    private(set) var actionEvents: ActionEvents?
    /// Where the app's Swift files are (the current directory): a call stack is folded to the
    /// frames of files found there.
    let sourceRoot = SourceRoot()

    init(trace: TraceFile, problems: ProblemMarks) {
        self.trace = trace
        self.problems = ProblemMarks()
        self.problemEvents = []
        setProblems(problems)
    }

    /// Sets the validation problems (the full-screen view finds them after its first screen).
    mutating func setProblems(_ problems: ProblemMarks) {
        self.problems = problems
        // From the index, without reading the events: a 1 GB trace opens as fast with problems.
        var events: [Int] = []
        var off: [Int: [Int]] = [:]
        let lastLine = trace.line(ofEventAt: trace.eventCount - 1) ?? 0
        for line in problems.lines {
            if let index = trace.eventIndex(atLine: line) {
                events.append(index)
            } else if trace.eventCount > 0 && (line < lastLine || !trace.isPartial) {
                // A skipped line is shown on the event after it (the last one after the last).
                let index = min(firstEvent(afterLine: line), trace.eventCount - 1)
                if events.last != index { events.append(index) }
                off[index, default: []].append(line)
            }
        }
        // An off-event line's event may come before an event line's index found earlier.
        problemEvents = Array(Set(events)).sorted()
        offEventLines = off
    }

    /// The index of the first event whose line is after `line` (`eventCount` when none is).
    private func firstEvent(afterLine line: Int) -> Int {
        var low = 0
        var high = trace.eventCount
        while low < high {
            let middle = (low + high) / 2
            if (trace.line(ofEventAt: middle) ?? 0) <= line { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The problems shown on the event at `index`: its line's, then those of the skipped lines
    /// before it.
    func problems(ofEventAt index: Int) -> [Problem] {
        guard let line = trace.line(ofEventAt: index) else { return [] }
        var found = problems[line] ?? []
        for other in offEventLines[index] ?? [] { found += problems[other] ?? [] }
        return found
    }

    /// Whether the event at `index` has a problem shown on it.
    func hasProblem(eventAt index: Int) -> Bool {
        var low = 0
        var high = problemEvents.count
        while low < high {
            let middle = (low + high) / 2
            if problemEvents[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low < problemEvents.count && problemEvents[low] == index
    }

    /// The trace's last step; while only its first part is indexed, the one its end gives.
    var lastStep: Int { trace.isPartial ? expectedLastStep ?? trace.lastStep : trace.lastStep }

    /// Whether the current moment is the last one: after the last event.
    var isAtEnd: Bool { position == trace.eventCount }

    /// Takes a newer opening of the trace, which grew (or was written anew): the moment stays
    /// where it was, unless it was the last one, which moves to the new last one.
    mutating func traceChanged(_ newer: TraceFile, problems: ProblemMarks) {
        let wasAtEnd = isAtEnd
        trace = newer
        position = wasAtEnd ? newer.eventCount : min(position, newer.eventCount)
        setProblems(problems)
    }

    /// Takes the whole trace, indexed in the background, in place of its first part
    /// (`TraceIndexing`): the moment stays on the same event, even the first part's last one.
    mutating func wholeIndexed(_ whole: TraceFile) {
        trace = whole
        expectedLastStep = nil
        position = min(position, whole.eventCount)
        setProblems(problems)
    }

    /// The event just before the current moment; nil at step 0.
    var event: TraceEvent? {
        position == 0 ? nil : trace.event(at: position - 1)
    }

    /// The event just before the current moment (nil at step 0), or an error when its line can
    /// no longer be read (the file changed since it was opened).
    func readEvent() throws(TraceReadError) -> TraceEvent? {
        position == 0 ? nil : try trace.readEvent(at: position - 1)
    }

    /// The current step number.
    var step: Int {
        position == 0 ? 0 : trace.step(ofEventAt: position - 1) ?? position
    }

    /// The problems of the current event.
    var currentProblems: [Problem] {
        position == 0 ? [] : problems(ofEventAt: position - 1)
    }

    /// Moves to the next event the filter lets through; false (staying) when there is none.
    mutating func next() -> Bool {
        guard let index = matchingIndex(after: position - 1, forward: true) else { return false }
        return move(to: index + 1)
    }

    /// Moves to the previous event the filter lets through, or to step 0 from the first.
    mutating func previous() -> Bool {
        if let index = matchingIndex(after: position - 1, forward: false) { return move(to: index + 1) }
        return move(to: filter.isEmpty ? position - 1 : 0)
    }

    /// Whether the event at `index` passes the filter. Its line's members are read, not its
    /// state (`TraceEvent(fields:)`): a filter never looks at a state.
    func passes(_ index: Int) -> Bool {
        if filter.problemsOnly && !hasProblem(eventAt: index) { return false }
        if filter.store == nil && filter.action == nil && !filter.changedOnly {
            return index >= 0 && index < trace.eventCount
        }
        let line = trace.line(ofEventAt: index) ?? 0
        let scanned = trace.scanEvent(at: index) { TraceEvent(fields: $0, in: $1, index: index, lineNumber: line) }
        guard let scanned, let event = scanned else { return false }
        // (Its problems were looked at above.)
        return filter.matches(event, hasProblem: true)
    }

    /// Takes the events of an action scanned off the input thread; ignored when they are not of
    /// this trace (it grew, or was indexed whole, meanwhile).
    mutating func actionEventsFound(_ events: ActionEvents) {
        guard events.trace === trace else { return }
        actionEvents = events
    }

    /// Whether the action filter's events are known for the current trace (or no action filter
    /// is set): the caller scans for them when not.
    var knowsActionEvents: Bool {
        guard let action = filter.action else { return true }
        return actionEvents.map { $0.action == action && $0.trace === trace } ?? false
    }

    /// The first index after (or before) `index` whose event passes the filter, looking at most
    /// at `limit` events (the list asks for its neighbours and must stay quick on a huge trace).
    ///
    /// Only the events of the narrowest list the index gives are looked at: those with a problem
    /// (`!`), those of the filter's store (the trace's index holds each store's events), or
    /// those of its action once scanned (`actionEvents`), each found by binary search; every
    /// event otherwise. When that list is the whole filter, no line is read.
    func matchingIndex(after index: Int, forward: Bool, limit: Int = Int.max) -> Int? {
        let actionList = knowsActionEvents && filter.action != nil ? actionEvents : nil
        // The next candidate after `at`, and whether the list it comes from is the whole filter.
        let next: (Int) -> Int?
        let listIsFilter: Bool
        if filter.problemsOnly {
            next = { at in problemEvents.position(after: at, forward: forward).map { problemEvents[$0] } }
            listIsFilter = filter == EventFilter(problemsOnly: true)
        } else if let store = filter.store {
            next = { at in
                forward ? trace.eventIndex(of: store, after: at) : trace.eventIndex(of: store, before: at)
            }
            listIsFilter = filter == EventFilter(store: store)
        } else if let actionList {
            next = { at in actionList.index(after: at, forward: forward) }
            listIsFilter = filter == EventFilter(action: actionList.action)
        } else {
            let count = trace.eventCount
            next = { at in
                let candidate = at + (forward ? 1 : -1)
                return candidate >= 0 && candidate < count ? candidate : nil
            }
            listIsFilter = filter.isEmpty
        }
        var candidate = index
        var looked = 0
        while looked < limit, let found = next(candidate) {
            if listIsFilter || passes(found) { return found }
            candidate = found
            looked += 1
        }
        return nil
    }
    mutating func first() { position = 0 }
    mutating func last() { position = trace.eventCount }

    /// Moves to step `step`, or, when no event has that step (its line was skipped, as a
    /// malformed line is), to the first step after it; returns the step moved to, nil (staying)
    /// when `step` is past the last step or negative.
    mutating func go(nearStep step: Int) -> Int? {
        guard step >= 0, step <= trace.lastStep else { return nil }
        if go(toStep: step) { return step }
        var low = 0
        var high = trace.eventCount
        while low < high {
            let middle = (low + high) / 2
            if (trace.step(ofEventAt: middle) ?? 0) < step { low = middle + 1 } else { high = middle }
        }
        guard low < trace.eventCount else { return nil }
        position = low + 1
        return self.step
    }

    /// Moves to step `step` (the moment just after the event whose seq is `step`).
    mutating func go(toStep step: Int) -> Bool {
        if step == 0 {
            position = 0
            return true
        }
        guard let index = trace.eventIndex(atStep: step) else { return false }
        position = index + 1
        return true
    }

    /// Moves to the next event (after the current one, wrapping around; before it, with
    /// `backward`) that the filter lets through and that `text` names, ignoring case: in its
    /// store, its action, the two as the view prints them (`CatalogStore.toLoading`), its
    /// arguments as the list prints them (`title: "Dune"`), or a value of its state where the
    /// text first appears there (the store's state before the event did not hold it). An empty
    /// `text` repeats the last search.
    mutating func find(_ text: String, backward: Bool = false) -> Bool {
        let needle = text.isEmpty ? (lastSearch ?? "") : text
        guard !needle.isEmpty else { return false }
        lastSearch = needle
        guard let index = search(for: needle, backward: backward) else { return false }
        position = index + 1
        return true
    }

    /// Takes the outcome of a search run elsewhere (`search(for:)` on a copy, off the input
    /// thread): remembers `text` for `N` and an empty search, and moves to `index` when found.
    mutating func searched(_ text: String, found index: Int?) {
        lastSearch = text
        if let index, index >= 0, index < trace.eventCount { position = index + 1 }
    }

    /// The index of the next event (after the current one, wrapping around; before it with
    /// `backward`) that `find` goes to for `needle`, without moving. Candidates are found in the
    /// file's bytes first (`TraceFile.forEachEvent(containing:andAll:)`: lines that hold every
    /// run of letters and digits of `needle`, scanned for the longest), and only they are
    /// decoded, so that a common word beside a rare or absent one costs no decoding. Nil when
    /// none matches, or when `shouldStop` said to stop.
    func search(
        for needle: String, backward: Bool = false, shouldStop: () -> Bool = { false },
        progress: (_ bytesScanned: Int) -> Void = { _ in }
    ) -> Int? {
        let count = trace.eventCount
        guard !needle.isEmpty, count > 0 else { return nil }
        let lowered = needle.lowercased()
        let current = position - 1
        // From the current event on, then wrapping around to it (the other way with `backward`).
        let ranges: [Range<Int>] =
            backward
            ? [0..<max(0, current), max(0, current)..<count]
            : [min(count, current + 1)..<count, 0..<min(count, current + 1)]
        var found: Int?
        var scannedBefore = 0
        for range in ranges where found == nil {
            let tokens = Self.searchTokens(lowered)
            if let token = tokens.first {
                var scanned = 0
                let before = scannedBefore
                let finished = trace.forEachEvent(
                    containing: token, andAll: Array(tokens.dropFirst()), in: range, backward: backward,
                    shouldStop: shouldStop,
                    progress: {
                        scanned = $0
                        progress(before + $0)
                    },
                    { index in
                        guard matchesSearch(lowered, at: index) else { return true }
                        found = index
                        return false
                    })
                scannedBefore += scanned
                if !finished && found == nil { return nil }
            } else {
                // Nothing to look for in the bytes (`→`, `.`): every event of the range, decoded.
                let indices = backward ? Array(range.reversed()) : Array(range)
                for index in indices {
                    if index % 4096 == 0 && shouldStop() { return nil }
                    if matchesSearch(lowered, at: index) {
                        found = index
                        break
                    }
                }
            }
        }
        return found
    }

    /// The runs of ASCII letters, digits and `_` of `lowered`, longest first, each once: what
    /// every line that matches holds as is (the rest may be printed otherwise than the file
    /// writes it, as `title: "Dune"` for `"title":"Dune"`); empty when it has none. A run
    /// inside a longer one is left out (the longer one's line holds it).
    static func searchTokens(_ lowered: String) -> [[UInt8]] {
        var runs: [[UInt8]] = []
        var run: [UInt8] = []
        for byte in Array(lowered.utf8) + [0] {
            let isWord =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            if isWord {
                run.append(byte)
            } else if !run.isEmpty {
                runs.append(run)
                run = []
            }
        }
        // Longest first, the first of equal ones first (a stable sort).
        let sorted = runs.enumerated().sorted {
            $0.element.count != $1.element.count ? $0.element.count > $1.element.count : $0.offset < $1.offset
        }
        var tokens: [[UInt8]] = []
        for (_, candidate) in sorted where !tokens.contains(where: { $0.contains(candidate) }) {
            tokens.append(candidate)
        }
        return tokens
    }

    /// Whether the event at `index` passes the filter and matches the search `lowered`.
    private func matchesSearch(_ lowered: String, at index: Int) -> Bool {
        guard let event = trace.event(at: index), filter.matches(event, hasProblem: hasProblem(eventAt: index))
        else { return false }
        return Self.names(event, lowered) || appears(lowered, at: event)
    }

    /// Whether `lowered` is in `event`'s store, action, `Store.action` or arguments.
    private static func names(_ event: TraceEvent, _ lowered: String) -> Bool {
        let store = event.store ?? ""
        let action = EventLine.action(of: event)
        let haystack = [store, action, store + "." + action, ActionArgumentsText.text(event.args)]
        return haystack.contains { $0.lowercased().contains(lowered) }
    }

    /// Whether `lowered` is in `event`'s state but was not in its store's state just before.
    private func appears(_ lowered: String, at event: TraceEvent) -> Bool {
        guard let state = event.state, let store = event.store else { return false }
        guard JSONPrinter.compact(state, terminalSafe: true).lowercased().contains(lowered) else { return false }
        let stepBefore = event.index > 0 ? (trace.step(ofEventAt: event.index - 1) ?? 0) : 0
        guard let before = try? trace.readState(of: store, atStep: stepBefore) else { return true }
        return !JSONPrinter.compact(before, terminalSafe: true).lowercased().contains(lowered)
    }

    /// Moves to the next (or previous) event with a problem.
    mutating func nextProblem(forward: Bool = true) -> Bool {
        let current = position - 1
        let target = forward ? problemEvents.first { $0 > current } : problemEvents.last { $0 < current }
        guard let target else { return false }
        position = target + 1
        return true
    }

    /// The app state at the current step.
    /// - Throws: `TraceReadError` when a line it needs can no longer be read, or a patch does
    ///   not apply.
    func readAppState() throws(TraceReadError) -> JSONObject {
        try trace.readAppState(atStep: step)
    }

    /// What the current event changed: its store's state before and after it. Paths start with
    /// the store's name. Empty at step 0 and for events that set no state. In a version 2 trace
    /// the state after a transition that carries a `patch` is the one the trace rebuilds.
    /// - Throws: `TraceReadError` when a line it needs can no longer be read, or a patch does
    ///   not apply.
    func readDiff() throws(TraceReadError) -> StateDiff {
        let empty = StateDiff(from: JSONObject(), to: JSONObject())
        guard position > 0, let event = try readEvent(), let store = event.store, event.setsState else { return empty }
        // The state before first: the state after a patch is then the one rebuilt from it, in
        // one patch (the trace keeps the last state it rebuilt).
        let beforeStep = position > 1 ? (trace.step(ofEventAt: position - 2) ?? 0) : 0
        var before = JSONObject()
        if let previous = try trace.readState(of: store, atStep: beforeStep) {
            before.append(key: store, value: previous)
        }
        let rebuilt = event.state == nil ? try trace.readState(of: store, atStep: step) : nil
        guard let after = event.state ?? rebuilt else { return empty }
        return StateDiff(from: before, to: JSONObject([(key: store, value: after)]))
    }

    /// The paths of the values the current step changed, as its diff lists them, items of
    /// arrays whose elements have distinct ids named by id (`CartStore.lines[id: "MUG"].quantity`):
    /// the values whose earlier change `goToLastChange(of:)` can jump to. Empty when they cannot
    /// be read.
    var changedPaths: [StatePath] {
        ((try? readDiff())?.changes(namingItemsByID: true) ?? []).map(\.path)
    }

    /// Moves to the step that last changed the value at `path` before the current step: who
    /// set the value this step started from? Returns that change, or nil (and stays) when no
    /// earlier step changed it. Reads only the events of the path's store (`ValueHistory`).
    ///
    /// The path follows items, not positions: an index into an array whose elements have
    /// distinct ids is taken as the item at that index in the current step's state
    /// (`StatePath.followingItems(in:)`), so that removing earlier items does not make another
    /// item's change the answer.
    mutating func goToLastChange(of path: StatePath) -> ValueChange? {
        var path = path
        if case .key(let store)? = path.components.first, let state = try? trace.readState(of: store, atStep: step) {
            path = StatePath(
                path.components.prefix(1)
                    + StatePath(Array(path.components.dropFirst())).followingItems(in: state).components)
        }
        guard let history = try? ValueHistory(trace: trace, path: path),
            let change = history.lastChange(before: step), go(toStep: change.step)
        else { return nil }
        return change
    }

    /// How the current event's store got into the case it left (see `CaseHistory`); nil at
    /// step 0 and for an event without a machine case.
    var caseHistory: CaseHistory? {
        event.flatMap { CaseHistory(before: $0, in: trace) }
    }

    /// Moves to the previous event of the current event's store (ignoring the filter): back
    /// along how it got here. Returns that event, or nil (and stays) when there is none.
    mutating func backInStore() -> TraceEvent? {
        guard let store = event?.store, let index = trace.eventIndex(of: store, before: position - 1),
            let earlier = trace.event(at: index)
        else { return nil }
        position = index + 1
        return earlier
    }

    private mutating func move(to newPosition: Int) -> Bool {
        guard newPosition >= 0, newPosition <= trace.eventCount else { return false }
        position = newPosition
        return true
    }
}
