/// What the store knows about the action being handled on this thread or task: the `seq` of the
/// event whose subscribers are being notified. An action sent from inside a subscriber records
/// it as its `cause`. A task-local value works in synchronous code too (it is then thread-local),
/// and flows into tasks that a subscriber starts.
enum ActionContext {
    @TaskLocal static var cause: Int?
}
