internal import RewindSupport
import Synchronization

/// A container that owns a value state, changes it only through named actions, and tells
/// subscribers about each new state: the state container of shared/DESIGN.md.
///
/// Subclass it for a feature, and give it commands that send actions:
///
/// ```swift
/// final class CatalogStore: Store<CatalogState>, @unchecked Sendable {
///     init(recorder: TraceRecorder?) {
///         super.init(initialState: .idle, recorder: recorder)
///     }
///     func toLoading() {
///         send { $0 = .loading }   // recorded as action "toLoading", source CatalogStore.swift:LINE
///     }
/// }
/// ```
///
/// A subclass restates `@unchecked Sendable`, as Swift asks of every subclass of a class that
/// guards its own state: it promises that it adds no mutable state of its own outside a lock.
///
/// **Concurrency.** A store can be used from any thread. Each action runs under one lock (a
/// `Lock`, a pthread mutex, around the state), not on a serial queue: the action's mutation, the recorder's write
/// of its event and the legality check happen together, on the caller's thread, before `send`
/// returns. That is what makes a trace crash-safe (an action that returned is in the file) and
/// keeps the order of `seq` the order in which states changed. Subscribers are called after the
/// lock is released, on the sending thread, so a subscriber may send actions to this store or any
/// other without deadlock. When several threads send to one store at once, each subscriber call
/// carries the state that its own action produced.
///
/// **Recording.** With a recorder, the store writes a `register` event when it is created and a
/// `transition` event for every action, including one that leaves the state equal
/// (`changed: false`). Subscribers are not called for such an action.
///
/// **State machines.** When `State` conforms to `StateMachine`, every event carries the
/// machine's case (`case`, `from`, `to`), and an action that moves along a transition the
/// machine does not allow is handled by `policy`.
open class Store<State: Equatable & Encodable & Sendable>: @unchecked Sendable {
    // @unchecked: every stored property is immutable or guarded by a `Lock` (a pthread mutex); the class is open
    // for subclassing, which rules out checked Sendable conformance.

    /// The store's name in the trace. Unique among the live stores of one recorder.
    public let name: String

    /// What the store does on an illegal transition.
    public let policy: IllegalTransitionPolicy

    private let current: Lock<Guarded<State>>
    /// The thread running an action of this store, 0 when none: set and cleared under the lock
    /// by that thread, so a thread that finds its own identity here is inside an action of
    /// this store, and would wait forever for the lock it holds.
    private let owner = Atomic<UInt>(0)
    private let subscribers = Lock(SubscriberList<State>())
    /// How many subscribers there are, read without the lock so that an action with none (the
    /// common case) does not pay for it. Changed only under the `subscribers` lock.
    private let subscriberCount = Atomic<Int>(0)
    private let recorder: TraceRecorder?
    private let machine: MachineAdapter<State>?

    /// Creates a store with its initial state.
    /// - Parameters:
    ///   - initialState: the state the store starts with.
    ///   - name: the store's name in the trace. Defaults to the subclass's name (`CatalogStore`),
    ///     or to the state type's name for a plain `Store<CartState>`.
    ///   - recorder: where events are recorded; `nil` records nothing.
    ///   - policy: what to do on an illegal transition of a state machine.
    public init(
        initialState: State,
        name: String? = nil,
        recorder: TraceRecorder? = nil,
        policy: IllegalTransitionPolicy = .record
    ) {
        self.current = Lock(Guarded(state: initialState))
        self.recorder = recorder
        self.policy = policy
        self.machine = MachineAdapter<State>.make()
        let defaultName =
            Self.self == Store<State>.self ? String(describing: State.self) : String(describing: Self.self)
        self.name = name ?? defaultName
        recorder?.recordRegister(store: self.name, caseName: machine?.caseName(initialState), state: initialState)
    }

    deinit {
        recorder?.storeEnded(name)
    }

