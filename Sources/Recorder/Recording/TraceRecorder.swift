@_spi(RewindInternals) internal import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a trace (shared/TRACE_FORMAT.md) for any number of stores.
///
/// ```swift
/// let recorder = try TraceRecorder(
///     path: "traces/run.jsonl",
///     app: "Shop",
///     redactedKeys: ["password", .keyContaining("token")])
/// let catalog = CatalogStore(recorder: recorder)
/// ```
///
/// The header goes first. Then every store created with the recorder writes a `register` event
/// (with its state machine, when its state is one: see ``MachineList`` for why no list of
/// machines is needed), and every action a `transition` event. `seq` counts
/// events with no gap or repeat, whatever threads the stores run on: one lock (`Lock`, a pthread
/// mutex) guards the counter, so the lines are numbered in the order the states changed and go
/// to the sink in that order.
///
/// **Writing in groups.** With a `FileSink` or a `MemorySink` (not a `RollingFileSink`, nor a
/// sink of the app's) and whole states (not patches), each store encodes its transitions with
/// its own encoder, under its own lock; the recorder's lock only numbers a line and queues it.
/// The thread that finds no write under way becomes the writer: it writes every queued line in
/// one `write(2)`, in `seq` order, while threads whose lines came in meanwhile wait for it
/// (polling, then yielding their core; sleeping only while a write takes long), and the first
/// of them whose line it did not write writes next. A thread alone pays one write per action
/// and never waits. Either way `send` returns only once its own line is written. A rolling sink
/// or patches record each event as one step under the lock instead (a new file or a patch
/// depends on the events before it).
///
/// A state's parts that an action did not change (an array with the same storage, a plain value
/// with the same bytes) are copied from the JSON of an earlier event instead of being encoded
/// again; see "What an action costs" in <doc:RecordingAStore>.
///
/// Recording never stops the app: a sink that fails (disk full, file not writable) is reported
/// once through `onError`, and the recorder stops writing so the trace keeps a valid prefix.
public final class TraceRecorder: Sendable {
    private let sink: any TraceSink
    /// `sink` when it rolls over to new files; found once here, not cast on every event.
    private let rollingSink: RollingFileSink?
    /// Whether the file a `FileSink` writes is still the one at its path (`traceReplaced`).
    private let fileWatch: TraceFileWatch?
    private let startNanoseconds: UInt64
    /// The machines pinned in the header, one per store name, with their rules (see `MachineList`).
    private let pinnedMachines: [PinnedMachine]
    private let onError: @Sendable (RecordingFailure) -> Void
    /// Whether every transition records its call stack, not only an illegal one.
    let recordsEveryStack: Bool
    // Guarded by the lock: seq, the encoder and its buffer, the queued lines, and what has
    // been reported.
    private let state: Lock<RecorderState>
    /// Whether transitions are encoded by their stores and written in groups (see above).
    private let groupsWrites: Bool
    /// Writing in groups: the last `seq` written, stored by the thread that wrote it (without the
    /// lock, once its group is written), read by the threads waiting for their lines (without
    /// the lock) and by the next writer (under it).
    private let writtenSeq = AtomicCell<Int>(0)
    /// Whether a thread is writing a group: set under the lock by the thread that takes the
    /// queued lines, cleared without it once they are written and their buffer is empty again.
    private let writing = AtomicCell<Bool>(false)
    /// How many times a thread polls a write under way before it yields its core.
    private static let spinsBeforeYielding = 64
    /// How many times it yields before it sleeps between polls instead (`waitSleep`): a write
    /// that takes that long (a slow disk, a full pipe) is not waited for with a busy core.
    private static let yieldsBeforeSleeping = 256
    /// The sleep between polls of a long write: short beside such a write.
    private static let waitSleep = 50_000
    /// The keys redacted, for the encoders the stores keep (`makeTransitionEncoder`).
    private let redaction: Redaction

