import Recorder

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The validation of one trace, fed one line at a time: the rules of shared/TRACE_FORMAT.md
/// ("Validity"), applied as the lines go by, keeping only what the next lines need (the previous
/// `seq`, each store's current case), so that memory does not grow with the file.
///
/// Decisions where the format page is silent, each marked "Decision:" below and listed here:
/// - A malformed line gets one `malformed` problem whose message lists everything wrong with it;
///   its `seq` and `store` are given when they could be read with the right type.
/// - Types are checked on every key of the format page for `register` and `transition` events;
///   for an event of an unknown `type`, only `type` and `seq` (the keys every event has), since
///   a future event type may give other keys another meaning.
/// - An empty line is `\n` or `\r\n`; a line of spaces is not empty but malformed.
/// - A line longer than 1 GiB is `malformed` and skipped without being kept in memory.
/// - An `unknown-case` event names every bad name (`from` and `to`) in one problem.
/// - A register event's `case` is not checked against the machine's `initial`: a store may be
///   created in any case (restored from disk, for example).
/// - `cause-loop` (this project's addition, docs/TRACE_FORMAT_ADDITIONS.md) is checked on
///   register and transition events that are well-formed; see `CauseLoopTracker`.
struct ValidationRun {
    /// An event's `type`, as far as validation goes.
    private typealias EventKind = EventLineCheck.EventType

    /// What the run knows of one store.
    private struct StoreState {
        /// The store's machine in `machines`, or -1 when it has none.
        var machine: Int
        /// Whether a register or transition event of the store was seen.
        var seen = false
        /// The store's current case number in its machine, or -1 when the current case is not a
        /// case of the machine (`currentName` says which) or not known.
        var current = -1
        /// The current case's name when it is not a case of the machine.
        var currentName: String?
        /// The line and seq of the event that set the current case, for messages.
        var sinceLine = 0
        var sinceSeq = 0
    }

    private(set) var report: ValidationReport
    private let overrides: [String: MachineSpec]
    private let maximumProblems: Int

    private var lineNumber = 0
    /// Whether a fatal problem ended the run.
    private(set) var stopped = false
    private var previousSeq = 0
    private var hasPreviousEvent = false
    /// False after a malformed line: the next event is not checked for `seq`.
    private var checksSeq = true

    private var machines: [CompiledMachine] = []
    private var machineByStore: [String: Int] = [:]
    private var storeNames = NameTable()
    private var stores: [StoreState] = []
    private var causeLoops: CauseLoopTracker

    init(
        file: String, machines overrides: [String: MachineSpec], maximumProblems: Int,
        maximumCauseDepth: Int = TraceValidator.defaultMaximumCauseDepth
    ) {
        self.report = ValidationReport(file: file)
        self.overrides = overrides
        self.maximumProblems = max(0, maximumProblems)
        self.causeLoops = CauseLoopTracker(maximumDepth: maximumCauseDepth)
    }

    /// Checks the next line; returns false when nothing more will be checked (not a trace).
    @inline(__always)
    mutating func consume(_ line: LineReader.Line) -> Bool {
        guard let event = begin(line) else { return !stopped }
        do {
            var fields = EventFields()
            try EventScanner.scan(event, into: &fields)
            checkEvent(&fields, event)
        } catch {
            reportInvalid(error, isTerminated: line.isTerminated)
        }
        return true
    }

    /// Checks the next line, scanned in advance (by a worker thread) into `fields`, or found not
    /// to be one JSON object (`error`).
    @inline(__always)
    mutating func consume(_ line: LineReader.Line, scanned fields: UnsafePointer<EventFields>, error: JSONParseError?)
        -> Bool
    {
        guard let event = begin(line) else { return !stopped }
        if let error {
            reportInvalid(error, isTerminated: line.isTerminated)
        } else {
            checkEvent(fields, event)
        }
        return true
    }

    /// Counts the line, reads the header and skips what is not an event; returns the line's
    /// bytes when it is to be checked as an event.
    @inline(__always)
    private mutating func begin(_ line: LineReader.Line) -> UnsafeRawBufferPointer? {
        lineNumber &+= 1
        if lineNumber == 1 {
            readHeader(line)
            return nil
        }
        if line.isOverlong {
            add(.malformed, message: "the line is longer than 1 GiB, the longest line a trace may have; it was skipped")
            checksSeq = false
            return nil
        }
        // Empty lines (`\n`, or `\r\n`) are skipped.
        return Self.isEmpty(line.bytes) ? nil : line.bytes
    }

