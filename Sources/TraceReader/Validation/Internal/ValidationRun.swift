import Recorder
@_spi(RewindInternals) internal import RewindSupport
import TraceJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The validation of one trace, fed one line at a time: the rules of shared/TRACE_FORMAT.md
/// ("Validity", "Rules over time", "Version 2: patches"), applied as the lines go by, keeping
/// only what the next lines need (the previous `seq`, each store's machine and current case, the
/// entries of the rules over time, and in version 2 each store's current state), so that memory
/// does not grow with the file.
///
/// A version 1 trace without rules pays for none of the newer rules per line beyond a few bit
/// tests: `machine`, `patch`, rules and states are looked at only when the line or the trace has
/// them.
///
/// Decisions where the format page is silent or unclear, each marked "Decision:" below and listed
/// here:
/// - A malformed line gets one `malformed` problem whose message lists everything wrong with it;
///   its `seq` and `store` are given when they could be read with the right type.
/// - A problem names the event's `store` whenever the event has a string `store`, whatever its
///   `type` (the page's type rules give `store` its meaning on every event).
/// - The problems of one line come in the order of the page's table: `seq`, `unregistered`,
///   `unknown-case`, `discontinuity`, `illegal`, `unchecked`, `overdue` (in the order of the rules
///   list), `unresolved`, `bad-patch`, then this project's `cause-loop`.
/// - An empty line is `\n` or `\r\n`; a line of spaces is not empty but malformed.
/// - A line longer than 1 GiB is `malformed` and skipped without being kept in memory.
/// - An `unknown-case` event names every bad name (`from` and `to`) in one problem.
/// - A register or restore event's `case` is not checked against the machine's `initial`: a
///   store may be created in any case (restored from disk, for example).
/// - A store's machine at a register is `--spec`'s, else the register's own `machine`, else the
///   header's: a later register without `machine` does not keep an earlier register's machine
///   ("the `machine` of its latest register event … when that register carries one"), as a store
///   that registers again starts over. Restores and transitions use the machine of the store's
///   latest register (a restore's `machine` is ignored, as the page says, but must be shaped as a
///   machine like any event's).
/// - A store's "earlier register" for `unregistered` is any earlier register, restore or
///   transition of it: `unregistered` is reported once per store, on its first restore or
///   transition when no register came before.
/// - Rules over time: an event of the store enters, stays in or leaves the rule's case only
///   while the store has a machine that has the case; an event after which it has none (or one
///   without the case) leaves. A register or restore whose `case` is the rule's case enters it
///   anew even when the store was in it, and so does a transition into it from another case (a
///   discontinuity): the entry starts over (its count and clock restart). A `seconds` clock is
///   judged on the events after the entering event, before each event enters or leaves anything.
///   An `unresolved` problem has the `seq` of the store's last register, restore or transition.
/// - Rules: a `within` rule needs `case` (a string); `events` is a JSON integer of at least 1 (one
///   beyond 64 bits never comes), `seconds` any number, 0 and negative ones included. An
///   unshaped `rules` makes the header `not-a-trace` (`TraceRule`).
/// - A header whose `version` is an integer other than 1 or 2 (however large) is `not-a-trace`
///   as an unknown version; a `version` that is not an integer (`1.0`, `"1"`) is not a header.
/// - Version 2: a store's state is known from any event that carries a whole `state` (an
///   unregistered store's too, from its first one). A patch that does not apply leaves the state
///   unknown until the next whole state, and later patches go unchecked until then. Patches are
///   applied as `JSONPatch.apply` applies them: `test` compares numbers by value (`1` equals
///   `1.0`) and objects without regard to member order, and `remove` of the whole document (path
///   `""`) does not apply.
/// - `cause-loop` (this project's addition, docs/TRACE_FORMAT_ADDITIONS.md) is checked on
///   register and transition events that are well-formed; see `CauseLoopTracker`.
struct ValidationRun {
    /// An event's `type`, as far as validation goes.
    private typealias EventKind = EventLineCheck.EventType
    private typealias Key = EventFields.Key
    private typealias KeySet = EventFields.KeySet

    /// What the run knows of one store.
    private struct StoreState {
        /// The store's machine in `--spec`, or -1 when it has none there.
        var specMachine: Int
        /// The store's machine in the header, or -1.
        var headerMachine: Int
        /// The store's machine now (at its next restore or transition): `--spec`'s, else its
        /// latest register's `machine`, else the header's; -1 when it has none.
        var machine: Int
        /// Whether a register, restore or transition event of the store was seen.
        var seen = false
        /// The store's current case number in its machine, or -1 when the current case is not a
        /// case of the machine (`currentName` says which) or not known.
        var current = -1
        /// The current case's name when it is not a case of the machine.
        var currentName: String?
        /// The line and seq of the event that set the current case: the store's latest register,
        /// restore or transition (line 0 before its first).
        var sinceLine = 0
        var sinceSeq = 0
        /// Whether a `within` rule names the store.
        var hasRules = false
    }