    /// Starts a trace on `sink` and writes its header.
    /// - Parameters:
    ///   - sink: where lines go.
    ///   - app: the app's name, written to the header.
    ///   - machines: optional: machines to write in the header too, by store name (see
    ///     ``MachineList``). Every machine store writes its own machine in its register event
    ///     whether or not it is listed.
    ///   - redactedKeys: the keys whose values are written as `"<redacted>"`, at any depth of any
    ///     state or argument, compared without regard to case (see ``Redaction``: a string
    ///     names a key, `.keyContaining("token")` a part of one). ``Secret`` values are always
    ///     redacted. Secrets never reach the sink.
    ///   - stackForEveryAction: record the call stack (`stack`) of every action, not only of an
    ///     illegal transition. For a debugging session: a stack costs a few microseconds (more
    ///     than the rest of an action) once its call path was met, and the first time reads the
    ///     debug information of each frame (milliseconds a frame in a large debug binary).
    ///   - patches: `.automatic()` records what each action changed (a version 2 trace) instead of
    ///     the whole state (version 1, the default); see ``Patches``.
    ///   - onError: called once per kind of problem; the default prints to standard error.
    /// - Throws: the sink's error when the header cannot be written.
    @inline(never)  // once, not in each convenience initializer (the minimal app's size)
    public init(
        sink: any TraceSink,
        app: String? = nil,
        machines: MachineList = [:],
        redactedKeys: Redaction = [],
        stackForEveryAction: Bool = false,
        patches: Patches = .never,
        onError: (@Sendable (RecordingFailure) -> Void)? = nil
    ) throws {
        self.sink = sink
        self.recordsEveryStack = stackForEveryAction
        self.rollingSink = sink as? RollingFileSink
        self.fileWatch = (sink as? FileSink).flatMap(TraceFileWatch.init)
        let onError = onError ?? Self.printToStandardError
        self.onError = onError
        self.startNanoseconds = monotonicNanoseconds()
        let (pinned, repeated) = machines.firstOfEachName()
        self.pinnedMachines = pinned
        let encoder = StreamingEncoder(redaction: redactedKeys, remembers: true)
        let leftOut = Self.writeHeader(into: encoder.output, app: app, machines: pinned, version: patches.version)
        try sink.write(encoder.output.bytes)
        var initial = RecorderState(line: TransitionEncoder(encoder))
        initial.patches = patches.makeRecording?()
        self.redaction = redactedKeys
        self.groupsWrites = sink is any LineGroupSink && initial.patches == nil
        if leftOut {
            initial.reported.insert(.invalidDeadline)
            onError(
                RecordingFailure(
                    kind: .invalidDeadline,
                    message:
                        "a machine in TraceRecorder(machines:) declares a deadline with transitions below 1 or seconds that are not finite; the header leaves that limit out. Fix its `deadlines`"
                ))
        }
        if !repeated.isEmpty {
            initial.reported.insert(.duplicateMachine)
            onError(
                RecordingFailure(
                    kind: .duplicateMachine,
                    message:
                        "TraceRecorder(machines:) lists \(repeated) more than once; the header keeps the first machine of each name. List each store once (a store's own machine is in its register event anyway)"
                ))
        }
        if rollingSink != nil { initial.rollover = Rollover(header: Array(encoder.output.bytes)) }
        self.state = Lock(initial)
    }

    /// Starts a trace in a new file at `path`, created with mode 0600, and writes its header.
    /// - Parameter replacing: overwrite an existing file instead of failing.
    public convenience init(
        path: String,
        replacing: Bool = false,
        app: String? = nil,
        machines: MachineList = [:],
        redactedKeys: Redaction = [],
        stackForEveryAction: Bool = false,
        patches: Patches = .never,
        onError: (@Sendable (RecordingFailure) -> Void)? = nil
    ) throws {
        try self.init(
            sink: FileSink(path: path, replacing: replacing), app: app, machines: machines,
            redactedKeys: redactedKeys, stackForEveryAction: stackForEveryAction, patches: patches, onError: onError)
    }

    /// Starts a trace at `path` that continues in a new file whenever the next event would take
    /// the current one past `maximumBytes`, keeping the newest `maximumFiles` files (see
    /// `RollingFileSink`).
    public convenience init(
        path: String,
        maximumBytes: Int,
        maximumFiles: Int? = nil,
        replacing: Bool = false,
        app: String? = nil,
        machines: MachineList = [:],
        redactedKeys: Redaction = [],
        stackForEveryAction: Bool = false,
        patches: Patches = .never,
        onError: (@Sendable (RecordingFailure) -> Void)? = nil
    ) throws {
        try self.init(
            sink: RollingFileSink(
                path: path, maximumBytes: maximumBytes, maximumFiles: maximumFiles, replacing: replacing),
            app: app, machines: machines, redactedKeys: redactedKeys, stackForEveryAction: stackForEveryAction,
            patches: patches, onError: onError)
    }

