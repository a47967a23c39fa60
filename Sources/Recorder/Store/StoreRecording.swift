@_spi(RewindInternals) internal import RewindSupport

/// The recording of one store in a trace: for a store that is not a ``Store`` (an `@Observable`
/// model, a reducer, a store of another library) to record what it does.
///
/// Create one when the store is created, with its name and initial state (a `register` event),
/// and call ``record(_:state:args:file:line:)`` after each action with the state it left
/// (a `transition` event):
///
/// ```swift
/// @Observable final class Wishlist {
///     private(set) var items: [String] = []
///     @ObservationIgnored private let recording: StoreRecording<[String]>
///
///     init(recorder: TraceRecorder?) {
///         recording = StoreRecording(name: "Wishlist", initialState: [], recorder: recorder)
///     }
///
///     func add(_ sku: String) {
///         items.append(sku)
///         recording.record(state: items, args: ["sku": sku])   // action "add"
///     }
/// }
/// ```
///
/// It gives a store the guarantees of ``Store``, which is built on it: each event is one line,
/// written before `record` returns; `seq` has no gap whatever threads record; `changed` compares
/// the new state with the one recorded before (the recording keeps it); redacted keys are never
/// written; a cause and a call stack are recorded as a store's are. When `State` conforms to
/// ``StateMachine``, its case is recorded, and a transition its machine does not allow is
/// handled by `policy`. A recording is `Sendable`: calls from several threads are recorded one
/// at a time, in the order they take its lock. To record the app's state as one value, record
/// a value (a struct of the model's properties): `changed` and the trace both rely on it.
///
/// The store is recorded as ended when the recording is released.
public final class StoreRecording<State: Equatable & Encodable & Sendable>: Sendable {
    /// The store's name in the trace.
    package let name: String
    /// The file the store's recorder writes (`TraceRecorder.traceFileIdentity`); nil without one.
    package var traceFileIdentity: (device: UInt64, inode: UInt64)? { recorder?.traceFileIdentity }
    /// What an illegal transition does.
    let policy: IllegalTransitionPolicy
    private let recorder: TraceRecorder?
    /// The recorder's encoder for this store's transitions, used under `current`'s lock; nil
    /// when the recorder encodes them itself (see "Writing in groups" in `TraceRecorder`).
    private let encoder: TransitionEncoder?
    private let machine: MachineAdapter<State>?
    /// The state: the last one recorded.
    private let current: Lock<State>
    /// The name of the action running, for the message of a trap inside it. Written under
    /// `current`'s lock, and read only by the thread that holds that lock (see
    /// `checkNotInsideAction`). Not in the lock's value: a generic struct of the state and the
    /// name cost a runtime metadata lookup on every action.
    private nonisolated(unsafe) let runningAction: UnsafeMutablePointer<String>
    /// The thread running an action of this store, 0 when none: set and cleared under the lock
    /// by that thread, so a thread that finds its own identity here is inside an action of
    /// this store, and would wait forever for the lock it holds.
    private let owner = AtomicCell<UInt>(0)

    /// Registers a store: writes its `register` event.
    /// - Parameters:
    ///   - name: the store's name in the trace, unique among the live stores of the recorder.
    ///   - initialState: the state it starts with.
    ///   - recorder: where its events go; `nil` records nothing (the recording still computes
    ///     `changed` and checks the machine, so the app behaves the same).
    ///   - policy: what a transition that the state's machine does not allow does.
    public init(
        name: String, initialState: State, recorder: TraceRecorder?, policy: IllegalTransitionPolicy = .record
    ) {
        self.name = name
        self.policy = policy
        self.recorder = recorder
        self.encoder = recorder?.makeTransitionEncoder()
        self.machine = MachineAdapter<State>.make()
        self.current = Lock(initialState)
        self.runningAction = .allocate(capacity: 1)
        runningAction.initialize(to: "")
        recorder?.recordRegister(store: name, caseName: machine?.caseName(initialState), state: initialState)
    }

    deinit {
        recorder?.storeEnded(name)
        runningAction.deinitialize(count: 1)
        runningAction.deallocate()
    }

    /// Records an action: the state it left, compared with the one recorded before.
    /// - Parameters:
    ///   - action: the action's name. Defaults to the name of the calling method (`add`).
    ///   - state: the store's state after the action.
    ///   - args: the action's arguments, recorded as `args`.
    ///   - file: the file recorded as `source`. Leave the default, or pass the caller's.
    ///   - line: the line recorded as `source`, with `file`.
    public func record(
        _ action: String = #function, state: State, args: ActionArguments? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        apply(action, args: args, file: file, line: line, copyingTo: nil) { $0 = state }
    }

    /// Records an action given as a value, such as a reducer's enum: it is named after its case
    /// (`.addItem(sku: "MUG")` is `addItem`), and its associated values are its `args`, under
    /// their labels (`_0`, `_1`, … for values without one). Found with `Mirror`; a value that is
    /// not `Encodable` is recorded as its description.
    /// - Parameters:
    ///   - action: the action.
    ///   - state: the store's state after the action.
    ///   - file: the file recorded as `source`. Leave the default, or pass the caller's.
    ///   - line: the line recorded as `source`, with `file`.
    public func record<Action>(action: Action, state: State, file: StaticString = #fileID, line: UInt = #line) {
        let (name, args) = ActionName.describe(action)
        apply(name, args: args, file: file, line: line, copyingTo: nil) { $0 = state }
    }