    /// Whether a line is empty: `\n` or `\r\n`, which are skipped.
    @inline(__always)
    static func isEmpty(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.isEmpty || (bytes.count == 1 && bytes[0] == 0x0D)
    }

    /// A line that is not one JSON object: `truncated` when it is the last line without `\n`.
    private mutating func reportInvalid(_ error: JSONParseError, isTerminated: Bool) {
        if !isTerminated {
            add(
                .truncated,
                message:
                    "the last line has no final newline and is not a complete JSON object (column \(error.column): \(error.message)): a write cut short, probably by a crash; the events before it are intact"
            )
            return
        }
        let message =
            error.message.hasPrefix("the line is")
            ? error.message
            : "the line is not valid JSON: column \(error.column): \(error.message)"
        add(.malformed, message: message)
        checksSeq = false
    }

    /// The report, once every line was consumed.
    mutating func finish() -> ValidationReport {
        for loop in causeLoops.loops.values { writeMessage(of: loop) }
        if lineNumber == 0 {
            add(
                .notATrace, line: 1,
                message:
                    "the file is empty; a Rewind trace starts with its header line {\"type\":\"header\",\"format\":\"rewind-trace\",\"version\":1,\"machines\":{...}}"
            )
        }
        return report
    }

    // MARK: The header

    private mutating func readHeader(_ line: LineReader.Line) {
        guard !line.isOverlong else {
            add(.notATrace, message: "line 1 is longer than 1 GiB; it is not a trace header")
            stopped = true
            return
        }
        let header: TraceHeader
        do {
            header = try TraceHeader.parse(line.bytes)
        } catch {
            add(.notATrace, message: error.message)
            stopped = true
            return
        }
        // `--spec` replaces the header's machines store by store.
        var specs = header.machines
        for (store, spec) in overrides { specs[store] = spec }
        for store in specs.keys.sorted() {
            machineByStore[store] = machines.count
            machines.append(CompiledMachine(specs[store]!))
        }
    }

    // MARK: Events

    @inline(__always)
    private mutating func checkEvent(_ fields: UnsafePointer<EventFields>, _ line: UnsafeRawBufferPointer) {
        let kind = eventKind(fields, line)
        var store = -1
        if kind != .unknown, let name = fields.pointee.store { store = storeNumber(name, line) }
        let machine = store >= 0 ? stores[store].machine : -1

        // Required keys, and the keys whose type is checked, by event type.
        var required = EventFields.KeySet()
        var typed = EventFields.KeySet()
        typed.insert(.type)
        typed.insert(.seq)
        required.insert(.type)
        required.insert(.seq)
        switch kind {
        case .register:
            required.insert(.store)
            required.insert(.state)
            if machine >= 0 { required.insert(.caseName) }
            typed.bits = UInt16.max
        case .transition:
            required.insert(.store)
            required.insert(.action)
            required.insert(.changed)
            required.insert(.state)
            if machine >= 0 {
                required.insert(.from)
                required.insert(.to)
            }
            typed.bits = UInt16.max
        case .unknown:
            break
        }
        let wrong = fields.pointee.wrongTypes.bits & typed.bits
        let missing = required.bits & ~fields.pointee.present.bits & ~fields.pointee.wrongTypes.bits
        if wrong != 0 || missing != 0 {
            reportMalformed(
                fields.pointee, line, kind: kind, store: store, machine: machine,
                wrong: EventFields.KeySet(bits: wrong), missing: EventFields.KeySet(bits: missing))
            checksSeq = false
            return
        }

        report.events &+= 1
        // `type` and `seq` are present: checked above.
        let seq = fields.pointee.seq ?? 0
        if checksSeq && seq != previousSeq &+ 1 {
            reportSeq(seq, fields.pointee, line, store: store)
        }
        previousSeq = seq
        hasPreviousEvent = true
        checksSeq = true

        switch kind {
        case .register: register(fields, line, store: store, machine: machine, seq: seq)
        case .transition: transition(fields, line, store: store, machine: machine, seq: seq)
        case .unknown: return
        }
        checkCause(fields, line, kind: kind, store: store, seq: seq)
    }