    // MARK: Events (called by stores)

    func recordRegister<S: Encodable>(store: String, caseName: String?, state value: S) {
        record { state in
            if state.liveStores[store, default: 0] > 0 {
                report(
                    .duplicateStoreName,
                    "two live stores are named \(store); give one a different name (Store(name:)) so the trace can tell them apart",
                    in: &state)
            }
            state.liveStores[store, default: 0] += 1
            let machine = state.machines.json(of: S.self)
            let pinned = pinnedMachines.first(where: { $0.name == store })
            if pinned == nil && state.machines.declaresRules(S.self) {
                report(
                    .rulesNotPinned,
                    "store \(store) has a machine (\(S.self)) that declares rules over time, but TraceRecorder(machines:) does not list \"\(store)\", so the trace has no rules for it; pin it there or give its rules in an inspector --spec file",
                    in: &state)
            }
            if let machine, let pinned, pinned.machine.json != machine {
                report(
                    .machineMismatch,
                    "store \(store) registers with the machine of \(S.self), which is not the machine TraceRecorder(machines:) lists under \"\(store)\"; its register event carries its own machine, which wins over the header's. Fix or drop the pin",
                    in: &state)
            }
            let out = state.encoder.output
            out.count = 0
            out.append("{\"type\":\"register\",\"seq\":")
            let seq = beginEvent(&state)
            appendRegisterFields(store: store, caseName: caseName, machine: machine, into: out)
            let range = appendEncoded(value, what: "the state of \(store)", in: &state)
            out.append("}\n")
            state.rollover?.remember(
                store: store, caseName: caseName, machine: machine, state: out.bytes, range: range)
            state.patches?.wholeState(self, value, store: store, range: range, in: &state)
            return emit(seq: seq, mustReachDisk: false, in: &state)
        }
    }

    /// The encoder a store keeps for its transitions, when the recorder groups its writes.
    func makeTransitionEncoder() -> TransitionEncoder? {
        groupsWrites ? TransitionEncoder(StreamingEncoder(redaction: redaction, remembers: true)) : nil
    }

    /// Records a transition; returns the event's global number, which the store hands to its
    /// subscribers as the `cause` of what they send.
    func recordTransition<S: Encodable>(
        store: String, action: String, from: String?, to: String?, changed: Bool, state value: S,
        file: StaticString, line: UInt, cause: Int?, args: ActionArguments?, stack: [String]? = nil,
        mustReachDisk: Bool, encoder own: TransitionEncoder? = nil
    ) -> Int {
        if let own {
            // Encoded under the store's lock only; numbered and queued under the recorder's.
            let out = own.encoder.output
            out.count = 0
            defer { out.shrinkIfLarge() }
            appendTransitionStart(store: store, action: action, from: from, to: to, changed: changed, to: out)
            out.append(",\"state\":")
            appendEncoded(value, what: "the state of \(store)", into: own)
            appendTransitionEnd(
                file: file, line: line, cause: cause.flatMap { $0 > 0 ? $0 : nil }, args: args, stack: stack,
                store: store, action: action, into: own)
            out.append("}\n")
            return writeQueued(mustReachDisk: mustReachDisk) { state in
                reportFailure(of: own, in: &state)
                let seq = state.lastSeq + 1
                guard !state.sinkFailed else {
                    state.lastSeq = seq
                    return seq
                }
                let queued = state.queued
                queued.append("{\"type\":\"transition\",\"seq\":")
                _ = beginEvent(&state, into: queued)
                queued.append(out.bytes)
                return seq
            }
        }
        return state.withLock { state in
            let shared = state.line
            let out = shared.encoder.output
            out.count = 0
            out.append("{\"type\":\"transition\",\"seq\":")
            let seq = beginEvent(&state)
            appendTransitionStart(store: store, action: action, from: from, to: to, changed: changed, to: out)
            if let patches = state.patches {
                out.append(UInt8(ascii: ","))
                patches.transition(self, value, store: store, caseName: to, in: &state)
            } else {
                out.append(",\"state\":")
                let range = appendEncoded(value, what: "the state of \(store)", in: &state)
                state.rollover?.remember(store: store, caseName: to, state: out.bytes, range: range)
            }
            // `cause` is the global number of an event (see `RecorderState.fileOffset`); one that
            // happened in an earlier file of a rolling trace is left out.
            state.causeRange = appendTransitionEnd(
                file: file, line: line, cause: cause.flatMap { $0 > state.fileOffset ? $0 - state.fileOffset : nil },
                args: args, stack: stack, store: store, action: action, into: shared)
            reportFailure(of: shared, in: &state)
            out.append("}\n")
            // After `emit`: an event that opens a new file of a rolling trace is numbered there.
            return emit(seq: seq, mustReachDisk: mustReachDisk, in: &state)
        }
    }

