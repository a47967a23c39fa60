@_spi(RewindInternals) internal import RewindSupport

/// What the store knows about the action being handled on this thread or task: the `seq` of the
/// event whose subscribers are being notified. An action sent from inside a subscriber records
/// it as its `cause`. A task-local value works in synchronous code too (it is then thread-local),
/// and flows into tasks that a subscriber starts (not into detached tasks nor dispatched
/// closures: `ActionCause` carries it there).
enum ActionContext {
    @TaskLocal private static var cause: Int?

    /// The cause bound while observers and subscribers are told of a restore (time travel). No
    /// event has it, so no event records it; `Store.send` drops an action sent under it.
    static let restoring = Int.min

    /// Whether any cause was ever bound in this process. Until one is, every read would find
    /// nil, so `currentCause` skips the task-local lookup (a few hundred instructions an action).
    /// It is set before the first binding, on the binding thread, so a read inside any binding
    /// (or in a task started from one) sees it.
    private static let everBound = AtomicCell<Bool>(false)

    /// The cause for an action sent now: the event whose subscribers are running, if any.
    @inline(__always)
    static var currentCause: Int? {
        everBound.load(ordering: .relaxed) ? cause : nil
    }

    /// Runs `body` with `cause` as the current cause.
    static func bind<Result, Failure: Error>(_ cause: Int?, _ body: () throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        if !everBound.load(ordering: .relaxed) { everBound.store(true, ordering: .relaxed) }
        let outcome = $cause.withValue(cause) { () -> Swift.Result<Result, Failure> in
            do throws(Failure) {
                return .success(try body())
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}