    /// Follows the event's `cause` chain, and reports a chain that passed the threshold.
    @inline(__always)
    private mutating func checkCause(
        _ fields: UnsafePointer<EventFields>, _ line: UnsafeRawBufferPointer, kind: EventKind, store: Int, seq: Int
    ) {
        guard
            causeLoops.record(
                seq: seq, store: store, action: kind == .transition ? fields.pointee.action : nil,
                cause: fields.pointee.cause, line: line)
        else {
            return
        }
        let names = storeNames
        guard let (root, loop) = causeLoops.beginLoop(at: seq, storeName: { names.name($0) }) else { return }
        let listed = report.problems.count < maximumProblems
        add(.causeLoop, seq: seq, store: names.name(Int(loop.store)), message: causeLoops.message(loop))
        if listed { causeLoops.setProblem(report.problems.count - 1, forLoopAt: root) }
        for finished in causeLoops.takeFinishedLoops(before: seq) { writeMessage(of: finished) }
    }

    /// Writes a loop's message with the count and last seq it reached.
    private mutating func writeMessage(of loop: CauseLoopTracker.Loop) {
        guard let index = loop.problem, index < report.problems.count else { return }
        report.problems[index].message = causeLoops.message(loop)
    }

    @inline(__always)
    private func eventKind(_ fields: UnsafePointer<EventFields>, _ line: UnsafeRawBufferPointer) -> EventKind {
        guard let type = fields.pointee.type else { return .unknown }
        return EventLineCheck.eventType(type, in: line)
    }

    /// The number of the store named by `text`, adding it when it is new.
    @inline(__always)
    private mutating func storeNumber(_ text: EventFields.Text, _ line: UnsafeRawBufferPointer) -> Int {
        let number: Int
        if text.hasEscapes {
            number = storeNames.intern(EventFields.string(text, in: line))
        } else {
            number = storeNames.intern(UnsafeRawBufferPointer(rebasing: line[text.range]))
        }
        if number == stores.count {
            stores.append(StoreState(machine: machineByStore[storeNames.name(number)] ?? -1))
        }
        return number
    }

    /// The case number of `text` in `machine`, or nil when it is not one of its cases.
    @inline(__always)
    private func caseNumber(_ text: EventFields.Text, _ line: UnsafeRawBufferPointer, machine: Int) -> Int? {
        // Through a buffer pointer: `machines[machine]` would copy the machine (and retain its tables).
        machines.withUnsafeBufferPointer { machines in
            if text.hasEscapes { return machines[machine].caseNumber(EventFields.string(text, in: line)) }
            return machines[machine].caseNumber(UnsafeRawBufferPointer(rebasing: line[text.range]))
        }
    }

    private mutating func register(
        _ fields: UnsafePointer<EventFields>, _ line: UnsafeRawBufferPointer, store: Int, machine: Int, seq: Int
    ) {
        stores[store].seen = true
        stores[store].sinceLine = lineNumber
        stores[store].sinceSeq = seq
        guard machine >= 0, let caseText = fields.pointee.caseName else {
            stores[store].current = -1
            stores[store].currentName = nil
            return
        }
        // A store that registers again starts over from this event.
        if let number = caseNumber(caseText, line, machine: machine) {
            stores[store].current = number
            stores[store].currentName = nil
        } else {
            let name = EventFields.string(caseText, in: line)
            stores[store].current = -1
            stores[store].currentName = name
            let storeName = storeNames.name(store)
            add(
                .unknownCase, seq: seq, store: storeName,
                message:
                    "register of \(storeName) has case \(Self.quoted(name)), which is not a case of its machine (\(machines[machine].caseList))"
            )
        }
    }