    /// Appends a transition's members from `store` to `changed`.
    private func appendTransitionStart(
        store: String, action: String, from: String?, to: String?, changed: Bool, to out: JSONOutput
    ) {
        out.append(",\"store\":")
        out.appendString(store)
        out.append(",\"action\":")
        out.appendString(action)
        if let from, let to {
            out.append(",\"from\":")
            out.appendString(from)
            out.append(",\"to\":")
            out.appendString(to)
        }
        out.append(changed ? ",\"changed\":true" : ",\"changed\":false")
    }

    /// Appends a transition's members after its state: `source`, `cause`, `args`, `stack`.
    /// Returns where `cause` is, when there is one.
    @discardableResult
    private func appendTransitionEnd(
        file: StaticString, line: UInt, cause: Int?, args: ActionArguments?, stack: [String]?, store: String,
        action: String, into encoder: TransitionEncoder
    ) -> Range<Int>? {
        let out = encoder.encoder.output
        out.append(",\"source\":")
        appendSource(file, line, into: encoder)
        var causeRange: Range<Int>?
        if let cause {
            let start = out.count
            out.append(",\"cause\":")
            out.append(Int64(cause))
            causeRange = start..<out.count
        }
        if let args {
            out.append(",\"args\":")
            appendArguments(args, store: store, action: action, into: encoder)
        }
        if let stack { appendStack(stack, to: out) }
        return causeRange
    }

    /// Records that a store was set to a recorded state (time travel): a `restore` event, which
    /// is not an action, so `validate` does not judge it. `step` and `trace` say where the state
    /// was recorded.
    func recordRestore<S: Encodable>(store: String, caseName: String?, state value: S, step: Int?, trace: String?) {
        record { state in
            let out = state.encoder.output
            out.count = 0
            out.append("{\"type\":\"restore\",\"seq\":")
            let seq = beginEvent(&state)
            appendRegisterFields(store: store, caseName: caseName, machine: nil, into: out)
            let range = appendEncoded(value, what: "the state of \(store)", in: &state)
            state.rollover?.remember(store: store, caseName: caseName, state: out.bytes, range: range)
            // The restored state is the store's state now: its next patch starts from it.
            state.patches?.wholeState(self, value, store: store, range: range, in: &state)
            if let step {
                out.append(",\"step\":")
                out.append(Int64(step))
            }
            if let trace {
                out.append(",\"trace\":")
                out.appendRareString(trace)
            }
            out.append("}\n")
            return emit(seq: seq, mustReachDisk: false, in: &state)
        }
    }

    func storeEnded(_ store: String) {
        state.withLock { state in
            let count = state.liveStores[store, default: 0]
            if count <= 1 {
                state.liveStores[store] = nil
                state.rollover?.forget(store: store)
            } else {
                state.liveStores[store] = count - 1
            }
            state.patches?.ended(store, others: count > 1)
        }
    }

    /// The file this recorder writes, by the device and inode of its open descriptor (not of
    /// whatever is at its path now, which another program may have replaced): for time travel's
    /// control channel, which serves only this file. Nil when the sink is not a `FileSink` (a
    /// rolling trace changes files; memory and custom sinks have none) or the system cannot say.
    package var traceFileIdentity: (device: UInt64, inode: UInt64)? {
        guard let file = sink as? FileSink, let status = file.status else { return nil }
        return (status.device, status.inode)
    }

    /// How many events have been numbered (written or queued), across files: for tests.
    package var numberedEvents: Int {
        state.withLock { $0.fileOffset + $0.lastSeq }
    }

    // MARK: Writing

    /// Writes a register or restore event's fields after `seq` and `elapsed`, up to `"state":`:
    /// `store`, `case` and `machine` where the store has them (shared/TRACE_FORMAT.md).
    private func appendRegisterFields(store: String, caseName: String?, machine: [UInt8]?, into out: JSONOutput) {
        out.append(",\"store\":")
        out.appendRareString(store)
        if let caseName {
            out.append(",\"case\":")
            out.appendRareString(caseName)
        }
        if let machine {
            out.append(",\"machine\":")
            machine.withUnsafeBytes { out.append($0) }
        }
        out.append(",\"state\":")
    }

