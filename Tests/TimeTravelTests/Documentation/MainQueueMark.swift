import Dispatch

/// Tells whether code runs on the main queue. (In a test process on Linux the main queue is
/// drained by `dispatch_main`, which ends the main thread and runs the queue on another, so
/// `Thread.isMainThread` cannot tell.) A value set on the main queue, for one test.
final class MainQueueMark: Sendable {
    private let key = DispatchSpecificKey<Int>()

    init() { DispatchQueue.main.setSpecific(key: key, value: 1) }

    /// Whether the calling code runs on the main queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }

    /// Takes the value off the main queue.
    func remove() { DispatchQueue.main.setSpecific(key: key, value: nil) }
}
