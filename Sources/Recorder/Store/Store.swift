import Observation
@_spi(RewindInternals) internal import RewindSupport

/// A container that owns a value state, changes it only through named actions, and tells
/// subscribers and observers about each new state: the state container of shared/DESIGN.md.
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
/// **Watching it.** A store is `Observable` (the Observation framework, iOS 17, macOS 14, tvOS 17,
/// watchOS 10 and later; on iOS 16 and macOS 13, `subscribe(_:)` is the way): a SwiftUI view whose
/// `body` reads `store.state`, or code that reads it inside `withObservationTracking`, is told
/// when an action changes the state, and not told about an action that changes nothing.
/// `subscribe(_:)` is the other way: it calls its handler with every new state, each the state
/// that its own action produced, and an action the handler sends records the store's event as its
/// `cause`. Observe from a view, which only needs to know when to read the state again;
/// subscribe from code that must see every state or reacts by sending actions, such as a store
/// that follows another.
///
/// **Concurrency.** A store can be used from any thread. Each action runs under one lock (a
/// `Lock`, a pthread mutex, around the state), not on a serial queue: the action's mutation, the
/// numbering and encoding of its event and the legality check happen together, on the caller's
/// thread, and `send` returns only once the event is written (by this thread, or together with
/// other threads' events in one write: see ``TraceRecorder``). That is what makes a trace
/// crash-safe (an action that returned is in the file) and keeps the order of `seq` the order in
/// which states changed. Observers and then
/// subscribers are told after the lock is released, on the sending thread, so they may read the
/// state and send actions to this store or any other without deadlock.
///
/// **Recording.** With a recorder, the store writes a `register` event when it is created and a
/// `transition` event for every action, including one that leaves the state equal
/// (`changed: false`). Observers and subscribers are not told about such an action. A store
/// records through a ``StoreRecording``, the API that stores which are not a `Store` use.
///
/// **Time travel.** The TimeTravel library sets a store to a state of a trace (a `restore`
/// event); its observers and subscribers are then told, with `ActionCause.current.isRestore`
/// true, and the actions they send are dropped, so that a restored state does not set off
/// reactions (see <doc:RecordingAStore>).
///
/// **State machines.** When `State` conforms to `StateMachine`, every event carries the
/// machine's case (`case`, `from`, `to`), and an action that moves along a transition the
/// machine does not allow is handled by `policy`.
open class Store<State: Equatable & Encodable & Sendable>: @unchecked Sendable {
    // @unchecked: every stored property is immutable, Sendable, or guarded by a `Lock` (a pthread
    // mutex); the class is open for subclassing, which rules out checked Sendable conformance.

    /// The store's name in the trace. Unique among the live stores of one recorder.
    public var name: String { recording.name }

    /// What the store does on an illegal transition.
    public var policy: IllegalTransitionPolicy { recording.policy }

    /// The file the store's recorder writes (`TraceRecorder.traceFileIdentity`); nil without one.
    package var traceFileIdentity: (device: UInt64, inode: UInt64)? { recording.traceFileIdentity }