    /// Takes the next `seq`, writes it and the elapsed time (to the recorder's encoder when
    /// `out` is nil).
    private func beginEvent(_ state: inout RecorderState, into out: JSONOutput? = nil) -> Int {
        state.lastSeq += 1
        let out = out ?? state.encoder.output
        let seqStart = out.count
        out.append(Int64(state.lastSeq))
        state.seqRange = seqStart..<out.count
        state.causeRange = nil
        out.append(",\"elapsed\":")
        out.appendSeconds(nanoseconds: monotonicNanoseconds() &- startNanoseconds)
        return state.lastSeq
    }

    /// Appends the JSON of `value`; returns the byte range it took in the line. `what` names the
    /// value in an error report, and is only built for one (building it costs an allocation).
    @discardableResult
    package func appendEncoded<S: Encodable>(_ value: S, what: @autoclosure () -> String, in state: inout RecorderState)
        -> Range<Int>
    {
        let range = appendEncoded(value, what: what(), into: state.line)
        reportFailure(of: state.line, in: &state)
        return range
    }

    /// Appends the JSON of `value`, or `null` with the failure kept in `encoder` for the
    /// recorder to report.
    @discardableResult
    private func appendEncoded<S: Encodable>(
        _ value: S, what: @autoclosure () -> String, into encoder: TransitionEncoder
    ) -> Range<Int> {
        let streaming = encoder.encoder
        let mark = streaming.output.count
        do {
            try streaming.appendValue(value)
        } catch {
            streaming.reset(to: mark)
            streaming.output.append("null")
            encoder.failure = "\(what()) could not be encoded (\(error)); the event records null in its place"
        }
        return mark..<streaming.output.count
    }

    /// Reports what `encoder` could not encode, if anything.
    private func reportFailure(of encoder: TransitionEncoder, in state: inout RecorderState) {
        guard let failure = encoder.failure else { return }
        encoder.failure = nil
        report(.encodingFailed, failure, in: &state)
    }