    // MARK: The one path of every action

    /// The state last recorded. Read inside an action of this store, it stops the process (see
    /// `Store.state`).
    package var state: State {
        checkNotInsideAction(currentThreadIdentity(), .stateRead)
        return current.withLock { $0 }
    }

    /// Runs an action: applies `mutate` to the state under the lock, records the event, and
    /// handles an illegal transition. Called by `Store.send` and by `record`.
    ///
    /// - Parameters:
    ///   - action: the action as the caller gave it: a name, or the calling function
    ///     (`add(sku:quantity:)`), made a name (`ActionName.of`) only when it is recorded or
    ///     named in a message, so that an app that records nothing does not pay for it.
    ///   - slot: where to copy the new state when it changed (for subscribers), or nil.
    ///   - dropsWhenRestoring: do nothing when sent while a restore is told (a `Store`'s
    ///     action, which would change a restored state); `record` records as usual, since the
    ///     store's own state has changed already.
    /// - Returns: whether the state changed (and `slot` was filled), and the event's number.
    @discardableResult
    func apply<Failure: Error>(
        _ action: String, args: ActionArguments?, file: StaticString, line: UInt,
        copyingTo slot: UnsafeMutablePointer<State>?, dropsWhenRestoring: Bool = false,
        _ mutate: (inout State) throws(Failure) -> Void
    ) throws(Failure) -> AppliedAction {
        let cause = ActionContext.currentCause
        if dropsWhenRestoring && cause == ActionContext.restoring { return AppliedAction() }
        let thread = currentThreadIdentity()
        checkNotInsideAction(thread, .sent(action))
        var outcome = AppliedAction()
        var illegal: (from: String, to: String)?
        try current.withLock { state throws(Failure) in
            owner.store(thread, ordering: .relaxed)
            runningAction.pointee = action
            defer { owner.store(0, ordering: .relaxed) }
            let old = state
            do throws(Failure) {
                try mutate(&state)
            } catch {
                state = old
                throw error
            }
            outcome.changed = state != old
            let from = machine?.caseName(old)
            let to = machine?.caseName(state)
            if let machine, let from, let to, !machine.spec.allows(from: from, to: to) { illegal = (from, to) }
            if let recorder {
                var stack: [String]?
                if illegal != nil || recorder.recordsEveryStack { stack = CallStack.capture() }
                outcome.eventNumber = recorder.recordTransition(
                    store: name, action: ActionName.of(function: action), from: from, to: to, changed: outcome.changed,
                    state: state, file: file, line: line, cause: cause, args: args, stack: stack,
                    mustReachDisk: illegal != nil && policy == .trap, encoder: encoder)
            }
            if outcome.changed, let slot { slot.initialize(to: state) }
        }
        if let illegal, policy == .trap {
            fatalError(
                "Wrong state transition: \(illegal.from) → \(illegal.to) by \(ActionName.of(function: action)) in \(name) (\(ActionName.source(file, line)))"
            )
        }
        return outcome
    }

    // MARK: Time travel

    /// Sets the state to `restored`, a recorded one, and writes a `restore` event (`step` and
    /// `trace` say where it was recorded); returns whether the state changed. For the
    /// TimeTravel library, which then tells the store's observers and subscribers (a `Store`),
    /// or hands the state to the store that owns this recording.
    package func restore(to restored: State, step: Int?, trace: String?) -> Bool {
        checkNotInsideAction(currentThreadIdentity(), .sent("restore"))
        return current.withLock { state in
            let changed = state != restored
            state = restored
            recorder?.recordRestore(
                store: name, caseName: machine?.caseName(restored), state: restored, step: step, trace: trace)
            return changed
        }
    }

    /// What a thread inside an action of this store must not do.
    private enum Misuse {
        case stateRead
        case sent(String)
    }

    /// Stops the process when `thread` is inside an action of this store: the misuse would wait
    /// forever for the lock that action holds.
    @inline(__always)
    private func checkNotInsideAction(_ thread: UInt, _ misuse: @autoclosure () -> Misuse) {
        guard owner.load(ordering: .relaxed) == thread else { return }
        let action = ActionName.of(function: current.withLockHeldByCaller { _ in runningAction.pointee })
        let (what, remedy) =
            switch misuse() {
            case .stateRead: ("`state` was read", "use the state that the action's closure is given")
            case .sent(let other):
                ("the action \(ActionName.of(function: other)) was sent", "send it after the action returns")
            }
        fatalError(
            "Store \(name): \(what) inside its own action \(action), which holds the store's lock, so it would wait forever; \(remedy)"
        )
    }
}

/// What an action did, besides the new state.
struct AppliedAction {
    /// The state after the action differs from the state before.
    var changed = false
    /// The recorder's number for the event: its `seq` (across files, for a rolling trace); nil
    /// without a recorder.
    var eventNumber: Int?
}