    /// The state, its recording, and the checks of every action.
    private let recording: StoreRecording<State>
    /// The observation of `state`, an `ObservedValue<Store<State>, State>` where the Observation
    /// framework exists (iOS 17, macOS 14, tvOS 17, watchOS 10 and later, and Linux), nil before:
    /// there `subscribe` is the way to watch a store. Its key path is made once: in generic code a
    /// key path literal is built anew each time it is evaluated, which cost 1.5 µs an action.
    private let observation: AnyObject?
    private let subscribers = Lock(SubscriberList<State>())
    /// How many subscribers there are, read without the lock so that an action with none (the
    /// common case) does not pay for it. Changed only under the `subscribers` lock.
    private let subscriberCount = AtomicCell<Int>(0)

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
        let defaultName =
            Self.self == Store<State>.self ? String(describing: State.self) : String(describing: Self.self)
        recording = StoreRecording(
            name: name ?? defaultName, initialState: initialState, recorder: recorder, policy: policy)
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
            observation = ObservedValue(\Store<State>.state)
        } else {
            observation = nil
        }
    }

    /// Reports a read of `state` to the Observation framework, where it exists.
    @inline(__always)
    private func observationAccess() {
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *), let observation {
            unsafeDowncast(observation, to: ObservedValue<Store<State>, State>.self).access(self)
        }
    }

    /// Tells the Observation framework that `state` changed, where it exists.
    @inline(__always)
    private func observationChanged() {
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *), let observation {
            unsafeDowncast(observation, to: ObservedValue<Store<State>, State>.self).changed(self)
        }
    }

    /// The current state.
    ///
    /// Reading it inside one of this store's own actions (in the closure given to `send`) stops
    /// the process at once with a message naming the store and the action: the action holds the
    /// store's lock, so the read would otherwise wait forever. The closure is given the state.
    public var state: State {
        observationAccess()
        return recording.state
    }

    /// Runs an action: applies `mutate` to the state, records the event, and tells observers and
    /// subscribers when the state changed.
    ///
    /// An action that throws changes nothing: the state is put back as it was before the action,
    /// nothing is recorded, no one is told, and `send` throws the error. A thrown error is the
    /// app refusing the action; recording it as a transition that stays in its case would make
    /// `inspector validate` report a refusal the app handled as an illegal transition.
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
        // A subscriber that another thread adds right now may miss this state: it gets the
        // current state when it subscribes.
        guard subscriberCount.load(ordering: .acquiring) > 0 else {
            let outcome = try recording.apply(
                action, args: args, file: file, line: line, copyingTo: nil, dropsWhenRestoring: true, mutate)
            if outcome.changed { observationChanged() }
            return
        }
        // What subscribers get is copied out under the lock: each carries the state its own
        // action produced. (Not in `withUnsafeTemporaryAllocation`, which with a closure that
        // throws a generic error looks up the metadata of a `Result` on every call.)
        let newState = UnsafeMutablePointer<State>.allocate(capacity: 1)
        defer { newState.deallocate() }
        let outcome = try recording.apply(
            action, args: args, file: file, line: line, copyingTo: newState, dropsWhenRestoring: true, mutate)
        guard outcome.changed else { return }
        observationChanged()
        notify(newState.move(), cause: outcome.eventNumber)
    }

    /// Subscribes to the store's states. `handler` is called at once with the current state,
    /// before `subscribe` returns, then with every new state that differs from the one before.
    ///
    /// `handler` is `@Sendable`: it runs on the thread that sent the action, which may be any
    /// thread, after the store's lock is released; a handler that updates the screen hands the
    /// state to the main thread. Every system has it: an app on iOS 16 / macOS 13, where
    /// Observation does not exist, watches a store this way.
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

    /// Sets the state to `restored`, a recorded one (time travel), and records a `restore` event
    /// (`step` and `trace` say where it was recorded). Returns what tells observers and
    /// subscribers, for the TimeTravel library to run once every store of the restore has its
    /// state; nil when the state was already `restored`. While they are told,
    /// `ActionCause.current.isRestore` is true, and the actions they send to any `Store` are
    /// dropped.
    package func restore(to restored: State, step: Int?, trace: String?) -> (@Sendable () -> Void)? {
        guard recording.restore(to: restored, step: step, trace: trace) else { return nil }
        return { [self] in
            ActionContext.bind(ActionContext.restoring) {
                observationChanged()
                notify(restored, cause: ActionContext.restoring)
            }
        }
    }

    private func notify(_ state: State, cause: Int?) {
        let handlers = subscribers.withLock { $0.handlers }
        guard !handlers.isEmpty else { return }
        ActionContext.bind(cause) {
            for handler in handlers { handler(state) }
        }
    }
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

/// A store is `Observable` where the Observation framework exists: a SwiftUI view that reads
/// `state` is redrawn when it changes. Before iOS 17 and macOS 14, `subscribe` tells of changes.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Store: Observable {}