    private func appendArguments(
        _ args: ActionArguments, store: String, action: String, into encoder: TransitionEncoder
    ) {
        let out = encoder.encoder.output
        out.append(UInt8(ascii: "{"))
        for (index, member) in args.members.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.appendString(member.name)
            out.append(UInt8(ascii: ":"))
            if encoder.encoder.isRedacted(member.name) {
                out.append("\"<redacted>\"")
            } else {
                appendEncoded(member.value, what: "argument \(member.name) of \(store).\(action)", into: encoder)
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends the `stack` member: an array of strings, innermost frame first.
    private func appendStack(_ stack: [String], to out: JSONOutput) {
        out.append(",\"stack\":[")
        for (index, frame) in stack.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.appendString(frame)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// Appends `"Module/File.swift:LINE"`, from the cache when this call site was written before.
    @inline(__always)
    private func appendSource(_ file: StaticString, _ line: UInt, into encoder: TransitionEncoder) {
        let out = encoder.encoder.output
        if !encoder.sources.append(file, line, to: out) {
            let mark = out.count
            Self.writeSource(file, line, into: out)
            encoder.sources.remember(file, line, out.bytes(from: mark))
        }
    }

    /// Writes `"Module/File.swift:LINE"` from the call site itself: `#fileID` as it is, which a
    /// tool finds in a repository (`inspector validate --format github --source-root`).
    private static func writeSource(_ file: StaticString, _ line: UInt, into out: JSONOutput) {
        let name = UnsafeRawBufferPointer(start: file.utf8Start, count: file.utf8CodeUnitCount)
        out.append(UInt8(ascii: "\""))
        if name.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            // Not a plain file name: escape it properly (and drop the quote written above).
            out.count -= 1
            out.appendString(utf8: name)
            out.count -= 1
        } else {
            out.append(name)
        }
        out.append(UInt8(ascii: ":"))
        out.append(UInt64(line))
        out.append(UInt8(ascii: "\""))
    }

    /// Writes the event in the recorder's encoder, or queues it when the recorder groups its
    /// writes (`writeQueued` writes it then); returns its global number.
    private func emit(seq: Int, mustReachDisk: Bool, in state: inout RecorderState) -> Int {
        defer { state.encoder.output.shrinkIfLarge() }
        guard !state.sinkFailed else { return state.fileOffset + state.lastSeq }
        if groupsWrites {
            state.queued.append(state.encoder.output.bytes)
            return seq
        }
        do {
            if let rolling = rollingSink {
                try writeRolling(to: rolling, in: &state)
            } else {
                try sink.write(state.encoder.output.bytes)
                if let message = fileWatch?.replacedMessage() { report(.traceReplaced, message, in: &state) }
            }
            state.patches?.committed()
            if mustReachDisk { try sink.synchronize() }
        } catch {
            stopWriting(at: seq, because: error, in: &state)
        }
        return state.fileOffset + state.lastSeq
    }

    /// Stops writing after the sink failed on the event numbered `seq`, and reports it once: the
    /// trace keeps the events before it.
    private func stopWriting(at seq: Int, because error: any Error, in state: inout RecorderState) {
        state.sinkFailed = true
        report(
            .sinkFailed, "recording stopped at seq \(seq): \(error); the trace keeps the events before it",
            in: &state)
    }

    /// Runs `event`, which builds an event and hands it to `emit`, under the lock; when the
    /// recorder groups its writes, returns only once the event is written (`writeQueued`).
    private func record(_ event: (inout RecorderState) -> Int) {
        if groupsWrites {
            _ = writeQueued(mustReachDisk: false, event)
        } else {
            _ = state.withLock(event)
        }
    }

    /// Queues a line with `queue` (under the lock; it returns the line's `seq`) and returns its
    /// `seq` once the line is written: by this thread, which then writes every line queued, when
    /// no other thread is writing; otherwise by the thread writing now or by the next writer
    /// (see "Writing in groups" above).
    private func writeQueued(mustReachDisk: Bool, _ queue: (inout RecorderState) -> Int) -> Int {
        var seq = 0
        waiting: while true {
            let step = state.withLock { state -> GroupStep in
                if seq == 0 { seq = queue(&state) }  // the first time, once
                let written = writtenSeq.load(ordering: .acquiring)
                if written >= seq || state.sinkFailed { return .written }
                if writing.load(ordering: .acquiring) { return .waiting }
                // Lines queued from now on go to the other buffer while this one is written.
                writing.store(true, ordering: .relaxed)
                let lines = state.queued
                state.queuesInSecond.toggle()
                return .writing(lines, first: written + 1, last: state.lastSeq)
            }
            switch step {
            case .written:
                break waiting
            case .waiting:
                // Another thread is writing, perhaps this line: wait until it is done, without
                // the lock and without sleeping on a condition (a sleep and its wake-up cost
                // about what the shared write saves; a pthread condition measured 5-11% slower
                // than one lock): poll, past a few turns giving the core to a thread that can
                // run, and sleep between polls only when the write is a long one.
                var waits = 0
                while writtenSeq.load(ordering: .acquiring) < seq && writing.load(ordering: .acquiring) {
                    waits += 1
                    if waits > Self.spinsBeforeYielding + Self.yieldsBeforeSleeping {
                        SystemCalls.sleep(nanoseconds: Self.waitSleep)
                    } else if waits > Self.spinsBeforeYielding {
                        sched_yield()
                    }
                }
            case .writing(let lines, let first, let last):
                var failure: (any Error)?
                do {
                    try sink.write(lines.bytes)
                } catch {
                    failure = error
                }
                if let failure {
                    // Before the next writer can start: it finds the sink failed.
                    state.withLock { stopWriting(at: first, because: failure, in: &$0) }
                } else if let message = fileWatch?.replacedMessage() {
                    state.withLock { report(.traceReplaced, message, in: &$0) }
                }
                // The buffer is this thread's until `writing` is cleared: no other thread queues
                // into it, and the next writer takes it only after.
                lines.count = 0
                lines.shrinkIfLarge()
                writtenSeq.store(last, ordering: .releasing)
                writing.store(false, ordering: .releasing)
                break waiting
            }
        }
        if mustReachDisk {
            do {
                try sink.synchronize()
            } catch {
                state.withLock { stopWriting(at: seq, because: error, in: &$0) }
            }
        }
        return seq
    }

    /// Writes the event in the output to a rolling sink: in the current file when it fits (or
    /// when it is the file's first event after its opening), otherwise first in a new file,
    /// where it takes the next `seq` and loses a `cause`, which names an event of the old file.
    private func writeRolling(to sink: RollingFileSink, in state: inout RecorderState) throws {
        let out = state.encoder.output
        if state.eventsInFile > 0 && sink.currentBytes + out.count > sink.maximumBytes {
            let (line, seqRange, causeRange) = (Array(out.bytes), state.seqRange, state.causeRange)
            state.lastSeq -= 1  // The event is not in this file after all.
            try startNextFile(sink, in: &state)
            state.lastSeq += 1
            let moved = Self.renumbered(line, seq: state.lastSeq, seqRange: seqRange, dropping: causeRange)
            try moved.withUnsafeBytes { try sink.write($0) }
        } else {
            try sink.write(out.bytes)
        }
        state.eventsInFile += 1
        state.rollover?.commit()
    }

    /// `line` with `seq` in place of the digits at `seqRange`, and without the bytes at `dropped`
    /// (which come after them).
    private static func renumbered(_ line: [UInt8], seq: Int, seqRange: Range<Int>, dropping dropped: Range<Int>?)
        -> [UInt8]
    {
        let end = dropped ?? line.endIndex..<line.endIndex
        var result = Array(line[..<seqRange.lowerBound])
        result.append(contentsOf: String(seq).utf8)
        result.append(contentsOf: line[seqRange.upperBound..<end.lowerBound])
        result.append(contentsOf: line[end.upperBound...])
        return result
    }

    /// Continues the trace in the next file: the header again, then a `register` event for each
    /// live store at its last recorded state, with `seq` from 1.
    private func startNextFile(_ sink: RollingFileSink, in state: inout RecorderState) throws {
        guard let rollover = state.rollover else { return }
        try sink.startNextFile()
        state.eventsInFile = 0
        let header = rollover.header
        try header.withUnsafeBytes { try sink.write($0) }
        state.fileOffset += state.lastSeq
        state.lastSeq = 0
        let out = state.encoder.output
        for store in rollover.order {
            guard let last = rollover.states[store] else { continue }
            out.count = 0
            out.append("{\"type\":\"register\",\"seq\":")
            _ = beginEvent(&state)
            appendRegisterFields(store: store, caseName: last.caseName, machine: last.machine, into: out)
            let stateStart = out.count
            last.state.withUnsafeBytes { out.append($0) }
            state.patches?.reopened(store, stateStart: stateStart, in: &state)
            out.append("}\n")
            try sink.write(out.bytes)
        }
    }

    private func report(_ kind: RecordingFailure.Kind, _ message: String, in state: inout RecorderState) {
        guard state.reported.insert(kind).inserted else { return }
        onError(RecordingFailure(kind: kind, message: message))
    }

    /// Writes the header line; `machines` has one entry per name. Their rules go in `rules`,
    /// which is left out when there are none. Returns whether a deadline was left out (see
    /// `MachineRules.appendJSON`).
    private static func writeHeader(
        into out: JSONOutput, app: String?, machines: [PinnedMachine], version: Int
    ) -> Bool {
        out.append(
            version == 1
                ? "{\"type\":\"header\",\"format\":\"rewind-trace\",\"version\":1"
                : "{\"type\":\"header\",\"format\":\"rewind-trace\",\"version\":2")
        if let app {
            out.append(",\"app\":")
            out.appendRareString(app)
        }
        out.append(",\"started\":")
        out.appendRareString(rfc3339Now())
        out.append(",\"machines\":{")
        for (index, pinned) in machines.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.appendRareString(pinned.name)
            out.append(UInt8(ascii: ":"))
            pinned.machine.appendJSON(to: out)
        }
        let rulesStart = out.count
        out.append("},\"rules\":[")
        var separated = false
        var leftOut = false
        for pinned in machines {
            if pinned.rules.appendJSON(store: pinned.name, to: out, separated: &separated) { leftOut = true }
        }
        if separated {
            out.append("]}\n")
        } else {
            out.count = rulesStart
            out.append("}}\n")
        }
        return leftOut
    }

    /// The wall-clock time now, RFC 3339 in UTC with milliseconds: `2026-11-22T10:15:00.123Z`.
    static func rfc3339Now() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        let millis = Int(time.tv_nsec / 1_000_000)
        let digits = [UInt8(millis / 100), UInt8(millis / 10 % 10), UInt8(millis % 10)]
        return RFC3339Timestamp.text(unixSeconds: Int64(time.tv_sec), fraction: digits) ?? "1970-01-01T00:00:00.000Z"
    }

