import TraceReader

/// How a replay turns the recorded actions of a trace back into calls on the app's stores: for
/// each store and action name, the call that sends it again. The app builds it once its stores
/// exist (in ``TraceReplay/run(_:)``'s `setup`), with its fakes injected.
///
/// ```swift
/// var table = ReplayTable()
/// table.on("CartStore", "add") { args in
///     cart.add(try args.string("sku"), quantity: try args.int("quantity"))
/// }
/// table.on("CatalogStore", "didLoad") { _ in catalogService.answer(.success(products)) }
/// table.byItself("CheckoutStore", "didCalculate")   // sent inside `checkout`, not by the app
/// table.onEvery("Counter", as: CounterAction.self) { action in counter.send(action) }
/// ```
///
/// What needs no entry: `register` events (the stores register when `setup` makes them), and
/// transitions with a `cause` (a store reacting to another): those must happen by themselves,
/// and a replay in which one is missing or different has diverged. Every other transition of
/// the trace needs an entry: ``TraceReplay`` checks that before it sends anything, and names
/// every action that has none. A trace with `restore` events needs ``onRestore(_:)`` (the
/// TimeTravel library's `restoring(with:)` gives one from a `Restorer`).
public struct ReplayTable {
    /// What to do for one action.
    enum Entry {
        /// Send it again.
        case call((ReplayArguments) throws -> Void)
        /// Nothing: an earlier call sends it.
        case byItself
    }

    /// A `restore` event of the trace, to replay as a restore.
    public struct Restore: Sendable {
        /// The trace replayed.
        public let trace: TraceFile
        /// The step of the `restore` event (its `seq`): the store's state there is the one the
        /// recording restored.
        public let step: Int
        /// The store restored.
        public let store: String
    }

    /// Store name → action name → entry.
    var entries: [String: [String: Entry]] = [:]
    /// Store name → the call for any of its actions (`onEvery`).
    var everyAction: [String: (ReplayArguments) throws -> Void] = [:]
    /// What replays a `restore` event.
    var restore: ((Restore) throws -> Void)?

    /// An empty table.
    public init() {}

    /// Sends `action` of `store` again: `call` gets its recorded arguments. A second entry for
    /// the same action replaces the first.
    public mutating func on(_ store: String, _ action: String, _ call: @escaping (ReplayArguments) throws -> Void) {
        entries[store, default: [:]][action] = .call(call)
    }

    /// Every action of `store` decoded as an `Action`, a `Decodable` enum whose conformance Swift
    /// synthesized, and given to `send`: for a reducer whose actions are recorded with
    /// `StoreRecording.record(action:state:)` (see ``ReplayArguments/decodeAction(_:)``). An
    /// entry given with ``on(_:_:_:)`` or ``byItself(_:_:)`` for one of its actions wins.
    public mutating func onEvery<Action: Decodable>(
        _ store: String, as type: Action.Type, _ send: @escaping (Action) throws -> Void
    ) {
        everyAction[store] = { args in try send(try args.decodeAction(Action.self)) }
    }

    /// Actions of `store` that the app's calls send by themselves, with no `cause` (an action a
    /// command sends after another, a network answer the fake gives unasked): the replay sends
    /// nothing for them, and they must appear in their place.
    public mutating func byItself(_ store: String, _ actions: String...) {
        for action in actions { entries[store, default: [:]][action] = .byItself }
    }

    /// Replays each `restore` event of the trace with `restore`.
    public mutating func onRestore(_ restore: @escaping (Restore) throws -> Void) {
        self.restore = restore
    }

    /// The entry for `action` of `store`, nil when there is none.
    func entry(_ store: String, _ action: String) -> Entry? {
        if let entry = entries[store]?[action] { return entry }
        return everyAction[store].map(Entry.call)
    }
}
