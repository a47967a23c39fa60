import Synchronization

/// What the store knows about the action being handled on this thread or task: the `seq` of the
/// event whose subscribers are being notified. An action sent from inside a subscriber records
/// it as its `cause`. A task-local value works in synchronous code too (it is then thread-local),
/// and flows into tasks that a subscriber starts.
enum ActionContext {
    @TaskLocal private static var cause: Int?

    /// Whether any cause was ever bound in this process. Until one is, every read would find
    /// nil, so `currentCause` skips the task-local lookup (a few hundred instructions an action).
    /// It is set before the first binding, on the binding thread, so a read inside any binding
    /// (or in a task started from one) sees it.
    private static let everBound = Atomic<Bool>(false)

    /// The cause for an action sent now: the event whose subscribers are running, if any.
    @inline(__always)
    static var currentCause: Int? {
        everBound.load(ordering: .relaxed) ? cause : nil
    }

    /// Runs `body` with `cause` as the current cause.
    static func bind(_ cause: Int?, _ body: () -> Void) {
        if !everBound.load(ordering: .relaxed) { everBound.store(true, ordering: .relaxed) }
        $cause.withValue(cause, operation: body)
    }
}