    /// The current state.
    ///
    /// Reading it inside one of this store's own actions (in the closure given to `send`) stops
    /// the process at once with a message naming the store and the action: the action holds the
    /// store's lock, so the read would otherwise wait forever. The closure is given the state.
    public var state: State {
        if owner.load(ordering: .relaxed) == currentThreadIdentity() {
            trapInsideAction("`state` was read", "use the state that the action's closure is given")
        }
        return current.withLock { $0.state }
    }

    /// Runs an action: applies `mutate` to the state, records the event, and notifies subscribers
    /// when the state changed.
    ///
    /// An action that throws changes nothing: the state is put back as it was before the action,
    /// nothing is recorded, no subscriber is called, and `send` throws the error. A thrown error
    /// is the app refusing the action; recording it as a transition that stays in its case would
    /// make `inspector validate` report a refusal the app handled as an illegal transition.
    ///
    /// - Parameters:
    ///   - action: the action's name. Defaults to the name of the calling method (`toLoading`).
    ///   - args: the action's arguments, recorded as `args`.
    ///   - file: the file recorded as `source`: the call site, unless a command passes its own
    ///     caller's (see <doc:RecordingAStore>).
    ///   - line: the line recorded as `source`, with `file`.
    ///   - mutate: the change. It runs under the store's lock: keep it to the state it is given.
    ///     Reading `state` or sending to this store from inside it stops the process with a
    ///     message (it would otherwise wait forever for the lock).
    public func send<Failure: Error>(
        _ action: String = #function,
        args: ActionArguments? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ mutate: (inout State) throws(Failure) -> Void
    ) throws(Failure) {
        let cause = ActionContext.currentCause
        let actionName = Self.actionName(action)
        let thread = currentThreadIdentity()
        if owner.load(ordering: .relaxed) == thread {
            trapInsideAction("the action \(actionName) was sent", "send it after `send` returns, from the command")
        }
        // What subscribers get is copied out under the lock (each carries the state its own
        // action produced), into stack space, and only when there are subscribers. The rest
        // comes back through a plain, non-generic local: a generic result type (or an optional
        // State) costs runtime metadata lookups on every action.
        try withUnsafeTemporaryAllocation(of: State.self, capacity: 1) { slot throws(Failure) in
            let newState = slot.baseAddress.unsafelyUnwrapped
            var outcome = SendOutcome()
            try current.withLock { guarded throws(Failure) in
                owner.store(thread, ordering: .relaxed)
                guarded.action = actionName
                defer { owner.store(0, ordering: .relaxed) }
                let old = guarded.state
                do throws(Failure) {
                    try mutate(&guarded.state)
                } catch {
                    guarded.state = old
                    throw error
                }
                let changed = guarded.state != old
                let from = machine?.caseName(old)
                let to = machine?.caseName(guarded.state)
                var illegal = false
                if let machine, let from, let to { illegal = !machine.spec.allows(from: from, to: to) }
                var stack: [String]?
                if let recorder, illegal || recorder.recordsEveryStack { stack = CallStack.capture() }
                let number = recorder?.recordTransition(
                    store: name, action: actionName, from: from, to: to, changed: changed, state: guarded.state,
                    file: file, line: line, cause: cause, args: args, stack: stack,
                    mustReachDisk: illegal && policy == .trap)
                // A subscriber that another thread adds right now may miss this state, as it
                // would with a check under the subscribers' lock: it gets the current state
                // when it subscribes.
                let notifies = changed && subscriberCount.load(ordering: .acquiring) > 0
                if notifies { newState.initialize(to: guarded.state) }
                outcome = SendOutcome(
                    notifies: notifies, eventNumber: number, illegalFrom: illegal ? from : nil,
                    illegalTo: illegal ? to : nil)
            }
            if let from = outcome.illegalFrom, let to = outcome.illegalTo, policy == .trap {
                fatalError(
                    "Wrong state transition: \(from) → \(to) by \(actionName) in \(name) (\(Self.source(file, line)))")
            }
            if outcome.notifies { notify(newState.move(), cause: outcome.eventNumber) }
        }
    }