    private static let printToStandardError: @Sendable (RecordingFailure) -> Void = { failure in
        SystemCalls.writeAll(2, "rewind: \(failure.message)\n")
    }
}

/// What `TraceRecorder.writeQueued` found under the lock: its line written, a write under way
/// by another thread, or the group of lines for this thread to write.
private enum GroupStep {
    case written
    case waiting
    case writing(JSONOutput, first: Int, last: Int)
}

/// The recorder's mutable state, guarded by its lock.
package struct RecorderState: ~Copyable {
    /// The recorder's own encoder, for the events it encodes under its lock.
    let line: TransitionEncoder
    package var encoder: StreamingEncoder { line.encoder }
    var lastSeq = 0
    var sinkFailed = false
    var reported: Set<RecordingFailure.Kind> = []
    package var liveStores: [String: Int] = [:]
    /// How many events the earlier files of a rolling trace hold. An event's global number,
    /// which stores keep as the `cause` of the actions their subscribers send, is this plus its
    /// `seq`; without rollover the two are the same.
    var fileOffset = 0
    /// What a new file needs, when the sink rolls over; nil otherwise.
    package var rollover: Rollover?
    /// Where the event being written has its `seq` digits and its `cause` member, so that a
    /// rolling trace can move it to a new file.
    var seqRange = 0..<0
    var causeRange: Range<Int>?
    /// How many events the current file holds after its opening (the header and, in a later
    /// file of a rolling trace, the registers of the live stores).
    var eventsInFile = 0
    /// The JSON of each state machine type's machine, made on its first register.
    var machines = MachineJSONCache()
    /// Version 2: what the recorder does to write patches; nil when the trace records whole
    /// states (version 1).
    var patches: (any PatchRecording)?

    /// Writing in groups (see `TraceRecorder`): the lines numbered and not yet written, in
    /// `seq` order, go to one of two buffers while the writer writes the other.
    private let first = JSONOutputStorage()
    private let second = JSONOutputStorage()
    var queuesInSecond = false
    var queued: JSONOutput { queuesInSecond ? second.output : first.output }

    init(line: TransitionEncoder) {
        self.line = line
    }
}

