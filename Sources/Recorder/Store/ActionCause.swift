/// The event whose subscribers are running, taken to another thread or task, so that the actions
/// sent there record it as their `cause`.
///
/// An action sent while a store notifies its subscribers records that store's event as its
/// `cause`: on the subscriber's thread, and in a `Task` the subscriber starts, which inherits the
/// task-local value that carries it. It is lost through `Task.detached` and
/// `DispatchQueue.async`, which start with no task-local values, and through any code that keeps
/// a closure to run later. Take it along:
///
/// ```swift
/// let token = catalog.subscribe { state in
///     let cause = ActionCause.current
///     DispatchQueue.global().async {
///         cause.run { cart.catalogDidLoad(state) }   // records the catalog's event as its cause
///     }
/// }
/// ```
public struct ActionCause: Sendable {
    /// The recorder's number for the event, nil for none.
    let event: Int?

    /// The cause that an action sent here and now would record: the event whose subscribers are
    /// running, or none.
    public static var current: ActionCause {
        ActionCause(event: ActionContext.currentCause)
    }

    /// Whether what runs now reacts to a restore (time travel) rather than to an action: the
    /// store's state was set to a recorded one. A `Store` does not run the actions sent then (a
    /// restored session must not start a load); check it before other side effects, such as a
    /// request to a server, or an action of a store recorded through ``StoreRecording``, which
    /// is recorded as usual.
    public var isRestore: Bool { event == ActionContext.restoring }

    /// The cause of what observers and subscribers do while a restore is told.
    package static var restoring: ActionCause { ActionCause(event: ActionContext.restoring) }

    /// Runs `body` with this cause: the actions it sends record it (none, for a cause taken
    /// where there was none).
    public func run<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        try ActionContext.bind(event, body)
    }
}