    /// Subscribes to the store's states. `handler` is called at once with the current state, then
    /// with every new state that differs from the one before.
    ///
    /// Keep the returned token: releasing it ends the subscription.
    public func subscribe(_ handler: @escaping @Sendable (State) -> Void) -> Subscription {
        let id = subscribers.withLock { list in
            let id = list.add(handler)
            subscriberCount.store(list.handlers.count, ordering: .releasing)
            return id
        }
        let token = Subscription { [weak self] in
            guard let self else { return }
            self.subscribers.withLock { list in
                list.remove(id)
                self.subscriberCount.store(list.handlers.count, ordering: .releasing)
            }
        }
        handler(state)
        return token
    }

    /// Stops the process: `what` happened inside an action of this store, on the thread that
    /// holds its lock, and would wait for that lock forever.
    private func trapInsideAction(_ what: String, _ remedy: String) -> Never {
        let action = current.withLockHeldByCaller { $0.action }
        fatalError(
            "Store \(name): \(what) inside its own action \(action), which holds the store's lock, so it would wait forever; \(remedy)"
        )
    }

    private func notify(_ state: State, cause: Int?) {
        let handlers = subscribers.withLock { $0.handlers }
        guard !handlers.isEmpty else { return }
        ActionContext.bind(cause) {
            for handler in handlers { handler(state) }
        }
    }

    /// `toLoading()` → `toLoading`; `add(sku:quantity:)` → `add`.
    static func actionName(_ function: String) -> String {
        // Bytes, not Characters: grapheme breaking here cost a thousand instructions an action;
        // and a buffer, not the UTF8View, whose generic search cost a hundred more.
        var name = function
        return name.withUTF8 { bytes in
            guard let paren = bytes.firstIndex(of: UInt8(ascii: "(")) else { return function }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<paren]), as: UTF8.self)
        }
    }

    /// `SampleApp/CatalogStore.swift`, 31 → `CatalogStore.swift:31`.
    static func source(_ file: StaticString, _ line: UInt) -> String {
        let path = file.description
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return "\(name):\(line)"
    }
}

/// What a store's lock guards: its state, and the name of the action running on it (for the
/// message of a trap inside it).
struct Guarded<State> {
    var state: State
    var action = ""
}

/// What an action did, besides the new state.
struct SendOutcome {
    /// The state changed and there are subscribers to tell.
    var notifies = false
    /// The recorder's number for the event: its `seq` (across files, for a rolling trace).
    var eventNumber: Int?
    /// The cases of an illegal transition; nil when the transition was legal.
    var illegalFrom: String?
    var illegalTo: String?
}

/// The subscribers of one store, in the order they subscribed.
struct SubscriberList<State>: Sendable {
    // Two parallel arrays, so that notifying (the hot path) copies `handlers` without building
    // a new array; ids are only read to unsubscribe.
    private(set) var handlers: [@Sendable (State) -> Void] = []
    private var ids: [UInt64] = []
    private var nextID: UInt64 = 0

    mutating func add(_ handler: @escaping @Sendable (State) -> Void) -> UInt64 {
        nextID += 1
        ids.append(nextID)
        handlers.append(handler)
        return nextID
    }

    mutating func remove(_ id: UInt64) {
        guard let index = ids.firstIndex(of: id) else { return }
        ids.remove(at: index)
        handlers.remove(at: index)
    }
}

/// Reads the machine case of a state whose type conforms to `StateMachine`, for a store whose
/// `State` is only known to be `Equatable & Encodable`.
struct MachineAdapter<State>: Sendable {
    let spec: MachineSpec
    let caseName: @Sendable (State) -> String

    static func make() -> MachineAdapter? {
        guard let machineType = State.self as? any StateMachine.Type else { return nil }
        return adapter(for: machineType)
    }

    private static func adapter<Machine: StateMachine>(for type: Machine.Type) -> MachineAdapter {
        MachineAdapter(spec: MachineSpec(type)) { state in
            unsafeCast(state, to: Machine.self).currentCase.rawValue
        }
    }
}
