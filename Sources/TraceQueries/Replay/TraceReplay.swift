import Recorder
import TraceJSON
import TraceReader

/// Runs a recorded session again on today's code, and finds where it first behaves differently.
///
/// ```swift
/// let replay = try TraceReplay(trace: "traces/checkout.jsonl", ignoring: ["CartStore.lines[*].addedAt"])
/// let outcome = try replay.run { recorder in
///     let cart = CartStore(recorder: recorder)          // the app's own stores, fakes injected
///     var table = ReplayTable()
///     table.on("CartStore", "add") { args in cart.add(try args.string("sku")) }
///     return table
/// }
/// #expect(outcome.isExact, "\(outcome.report())")
/// ```
///
/// `run` gives `setup` a recorder that records into memory; `setup` makes the app's stores on
/// it and returns the ``ReplayTable`` that turns actions into calls. Before sending anything,
/// the replay checks that every action of the trace that must be sent again has an entry. Then
/// it goes through the trace's events in order: a transition without a `cause` is sent again
/// through its entry, with its recorded arguments; a transition with a `cause` (a store
/// reacting to another) and a `register` are not sent, they must happen by themselves; a
/// `restore` is replayed as a restore. Last, the replay's recording is compared with the trace
/// by `TraceComparison`, event by event, each store's state after each event included, with
/// `ignoring` left out: the first divergence is reported as `inspector compare` reports one.
///
/// Version 1 and version 2 traces replay alike (a version 2 patch is applied to get the state
/// it stands for). A replay stops early, with a ``TraceReplayError`` naming the line, when a
/// call throws, an argument was redacted and the app supplied no value, or a restore fails;
/// unless the replay had already diverged before that event, in which case the outcome is that
/// divergence.
///
/// What a replay cannot do: it reproduces what reaches the stores as actions, and nothing else.
/// An effect the app did not inject (a real network call, the real clock, a random number)
/// answers as it answers today; the first state it makes differ is the divergence reported,
/// with the event and the state diff that show it.
public struct TraceReplay {
    /// The trace to replay.
    public var trace: TraceComparison.Input
    /// State values left out of the comparison on both sides, as `inspector compare --ignore`.
    public var ignoring: [StatePathPattern]
    /// The values of redacted arguments, by `Store.action.argument` (`"LoginStore.logIn.password"`).
    public var redactedValues: [String: JSONValue]
    /// The machines the replay's recorder pins in its header, as the app's recorder does
    /// (compared with the trace's header when every event agrees).
    public var machines: MachineList
    /// The keys the replay's recorder redacts, as the app's recorder does, so that a value
    /// recorded as `"<redacted>"` is compared with `"<redacted>"`.
    public var redactedKeys: Redaction

    /// A replay of `trace`.
    /// - Parameters:
    ///   - trace: the trace file's path.
    ///   - ignoring: state paths to leave out, in the syntax of `inspector compare --ignore`.
    ///   - redactedValues: values for arguments the trace holds as `"<redacted>"`.
    ///   - machines: as the app's `TraceRecorder(machines:)`.
    ///   - redactedKeys: as the app's `TraceRecorder(redactedKeys:)`.
    /// - Throws: `.badIgnorePath` for a path of `ignoring` that cannot be read.
    public init(
        trace path: String, ignoring: [String] = [], redactedValues: [String: JSONValue] = [:],
        machines: MachineList = [:], redactedKeys: Redaction = []
    ) throws(TraceReplayError) {
        try self.init(
            .file(path), ignoring: ignoring, redactedValues: redactedValues, machines: machines,
            redactedKeys: redactedKeys)
    }

    /// A replay of a trace given as a file or as bytes; see ``init(trace:ignoring:redactedValues:machines:redactedKeys:)``.
    public init(
        _ trace: TraceComparison.Input, ignoring: [String] = [], redactedValues: [String: JSONValue] = [:],
        machines: MachineList = [:], redactedKeys: Redaction = []
    ) throws(TraceReplayError) {
        self.trace = trace
        self.redactedValues = redactedValues
        self.machines = machines
        self.redactedKeys = redactedKeys
        var patterns: [StatePathPattern] = []
        for text in ignoring {
            do {
                patterns.append(try StatePathPattern(parsing: text))
            } catch {
                throw TraceReplayError(.badIgnorePath, path: trace.name, message: "ignoring '\(text)': \(error)")
            }
        }
        self.ignoring = patterns
    }

    /// One event of the trace, and what the replay does for it.
    private enum Step {
        case send(TraceEvent, (ReplayArguments) throws -> Void)
        case restore(TraceEvent)
    }