/// What the recorder keeps to start a new file: the header line and each live store's last case,
/// machine and state, in the order the stores registered.
package struct Rollover {
    let header: [UInt8]
    var order: [String] = []
    var states: [String: (caseName: String?, machine: [UInt8]?, state: [UInt8])] = [:]
    /// The state of the event being written, which counts once it is in a file: a new file
    /// that the event opens must register the stores as they were before it. Its machine is
    /// nil for a transition (the store keeps its register's machine).
    private var pending: (store: String, caseName: String?, machine: [UInt8]??, state: [UInt8])?

    init(header: [UInt8]) {
        self.header = header
    }

    /// Remembers a register event's case, machine and state, until `commit`.
    mutating func remember(
        store: String, caseName: String?, machine: [UInt8]?, state line: UnsafeRawBufferPointer, range: Range<Int>
    ) {
        pending = (store, caseName, .some(machine), Array(line[range]))
    }

    /// Remembers a transition's case and state, until `commit`; the machine stays the register's.
    package mutating func remember(
        store: String, caseName: String?, state line: UnsafeRawBufferPointer, range: Range<Int>
    ) {
        pending = (store, caseName, nil, Array(line[range]))
    }

    /// Remembers a transition's case, for a transition that carries a patch: its state is kept
    /// in `PatchedStates` instead (an empty `state` here).
    package mutating func rememberPatched(store: String, caseName: String?) {
        pending = (store, caseName, nil, [])
    }

    /// Makes the remembered state of the event just written the store's last state.
    mutating func commit() {
        guard let (store, caseName, machine, state) = pending else { return }
        pending = nil
        if states[store] == nil { order.append(store) }
        // A register sets the machine (nil for a store that has none); a transition keeps it.
        let kept: [UInt8]?
        if let registered = machine { kept = registered } else { kept = states[store]?.machine ?? nil }
        states[store] = (caseName, kept, state)
    }

    mutating func forget(store: String) {
        states[store] = nil
        order.removeAll { $0 == store }
    }
}