    private(set) var report: ValidationReport
    private let overrides: [String: MachineSpec]
    private let ruleOverride: [TraceRule]?
    private let maximumProblems: Int
    /// Whether the report keeps the places of the problems past `maximumProblems`.
    var recordsOmittedPlaces = false

    private var lineNumber = 0
    /// The latest line that was skipped as `malformed` or `truncated` (0 for none): a line that
    /// `TraceFile` does not count as an event, for `TraceStream`.
    private(set) var skippedLine = 0
    /// Whether a fatal problem ended the run.
    private(set) var stopped = false
    /// The header's format version.
    private var version = 1
    private var previousSeq = 0
    private var hasPreviousEvent = false
    /// False after a malformed line: the next event is not checked for `seq`.
    private var checksSeq = true

    private var machines = MachineTable()
    private var specMachineByStore: [String: Int] = [:]
    private var headerMachineByStore: [String: Int] = [:]
    private var storeNames = NameTable()
    /// The last few store names looked up: events mostly come from a few stores in turn, found
    /// so without hashing their names.
    private var recentStores = RecentNames()
    /// The case numbers of the last few `from` and `to` names in machine `recentCasesMachine`
    /// (-1: none), found so without hashing them: a store's transitions name a few cases over and
    /// over. Only cases found are remembered; forgotten when the machine changes, and when the
    /// machines are renumbered (`compactMachines`).
    private var recentCases = RecentNames()
    private var recentCasesMachine = -1
    private var stores: [StoreState] = []
    private var causeLoops: CauseLoopTracker

    /// The rules over time, when the trace (or the spec) has some.
    private var hasRules = false
    private var rules = RuleTracker(rules: [])
    /// The `within` rules of each store that has some, by store number.
    private var rulesOfStore: [Int: [Int]] = [:]
    /// Version 2: each store's current state, for its patches.
    private var states = StoreStateKeeper()
    /// Version 2: the most values copies may add to a rebuilt state beyond those its lines spell
    /// out (`TraceValidator.rebuiltValueLimit`).
    var rebuiltValueLimit: Int {
        get { states.valueLimit }
        set { states.valueLimit = newValue }
    }

    /// A regular file open for reading whose line 1 is at offset 0, from which the header's
    /// machines are read again when built instead of keeping a copy of line 1; nil otherwise.
    private let headerFile: Int32?