    /// Replays the trace on the stores `setup` makes.
    /// - Parameter setup: makes the app's stores on the recorder it is given (with the app's
    ///   fakes), and returns the table of calls.
    /// - Returns: the first divergence, or that the session replays exactly.
    /// - Throws: ``TraceReplayError``: before anything is sent, for a trace that cannot be read
    ///   or an action without an entry; later, when the replay must stop at an event (see
    ///   above) before any divergence.
    public func run(_ setup: (TraceRecorder) throws -> ReplayTable) throws(TraceReplayError) -> ReplayOutcome {
        let file = try open()
        let sink = MemorySink()
        let table: ReplayTable
        do {
            let recorder = try TraceRecorder(
                sink: sink, app: file.header.app, machines: machines, redactedKeys: redactedKeys)
            table = try setup(recorder)
        } catch {
            throw TraceReplayError(.setupFailed, path: trace.name, message: "the replay's setup threw: \(error)")
        }
        let steps = try plan(file, table)
        var sent = 0
        var restores = 0
        var stop: (error: TraceReplayError, position: Int)?
        for step in steps {
            switch step {
            case .send(let event, let call):
                do {
                    try call(ReplayArguments(event: event, path: trace.name, supplied: redactedValues))
                    sent += 1
                } catch let error as TraceReplayError {
                    stop = (error, event.index)
                } catch {
                    stop = (
                        TraceReplayError(
                            .actionFailed, path: trace.name, line: event.line,
                            message:
                                "the call for \(event.store ?? "?").\(event.action ?? "?") (step \(event.seq)) threw: \(error)"
                        ), event.index
                    )
                }
            case .restore(let event):
                do {
                    try table.restore?(ReplayTable.Restore(trace: file, step: event.seq, store: event.store ?? ""))
                    restores += 1
                } catch {
                    stop = (
                        TraceReplayError(
                            .restoreFailed, path: trace.name, line: event.line,
                            message: "restoring \(event.store ?? "?") to step \(event.seq) threw: \(error)"),
                        event.index
                    )
                }
            }
            if stop != nil { break }
        }
        let result: TraceComparison.Result
        do {
            result = try TraceComparison(ignoring: ignoring).compare(trace, .bytes(sink.data, name: "the replay"))
        } catch {
            throw TraceReplayError(.unreadableTrace, path: error.path, line: error.line, message: error.message)
        }
        if let stop, (result.difference?.position ?? Int.max) > stop.position {
            // The events before the stop agree: the stop is what there is to say.
            throw stop.error
        }
        return ReplayOutcome(
            trace: trace.name, difference: result.difference, agreeingEvents: result.agreeingEvents, sentActions: sent,
            restores: restores)
    }

    /// The trace, opened.
    private func open() throws(TraceReplayError) -> TraceFile {
        do {
            switch trace {
            case .file(let path): return try TraceFile(path: path)
            case .bytes(let bytes, let name): return try TraceFile(bytes: bytes, name: name)
            }
        } catch {
            throw TraceReplayError(.unreadableTrace, path: trace.name, line: error.line, message: error.message)
        }
    }

    /// What to do at each event, checked whole before anything is sent: every action without a
    /// `cause` has an entry, and a `restore` has a way to be replayed.
    private func plan(_ file: TraceFile, _ table: ReplayTable) throws(TraceReplayError) -> [Step] {
        var steps: [Step] = []
        var missing: [String: (line: Int, count: Int)] = [:]
        var missingOrder: [String] = []
        var firstRestore: Int?
        for index in 0..<file.eventCount {
            // Without its state (the comparison reads the states): not built, only scanned.
            guard let event = file.eventWithoutState(at: index) else {
                throw TraceReplayError(
                    .unreadableTrace, path: trace.name, line: file.line(ofEventAt: index),
                    message: "this event can no longer be read as it was indexed; was the file changed?")
            }
            switch event.type {
            case "transition" where event.cause == nil:
                let store = event.store ?? ""
                let action = event.action ?? ""
                switch table.entry(store, action) {
                case .call(let call)?: steps.append(.send(event, call))
                case .byItself?: break
                case nil:
                    let name = "\(store).\(action)"
                    if let found = missing[name] {
                        missing[name] = (found.line, found.count + 1)
                    } else {
                        missing[name] = (event.line, 1)
                        missingOrder.append(name)
                    }
                }
            case "restore":
                if table.restore == nil && firstRestore == nil { firstRestore = event.line }
                steps.append(.restore(event))
            default:
                break
            }
        }
        if !missingOrder.isEmpty {
            let list = missingOrder.map { name in
                let found = missing[name]!
                return "\(name) (line \(found.line)\(found.count > 1 ? ", and \(found.count - 1) more" : ""))"
            }
            throw TraceReplayError(
                .missingActions, path: trace.name, line: missing[missingOrder[0]]!.line,
                message:
                    "the replay table has no entry for \(list.joined(separator: ", ")): add one for each (table.on(STORE, ACTION) { args in … }, or table.byItself(STORE, ACTION) for an action an earlier call sends); nothing was sent"
            )
        }
        if let firstRestore {
            throw TraceReplayError(
                .missingRestore, path: trace.name, line: firstRestore,
                message:
                    "the trace restores a store here, and the replay table cannot restore: give it table.onRestore { … }, or table.restoring(with: restorer) from TimeTravel; nothing was sent"
            )
        }
        return steps
    }
}