    private mutating func transition(
        _ fields: UnsafePointer<EventFields>, _ line: UnsafeRawBufferPointer, store: Int, machine: Int, seq: Int
    ) {
        defer {
            stores[store].sinceLine = lineNumber
            stores[store].sinceSeq = seq
        }
        guard stores[store].seen else {
            // No machine check; the store is followed from its `to` on.
            stores[store].seen = true
            let storeName = storeNames.name(store)
            let action = fields.pointee.action.map { EventFields.string($0, in: line) } ?? "?"
            var message =
                "transition \(action) on \(storeName), which has no earlier register event; a store writes a register event when it is created"
            if machine >= 0, let toText = fields.pointee.to {
                setCurrent(store, machine: machine, to: toText, line)
                message += " (following it from \(EventFields.string(toText, in: line)) on)"
            }
            add(.unregistered, seq: seq, store: storeName, message: message)
            return
        }
        guard machine >= 0, let fromText = fields.pointee.from, let toText = fields.pointee.to else { return }
        let from = caseNumber(fromText, line, machine: machine)
        let to = caseNumber(toText, line, machine: machine)
        if let from, let to {
            let current = stores[store].current
            if current != from {
                reportDiscontinuity(fields.pointee, line, store: store, machine: machine, seq: seq)
            }
            if !machines.withUnsafeBufferPointer({ $0[machine].allows(from: from, to: to) }) {
                reportIllegal(fields.pointee, line, store: store, machine: machine, seq: seq, from: from)
            }
            stores[store].current = to
            stores[store].currentName = nil
        } else {
            reportUnknownCase(
                fields.pointee, line, store: store, machine: machine, seq: seq, fromKnown: from != nil,
                toKnown: to != nil)
            setCurrent(store, machine: machine, to: toText, line)
        }
    }

    /// After any transition, the store's current case is its `to`, whatever was wrong.
    private mutating func setCurrent(
        _ store: Int, machine: Int, to text: EventFields.Text, _ line: UnsafeRawBufferPointer
    ) {
        if let number = caseNumber(text, line, machine: machine) {
            stores[store].current = number
            stores[store].currentName = nil
        } else {
            stores[store].current = -1
            stores[store].currentName = EventFields.string(text, in: line)
        }
    }

    // MARK: Problems and their messages

    private mutating func add(
        _ kind: ProblemKind, line: Int? = nil, seq: Int? = nil, store: String? = nil, message: String
    ) {
        switch kind.severity {
        case .fatal, .error: report.errors += 1
        case .warning: report.warnings += 1
        }
        guard report.problems.count < maximumProblems else {
            report.omitted += 1
            return
        }
        report.problems.append(Problem(kind: kind, line: line ?? lineNumber, seq: seq, store: store, message: message))
    }

    private mutating func reportSeq(_ seq: Int, _ fields: EventFields, _ line: UnsafeRawBufferPointer, store: Int) {
        let expected = previousSeq &+ 1
        let message: String
        if !hasPreviousEvent {
            message = "the first event has seq \(seq), expected 1"
        } else if seq == previousSeq {
            message =
                "seq \(seq) repeats the previous event's seq (expected \(expected)); two events were written with one number"
        } else if seq > expected {
            let gap = seq &- expected
            message =
                "seq \(seq) follows seq \(previousSeq) (expected \(expected)): \(gap == 1 ? "1 event is" : "\(gap) events are") missing"
        } else {
            message = "seq \(seq) comes after seq \(previousSeq) (expected \(expected)): seq went back"
        }
        add(.seq, seq: seq, store: store >= 0 ? storeNames.name(store) : nil, message: message)
    }

    private mutating func reportMalformed(
        _ fields: EventFields, _ line: UnsafeRawBufferPointer, kind: EventKind, store: Int, machine: Int,
        wrong: EventFields.KeySet, missing: EventFields.KeySet
    ) {
        let storeName = store >= 0 ? storeNames.name(store) : nil
        let what =
            switch kind {
            case .register: "register event"
            case .transition: "transition event"
            case .unknown: "event"
            }
        var parts: [String] = []
        if !wrong.isEmpty {
            // Rare: parse the whole line (valid JSON) to show the wrong values.
            let object = (try? JSONParser.parse(line))?.objectValue
            for key in wrong.keys {
                let shown = object?[key.name].map(TraceHeader.describe) ?? "of another type"
                var expected = key.expectedType
                if case .number(let text)? = object?[key.name], !text.contains(where: { ".eE".contains($0) }) {
                    expected = "an integer between -2^63 and 2^63-1"
                }
                parts.append("\"\(key.name)\" is \(shown), expected \(expected)")
            }
        }
        let machineKeys: [EventFields.Key] = [.caseName, .from, .to]
        let plainMissing = missing.keys.filter { !machineKeys.contains($0) }
        let machineMissing = missing.keys.filter { machineKeys.contains($0) }
        if !plainMissing.isEmpty {
            let list = plainMissing.map { "\"\($0.name)\"" }.joined(separator: ", ")
            let rule =
                switch kind {
                case .register: "a register event has \"type\", \"seq\", \"store\" and \"state\""
                case .transition:
                    "a transition event has \"type\", \"seq\", \"store\", \"action\", \"changed\" and \"state\""
                case .unknown: "every event has \"type\" (a string) and \"seq\" (an integer)"
                }
            parts.append("\(list) \(plainMissing.count == 1 ? "is" : "are") missing (\(rule))")
        }
        if !machineMissing.isEmpty, machine >= 0, let storeName {
            let list = machineMissing.map { "\"\($0.name)\"" }.joined(separator: " and ")
            parts.append(
                "\(list) \(machineMissing.count == 1 ? "is" : "are") missing, required because \(storeName) has a state machine (\(machines[machine].caseList))"
            )
        }
        let subject = storeName.map { "\(what) of \($0)" } ?? what
        add(.malformed, seq: fields.seq, store: storeName, message: "\(subject): " + parts.joined(separator: "; "))
    }