    init(
        file: String, machines overrides: [String: MachineSpec], rules ruleOverride: [TraceRule]? = nil,
        maximumProblems: Int, maximumCauseDepth: Int = TraceValidator.defaultMaximumCauseDepth,
        headerFile: Int32? = nil
    ) {
        self.headerFile = headerFile
        self.report = ValidationReport(file: file)
        self.overrides = overrides
        self.ruleOverride = ruleOverride
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
            ScannedFields.lending(&fields) { checkEvent($0, event) }
        } catch {
            reportInvalid(error, isTerminated: line.isTerminated)
        }
        return true
    }

    /// Checks the next line, scanned in advance (by a worker thread) into `fields`, or found not
    /// to be one JSON object (`error`).
    @inline(__always)
    mutating func consume(_ line: LineReader.Line, scanned fields: ScannedFields, error: JSONParseError?)
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
    private mutating func begin(_ line: LineReader.Line) -> ByteView? {
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
        return LineReader.isEmpty(line.bytes) ? nil : line.bytes
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
        if hasRules && !stopped { checkNotAtEnd() }
        return report
    }

    // MARK: The header

    private mutating func readHeader(_ line: LineReader.Line) {
        guard !line.isOverlong else {
            add(.notATrace, message: "line 1 is longer than 1 GiB; it is not a trace header")
            stopped = true
            return
        }
        // `--spec` wins over every other machine of its stores; the header's lose to a register's.
        for store in overrides.keys.sorted() { specMachineByStore[store] = machines.addFixed(overrides[store]!) }
        let ruleList: [TraceRule]
        if let found = HeaderSink.scan(line.bytes) {
            // The common header, read without building its machines: each is built when its
            // store first appears (a header may declare thousands).
            version = found.version
            let text: MachineTable.HeaderText = headerFile.map { .file(descriptor: $0) } ?? .copy(line.bytes.array)
            for (store, range) in found.machines.sorted(by: { $0.name < $1.name }) where overrides[store] == nil {
                headerMachineByStore[store] = machines.addFixed(written: text, in: range, store: store)
            }
            ruleList = found.rules
        } else {
            let header: TraceHeader
            do {
                header = try TraceHeader.parse(line.bytes)
            } catch {
                add(.notATrace, message: error.message)
                stopped = true
                return
            }
            version = header.version
            for store in header.machines.keys.sorted() where overrides[store] == nil {
                headerMachineByStore[store] = machines.addFixed(header.machines[store]!)
            }
            ruleList = header.rules
        }
        // A spec's `rules` replace the header's.
        let rules = ruleOverride ?? ruleList
        if !rules.isEmpty {
            hasRules = true
            self.rules = RuleTracker(rules: rules)
        }
    }

    // MARK: Events

    @inline(__always)
    private mutating func checkEvent(_ fields: ScannedFields, _ line: ByteView) {
        let kind = Self.eventKind(fields, line)
        var store = -1
        if kind != .unknown, let name = fields.pointee.store { store = storeNumber(name, line) }
        let present = fields.pointee.present
        // Before any machine number is read: compaction renumbers them.
        if present.contains(.machine) && machines.needsCompaction { compactMachines() }
        var machine = store >= 0 ? stores[store].machine : -1

        // The rarer members: a `machine` (shaped as one), and in version 2 `patch` and `state`.
        // (Optionals: nothing to allocate or release on the lines that have none.)
        var shapeProblems: [String]?
        var carried = -1
        var operations: [JSONValue]?
        if present.contains(.machine) || (version >= 2 && (kind == .transition || present.contains(.patch))) {
            checkShapes(
                fields, line, kind: kind, problems: &shapeProblems, carried: &carried, operations: &operations)
        }
        if kind == .register && store >= 0 {
            // The register's own machine counts at the register.
            let state = stores[store]
            machine = state.specMachine >= 0 ? state.specMachine : (carried >= 0 ? carried : state.headerMachine)
        }

        // Required keys by event type; every key of the page has its type whatever the type.
        var required = KeySet(bits: 1 << Key.type.rawValue | 1 << Key.seq.rawValue)
        switch kind {
        case .register, .restore:
            required.bits |= 1 << Key.store.rawValue | 1 << Key.state.rawValue
            if machine >= 0 { required.insert(.caseName) }
        case .transition:
            required.bits |= 1 << Key.store.rawValue | 1 << Key.action.rawValue | 1 << Key.changed.rawValue
            if version < 2 { required.insert(.state) }
            if machine >= 0 {
                required.insert(.from)
                required.insert(.to)
            }
        case .unknown:
            break
        }
        let wrong = fields.pointee.wrongTypes.bits
        let missing = required.bits & ~present.bits & ~wrong
        if wrong != 0 || missing != 0 || shapeProblems != nil {
            reportMalformed(
                fields.pointee, line, kind: kind, store: store, machine: machine, wrong: KeySet(bits: wrong),
                missing: KeySet(bits: missing), shapeProblems: shapeProblems ?? [])
            checksSeq = false
            return
        }

        report.events &+= 1
        // `type` and `seq` are present: checked above.
        let seq = fields.pointee.seq ?? 0
        // Decision: after `Int.max` no seq is right (the next would be 2^63).
        if checksSeq && (seq != previousSeq &+ 1 || previousSeq == Int.max) {
            reportSeq(seq, fields.pointee, line, store: store)
        }
        previousSeq = seq
        hasPreviousEvent = true
        checksSeq = true

        // Rules over time, `seconds`: judged before the event enters or leaves anything.
        var overdue: [RuleTracker.Overdue]?
        if hasRules && rules.hasClocks, let elapsed = elapsedValue(fields.pointee, line) {
            var found: [RuleTracker.Overdue] = []
            rules.checkClocks(elapsed: elapsed, overdue: &found)
            overdue = found
        }

        switch kind {
        case .register: register(fields, line, store: store, machine: machine, carried: carried, seq: seq)
        case .restore: restore(fields, line, store: store, machine: machine, seq: seq)
        case .transition: transition(fields, line, store: store, machine: machine, seq: seq)
        case .unknown: break
        }

        if hasRules { followRules(fields.pointee, line, kind: kind, store: store, machine: machine, seq: seq, overdue) }
        if version >= 2 && store >= 0 { followState(fields.pointee, line, store: store, operations: operations) }
        if kind == .register || kind == .transition { checkCause(fields, line, kind: kind, store: store, seq: seq) }
    }

    /// Checks the shapes a scan does not: a `machine` on any event (and keeps a register's
    /// machine, as `carried`), and in version 2 a transition's `state` or `patch` and a `patch`
    /// on any event (and keeps its operations). `problems` stays nil when there is none.
    private mutating func checkShapes(
        _ fields: ScannedFields, _ line: ByteView, kind: EventKind,
        problems: inout [String]?, carried: inout Int, operations: inout [JSONValue]?
    ) {
        if let range = fields.pointee.machineRange {
            switch machines.machine(written: line[range]) {
            case .success(let number): if kind == .register { carried = number }
            case .failure(let problem): problems = (problems ?? []) + [problem.message]
            }
        }
        guard version >= 2 else { return }
        if kind == .transition, let problem = EventLineCheck.stateOrPatchProblem(fields.pointee, version: version) {
            problems = (problems ?? []) + [problem.message]
        }
        switch EventLineCheck.patchOperations(in: fields.pointee, line: line) {
        case .success(let found)?: operations = found
        case .failure(let problem)?: problems = (problems ?? []) + [problem.message]
        case nil: break
        }
    }

    /// Follows the cause chain of a register or transition event, and reports a chain that
    /// passed the threshold.
    @inline(__always)
    private mutating func checkCause(
        _ fields: ScannedFields, _ line: ByteView, kind: EventKind, store: Int, seq: Int
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

    /// (Static: a method on the run, called where it was not inlined, copied the whole run, about
    /// 380 bytes, per line.)
    @inline(__always)
    private static func eventKind(_ fields: ScannedFields, _ line: ByteView) -> EventKind {
        guard let type = fields.pointee.type else { return .unknown }
        return EventLineCheck.eventType(type, in: line)
    }

    /// The number of the store named by `text`, adding it when it is new.
    @inline(__always)
    private mutating func storeNumber(_ text: EventFields.Text, _ line: ByteView) -> Int {
        let number = recentStores.intern(text, of: line, in: &storeNames)
        if number == stores.count { addStore(number) }
        return number
    }

    private mutating func addStore(_ number: Int) {
        let name = storeNames.name(number)
        let spec = specMachineByStore[name] ?? -1
        let header = headerMachineByStore[name] ?? -1
        if header >= 0 { machines.build(header) }
        var state = StoreState(specMachine: spec, headerMachine: header, machine: spec >= 0 ? spec : header)
        if hasRules, let list = rules.withinRulesByStore[name] {
            state.hasRules = true
            rulesOfStore[number] = list
        }
        stores.append(state)
    }

    /// The case number of `text` in `machine`, or nil when it is not one of its cases. (Of the
    /// machine table, not the run: a method of the run, called where it was not inlined, copied
    /// the whole run, about 380 bytes, twice per transition.)
    @inline(__always)
    private static func caseNumber(
        _ text: EventFields.Text, _ line: ByteView, machine: Int, in machines: borrowing MachineTable
    ) -> Int? {
        if text.hasEscapes { return machines.caseNumber(EventFields.string(text, in: line), in: machine) }
        return machines.caseNumber(line[text.range], in: machine)
    }

    /// The event's `elapsed` as a double, when it has one.
    private func elapsedValue(_ fields: EventFields, _ line: ByteView) -> Double? {
        guard let range = fields.elapsedRange else { return nil }
        return DecimalNumber.parse(line[range])
    }

    private mutating func register(
        _ fields: ScannedFields, _ line: ByteView, store: Int, machine: Int, carried: Int,
        seq: Int
    ) {
        // A store that registers again starts over from this event, with this event's machine.
        stores[store].machine = machine
        stores[store].seen = true
        stores[store].sinceLine = lineNumber
        stores[store].sinceSeq = seq
        setCase(fields.pointee, line, of: "register", store: store, machine: machine, seq: seq)
    }

    private mutating func restore(
        _ fields: ScannedFields, _ line: ByteView, store: Int, machine: Int, seq: Int
    ) {
        stores[store].sinceLine = lineNumber
        stores[store].sinceSeq = seq
        if !stores[store].seen {
            // Once, as for a transition; the store is followed from its case on.
            stores[store].seen = true
            let storeName = storeNames.name(store)
            add(
                .unregistered, seq: seq, store: storeName,
                message:
                    "restore of \(storeName), which has no earlier register event; a store writes a register event when it is created (following it from this restore on)"
            )
        }
        setCase(fields.pointee, line, of: "restore", store: store, machine: machine, seq: seq)
    }

    /// After a register or restore the store's current case is its `case`: `unknown-case` when
    /// its machine lacks it, `unchecked` when the store has no machine.
    private mutating func setCase(
        _ fields: EventFields, _ line: ByteView, of what: String, store: Int, machine: Int, seq: Int
    ) {
        stores[store].current = -1
        stores[store].currentName = nil
        guard let caseText = fields.caseName else { return }
        guard machine >= 0 else {
            let storeName = storeNames.name(store)
            let name = EventFields.string(caseText, in: line)
            add(
                .unchecked, seq: seq, store: storeName,
                message:
                    "\(what) of \(storeName) has case \(Self.quoted(name)), but \(storeName) has no state machine (none in the header, in its register events or in --spec), so its transitions are not checked; was its machine declared under another name?"
            )
            return
        }
        if let number = Self.caseNumber(caseText, line, machine: machine, in: machines) {
            stores[store].current = number
        } else {
            let name = EventFields.string(caseText, in: line)
            stores[store].currentName = name
            let storeName = storeNames.name(store)
            add(
                .unknownCase, seq: seq, store: storeName,
                message:
                    "\(what) of \(storeName) has case \(Self.quoted(name)), which is not a case of its machine (\(machines.machines[machine].caseList))"
            )
        }
    }

    private mutating func transition(
        _ fields: ScannedFields, _ line: ByteView, store: Int, machine: Int, seq: Int
    ) {
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
            stores[store].sinceLine = lineNumber
            stores[store].sinceSeq = seq
            return
        }
        var to = -1  // the store's new case, when `from` and `to` are cases of its machine
        if machine >= 0, let fromText = fields.pointee.from, let toText = fields.pointee.to {
            let fromCase = transitionCase(fromText, line, machine: machine)
            let toCase = transitionCase(toText, line, machine: machine)
            if let fromCase, let toCase {
                if stores[store].current != fromCase {
                    reportDiscontinuity(fields.pointee, line, store: store, machine: machine, seq: seq)
                }
                if !machines.allows(from: fromCase, to: toCase, in: machine) {
                    reportIllegal(fields.pointee, line, store: store, machine: machine, seq: seq, from: fromCase)
                }
                to = toCase
            } else {
                reportUnknownCase(
                    fields.pointee, line, store: store, machine: machine, seq: seq, fromKnown: fromCase != nil,
                    toKnown: toCase != nil)
                setCurrent(store, machine: machine, to: toText, line)
            }
        }
        // What every transition writes, in one access to the stores (each write through the
        // array's subscript checked that its buffer was not shared).
        let lineNumber = lineNumber
        stores.withUnsafeMutableBufferPointer { stores in
            if to >= 0 {
                stores[store].current = to
                // (Tested first: storing nil released the old name, on every transition.)
                if stores[store].currentName != nil { stores[store].currentName = nil }
            }
            stores[store].sinceLine = lineNumber
            stores[store].sinceSeq = seq
        }
    }

    /// The case number of a transition's `from` or `to` in `machine`, or nil when it is not one
    /// of its cases: `caseNumber`, through `recentCases`.
    @inline(__always)
    private mutating func transitionCase(_ text: EventFields.Text, _ line: ByteView, machine: Int)
        -> Int?
    {
        guard !text.hasEscapes, let key = RecentNames.Key(line[text.range]) else {
            return Self.caseNumber(text, line, machine: machine, in: machines)
        }
        if machine != recentCasesMachine {
            recentCases = RecentNames()
            recentCasesMachine = machine
        }
        if let number = recentCases.id(for: key) { return number }
        let number = Self.caseNumber(text, line, machine: machine, in: machines)
        if let number { recentCases.remember(key, id: number) }
        return number
    }

    /// After any transition, the store's current case is its `to`, whatever was wrong.
    private mutating func setCurrent(
        _ store: Int, machine: Int, to text: EventFields.Text, _ line: ByteView
    ) {
        if let number = Self.caseNumber(text, line, machine: machine, in: machines) {
            stores[store].current = number
            stores[store].currentName = nil
        } else {
            stores[store].current = -1
            stores[store].currentName = EventFields.string(text, in: line)
        }
    }

    /// Keeps only the carried machines that stores use (see `MachineTable.compact`).
    private mutating func compactMachines() {
        let used = Set(stores.map(\.machine).filter { $0 >= 0 })
        let renumbered = machines.compact(keeping: used)
        recentCasesMachine = -1
        for index in stores.indices where stores[index].machine >= machines.fixedCount {
            stores[index].machine = renumbered[stores[index].machine] ?? -1
        }
    }

    // MARK: Rules over time

    /// Applies the event to the `within` rules of its store, and reports what is overdue at it
    /// (`clocks`: what its `elapsed` ran out, found before).
    private mutating func followRules(
        _ fields: EventFields, _ line: ByteView, kind: EventKind, store: Int, machine: Int, seq: Int,
        _ clocks: [RuleTracker.Overdue]?
    ) {
        var overdue = clocks ?? []
        if store >= 0 && stores[store].hasRules {
            applyRules(fields, line, kind: kind, store: store, machine: machine, seq: seq, into: &overdue)
        }
        if !overdue.isEmpty { reportOverdue(overdue, seq: seq) }
    }

    /// Tells the `within` rules of the event's store what the event did: entered, stayed in or
    /// left each rule's case; adds the entries it finds overdue.
    private mutating func applyRules(
        _ fields: EventFields, _ line: ByteView, kind: EventKind, store: Int, machine: Int, seq: Int,
        into overdue: inout [RuleTracker.Overdue]
    ) {
        guard let list = rulesOfStore[store] else { return }
        let elapsed = list.contains(where: rules.hasSeconds) ? elapsedValue(fields, line) : nil
        for index in list {
            guard case .within(let caseName, _, _) = rules.rules[index].condition else { continue }
            // Rules apply to stores with a machine, and only to cases it has.
            guard machine >= 0, let ruleCase = machines.caseNumber(caseName, in: machine) else {
                rules.leave(index)
                continue
            }
            func isRuleCase(_ text: EventFields.Text?) -> Bool {
                guard let text else { return false }
                return Self.caseNumber(text, line, machine: machine, in: machines) == ruleCase
            }
            switch kind {
            case .transition:
                if let found = rules.transition(
                    rule: index, fromIsCase: isRuleCase(fields.from), toIsCase: isRuleCase(fields.to),
                    elapsed: elapsed, line: lineNumber, seq: seq)
                {
                    overdue.append(found)
                }
            case .register, .restore:
                rules.setCase(
                    rule: index, isCase: isRuleCase(fields.caseName), elapsed: elapsed, line: lineNumber, seq: seq)
            case .unknown:
                break
            }
        }
    }

    /// `unresolved`: each store that ends the trace in a case its `notAtEnd` rule lists, on the
    /// line of its last register, restore or transition, among the problems of that line.
    private mutating func checkNotAtEnd() {
        for rule in rules.rules {
            guard case .notAtEnd(let cases) = rule.condition, let store = storeNames.find(rule.store),
                store < stores.count
            else { continue }
            let state = stores[store]
            guard state.sinceLine > 0, state.machine >= 0, state.current >= 0 else { continue }
            let current = machines.machines[state.machine].caseName(state.current)
            guard cases.contains(current) else { continue }
            insert(
                Problem(
                    kind: .unresolved, line: state.sinceLine, seq: state.sinceSeq, store: rule.store,
                    message:
                        "\(rule.store) ends the trace in \(current) (since seq \(state.sinceSeq)), a case it must not end in (rule \(rule))"
                ))
        }
    }

    private mutating func reportOverdue(_ found: [RuleTracker.Overdue], seq: Int) {
        for overdue in found.sorted(by: { $0.rule < $1.rule }) {
            let rule = rules.rules[overdue.rule]
            guard case .within(let caseName, let events, let seconds) = rule.condition else { continue }
            let since = "since seq \(overdue.enteredSeq) (line \(overdue.enteredLine))"
            let message: String
            if overdue.byEvents {
                let count = events ?? 0
                let transitions = count == 1 ? "1 transition" : "\(count) transitions"
                message =
                    "\(rule.store) is still in \(caseName) after \(transitions) \(since); it must leave it within \(transitions) (rule \(rule))"
            } else {
                message =
                    "\(rule.store) is still in \(caseName) \(TraceRule.text(of: overdue.after)) s after entering it \(since); it must leave it within \(TraceRule.text(of: seconds ?? 0)) s (rule \(rule))"
            }
            add(.overdue, seq: seq, store: rule.store, message: message)
        }
    }

    // MARK: Version 2 states

    /// Keeps the store's state: a whole `state` replaces it, a transition's `patch` is applied
    /// to it (`bad-patch` when it does not apply).
    private mutating func followState(
        _ fields: EventFields, _ line: ByteView, store: Int, operations: [JSONValue]?
    ) {
        if let range = fields.stateRange {
            states.setState(of: store, to: line[range])
            return
        }
        guard let operations else { return }
        guard case .failed(let error) = states.apply(operations, to: store) else { return }
        let storeName = storeNames.name(store)
        let action = fields.action.map { EventFields.string($0, in: line) } ?? "?"
        add(
            .badPatch, seq: fields.seq, store: storeName,
            message:
                "the patch of \(action) on \(storeName) does not apply to its state before it: \(error); \(storeName)'s state is unknown until its next event with a whole \"state\""
        )
    }

    // MARK: Problems and their messages

    private mutating func add(
        _ kind: ProblemKind, line: Int? = nil, seq: Int? = nil, store: String? = nil,
        origin: (fields: EventFields, line: ByteView)? = nil, message: String
    ) {
        count(kind)
        if kind == .malformed || kind == .truncated { skippedLine = line ?? lineNumber }
        guard report.problems.count < maximumProblems else {
            report.omitted += 1
            if recordsOmittedPlaces { report.omittedPlaces.append(ProblemPlace(line: line ?? lineNumber, kind: kind)) }
            return
        }
        var problem = Problem(kind: kind, line: line ?? lineNumber, seq: seq, store: store, message: message)
        if let origin {
            problem.source = origin.fields.source.map { EventFields.string($0, in: origin.line) }
            // Parsed again, only for a listed problem: a trace without problems pays nothing.
            if origin.fields.present.contains(.stack) { problem.stack = TraceEvent.stack(in: origin.line) ?? [] }
        }
        report.problems.append(problem)
    }

    private mutating func count(_ kind: ProblemKind) {
        switch kind.severity {
        case .fatal, .error: report.errors += 1
        case .warning: report.warnings += 1
        }
    }

    /// Adds a problem found after its line (`unresolved`): after the problems of earlier lines
    /// and those of its line that come before it in the table's order.
    private mutating func insert(_ problem: Problem) {
        count(problem.kind)
        let rank = Self.rank(problem.kind)
        var low = 0
        var high = report.problems.count
        while low < high {
            let middle = (low + high) / 2
            let other = report.problems[middle]
            if other.line < problem.line || (other.line == problem.line && Self.rank(other.kind) <= rank) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        guard low < maximumProblems else {
            report.omitted += 1
            if recordsOmittedPlaces {
                report.omittedPlaces.append(ProblemPlace(line: problem.line, kind: problem.kind))
            }
            return
        }
        report.problems.insert(problem, at: low)
        if report.problems.count > maximumProblems {
            let removed = report.problems.removeLast()
            report.omitted += 1
            if recordsOmittedPlaces {
                report.omittedPlaces.append(ProblemPlace(line: removed.line, kind: removed.kind))
            }
        }
    }

    private static func rank(_ kind: ProblemKind) -> Int {
        ProblemKind.allCases.firstIndex(of: kind) ?? 0
    }

    private mutating func reportSeq(_ seq: Int, _ fields: EventFields, _ line: ByteView, store: Int) {
        // `previousSeq + 1` in words: 2^63 after `Int.max`.
        let expectedText = previousSeq == Int.max ? "9223372036854775808" : String(previousSeq + 1)
        let message: String
        if !hasPreviousEvent {
            message = "the first event has seq \(seq), expected 1"
        } else if seq == previousSeq {
            message =
                "seq \(seq) repeats the previous event's seq (expected \(expectedText)); two events were written with one number"
        } else if seq > previousSeq {
            // A gap: seq − previous − 1 events, counted without overflow.
            let gap = UInt64(bitPattern: Int64(seq &- previousSeq)) &- 1
            message =
                "seq \(seq) follows seq \(previousSeq) (expected \(expectedText)): \(gap == 1 ? "1 event is" : "\(gap) events are") missing"
        } else {
            message = "seq \(seq) comes after seq \(previousSeq) (expected \(expectedText)): seq went back"
        }
        add(.seq, seq: seq, store: storeName(fields, line, store: store), message: message)
    }

    /// The event's store for a problem: any string `store`, whatever the event's type.
    private func storeName(_ fields: EventFields, _ line: ByteView, store: Int) -> String? {
        if store >= 0 { return storeNames.name(store) }
        return fields.store.map { EventFields.string($0, in: line) }
    }

    private mutating func reportMalformed(
        _ fields: EventFields, _ line: ByteView, kind: EventKind, store: Int, machine: Int,
        wrong: KeySet, missing: KeySet, shapeProblems: [String]
    ) {
        let storeName = storeName(fields, line, store: store)
        let what =
            switch kind {
            case .register: "register event"
            case .transition: "transition event"
            case .restore: "restore event"
            case .unknown: "event"
            }
        var parts: [String] = []
        if !wrong.isEmpty {
            // Rare: parse the whole line (valid JSON) to show the wrong values.
            let object = (try? JSONParser.parse(line))?.objectValue
            for key in wrong.keys {
                let shown = object?[key.name].map(TraceHeader.describe) ?? "of another type"
                var expected = key.expectedType
                if key == .seq || key == .cause || key == .step, case .number(let text)? = object?[key.name],
                    !text.contains(where: { ".eE".contains($0) })
                {
                    // An integer, but not one that fits in 64 bits.
                    expected = "an integer between -2^63 and 2^63-1"
                }
                parts.append("\"\(key.name)\" is \(shown), expected \(expected)")
            }
        }
        let machineKeys: [Key] = [.caseName, .from, .to]
        let plainMissing = missing.keys.filter { !machineKeys.contains($0) }
        let machineMissing = missing.keys.filter { machineKeys.contains($0) }
        if !plainMissing.isEmpty {
            let list = plainMissing.map { "\"\($0.name)\"" }.joined(separator: ", ")
            let rule =
                switch kind {
                case .register: "a register event has \"type\", \"seq\", \"store\" and \"state\""
                case .restore: "a restore event has \"type\", \"seq\", \"store\" and \"state\""
                case .transition:
                    version >= 2
                        ? "a transition event has \"type\", \"seq\", \"store\", \"action\", \"changed\" and \"state\" or \"patch\""
                        : "a transition event has \"type\", \"seq\", \"store\", \"action\", \"changed\" and \"state\""
                case .unknown: "every event has \"type\" (a string) and \"seq\" (an integer)"
                }
            parts.append("\(list) \(plainMissing.count == 1 ? "is" : "are") missing (\(rule))")
        }
        if !machineMissing.isEmpty, machine >= 0, let storeName {
            let list = machineMissing.map { "\"\($0.name)\"" }.joined(separator: " and ")
            parts.append(
                "\(list) \(machineMissing.count == 1 ? "is" : "are") missing, required because \(storeName) has a state machine (\(machines.machines[machine].caseList))"
            )
        }
        parts += shapeProblems
        let subject = storeName.map { "\(what) of \($0)" } ?? what
        add(.malformed, seq: fields.seq, store: storeName, message: "\(subject): " + parts.joined(separator: "; "))
    }

    private mutating func reportUnknownCase(
        _ fields: EventFields, _ line: ByteView, store: Int, machine: Int, seq: Int, fromKnown: Bool,
        toKnown: Bool
    ) {
        let storeName = storeNames.name(store)
        var bad: [String] = []
        if !fromKnown, let text = fields.from { bad.append("from \(Self.quoted(EventFields.string(text, in: line)))") }
        if !toKnown, let text = fields.to { bad.append("to \(Self.quoted(EventFields.string(text, in: line)))") }
        let action = fields.action.map { EventFields.string($0, in: line) } ?? "?"
        let verb = bad.count > 1 ? "are not cases" : "is not a case"
        add(
            .unknownCase, seq: seq, store: storeName, origin: (fields, line),
            message:
                "transition \(action) on \(storeName): \(bad.joined(separator: " and ")) \(verb) of its machine (\(machines.machines[machine].caseList))"
        )
    }

    private mutating func reportDiscontinuity(
        _ fields: EventFields, _ line: ByteView, store: Int, machine: Int, seq: Int
    ) {
        let storeName = storeNames.name(store)
        let state = stores[store]
        let current =
            state.current >= 0 ? machines.machines[machine].caseName(state.current) : (state.currentName ?? "?")
        let from = fields.from.map { EventFields.string($0, in: line) } ?? "?"
        let to = fields.to.map { EventFields.string($0, in: line) } ?? "?"
        let action = fields.action.map { EventFields.string($0, in: line) } ?? "?"
        add(
            .discontinuity, seq: seq, store: storeName, origin: (fields, line),
            message:
                "discontinuous transition \(from) → \(to) by \(action) in \(storeName) (\(Self.place(fields, line, seq: seq))): \(storeName) is in \(current) since seq \(state.sinceSeq) (line \(state.sinceLine)), so the transition should start from \(current); an event is missing, or the state changed outside an action"
        )
    }

    /// `seq 16, from CatalogStore.swift:31`, or `seq 16` without a source.
    private static func place(_ fields: EventFields, _ line: ByteView, seq: Int) -> String {
        guard let source = fields.source else { return "seq \(seq)" }
        return "seq \(seq), from \(EventFields.string(source, in: line))"
    }

    private mutating func reportIllegal(
        _ fields: EventFields, _ line: ByteView, store: Int, machine: Int, seq: Int, from: Int
    ) {
        let storeName = storeNames.name(store)
        let fromName = fields.from.map { EventFields.string($0, in: line) } ?? "?"
        let toName = fields.to.map { EventFields.string($0, in: line) } ?? "?"
        let action = fields.action.map { EventFields.string($0, in: line) } ?? "?"
        let place = Self.place(fields, line, seq: seq)
        let targets = machines.machines[machine].targets(of: from)
        let allowed =
            targets.isEmpty
            ? "\(fromName) is a final case" : "from \(fromName) it may go to \(targets.joined(separator: ", "))"
        add(
            .illegal, seq: seq, store: storeName, origin: (fields, line),
            message:
                "illegal transition \(fromName) → \(toName) by \(action) in \(storeName) (\(place)); \(allowed); send \(action) only when \(storeName) may go to \(toName) (its call stack, where recorded, shows the code that sent it), or, if \(fromName) → \(toName) is meant, add \(toName) to the transitions of \(fromName) in \(storeName)'s machine"
        )
    }

    private static func quoted(_ text: String) -> String {
        TraceHeader.quoted(text)
    }
}

/// The validation rules take the lines of a file read on several threads (`ParallelScan`).
extension ValidationRun: ScannedLineConsumer {}