    private mutating func reportUnknownCase(
        _ fields: EventFields, _ line: UnsafeRawBufferPointer, store: Int, machine: Int, seq: Int, fromKnown: Bool,
        toKnown: Bool
    ) {
        let storeName = storeNames.name(store)
        var bad: [String] = []
        if !fromKnown, let text = fields.from { bad.append("from \(Self.quoted(EventFields.string(text, in: line)))") }
        if !toKnown, let text = fields.to { bad.append("to \(Self.quoted(EventFields.string(text, in: line)))") }
        let action = fields.action.map { EventFields.string($0, in: line) } ?? "?"
        let verb = bad.count > 1 ? "are not cases" : "is not a case"
        add(
            .unknownCase, seq: seq, store: storeName,
            message:
                "transition \(action) on \(storeName): \(bad.joined(separator: " and ")) \(verb) of its machine (\(machines[machine].caseList))"
        )
    }

    private mutating func reportDiscontinuity(
        _ fields: EventFields, _ line: UnsafeRawBufferPointer, store: Int, machine: Int, seq: Int
    ) {
        let storeName = storeNames.name(store)
        let state = stores[store]
        let current = state.current >= 0 ? machines[machine].caseName(state.current) : (state.currentName ?? "?")
        let from = fields.from.map { EventFields.string($0, in: line) } ?? "?"
        let to = fields.to.map { EventFields.string($0, in: line) } ?? "?"
        let action = fields.action.map { EventFields.string($0, in: line) } ?? "?"
        add(
            .discontinuity, seq: seq, store: storeName,
            message:
                "discontinuous transition \(from) → \(to) by \(action) in \(storeName) (\(Self.place(fields, line, seq: seq))): \(storeName) is in \(current) since seq \(state.sinceSeq) (line \(state.sinceLine)), so the transition should start from \(current); an event is missing, or the state changed outside an action"
        )
    }

    /// `seq 16, from CatalogStore.swift:31`, or `seq 16` without a source.
    private static func place(_ fields: EventFields, _ line: UnsafeRawBufferPointer, seq: Int) -> String {
        guard let source = fields.source else { return "seq \(seq)" }
        return "seq \(seq), from \(EventFields.string(source, in: line))"
    }

    private mutating func reportIllegal(
        _ fields: EventFields, _ line: UnsafeRawBufferPointer, store: Int, machine: Int, seq: Int, from: Int
    ) {
        let storeName = storeNames.name(store)
        let fromName = fields.from.map { EventFields.string($0, in: line) } ?? "?"
        let toName = fields.to.map { EventFields.string($0, in: line) } ?? "?"
        let action = fields.action.map { EventFields.string($0, in: line) } ?? "?"
        let place = Self.place(fields, line, seq: seq)
        let targets = machines[machine].targets(of: from)
        let allowed =
            targets.isEmpty
            ? "\(fromName) is a final case" : "from \(fromName) it may go to \(targets.joined(separator: ", "))"
        add(
            .illegal, seq: seq, store: storeName,
            message: "illegal transition \(fromName) → \(toName) by \(action) in \(storeName) (\(place)); \(allowed)")
    }

    private static func quoted(_ text: String) -> String {
        TraceHeader.quoted(text)
    }
}
