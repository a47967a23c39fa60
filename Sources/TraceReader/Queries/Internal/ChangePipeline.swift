import Dispatch
@_spi(RewindInternals) internal import RewindSupport

/// Finds the changes of a `ValueHistory` on a thread of its own while the calling thread uses
/// them (`inspector when` printing them): reading, scanning and comparing the store's events
/// runs beside the printing of the changes found before.
///
/// The changes are handed over in batches, in order, through `HandOver`, behind `Lock`
/// (RewindSupport, a pthread mutex that Thread Sanitizer sees). At most `window` batches are in
/// flight, so memory stays that of a few thousand changes. The finding thread waits for a free
/// batch (`free`) before it hands one over; the calling thread waits for one ready (`ready`).
/// When `body` returns false the finding thread is told to stop, and is waited for: nothing of
/// it runs after `run` returns.
enum ChangePipeline {
    /// What the two threads share, behind the lock.
    private struct HandOver {
        /// Batches found and not yet taken, in order.
        var batches: [[ValueChange]] = []
        /// Set by the finding thread after its last batch.
        var finished = false
        /// Set by the calling thread when it needs no more changes.
        var stop = false
    }

    /// The lock and the semaphores, shared by the two threads.
    private struct Shared: Sendable {
        let handOver = Lock(HandOver())
        /// Signalled once per batch handed over, and at the end.
        let ready = DispatchSemaphore(value: 0)
        /// Signalled once per batch taken (and at the stop): a batch may be handed over.
        let free = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
    }

    /// Calls `body` on the calling thread with each change `find` gives on another thread, in
    /// order, until `body` returns false or `find` ends. `find` gets a function to call with
    /// each change it finds, which returns false when no more are wanted.
    static func run(
        batchSize: Int = 1024, window: Int = 4,
        find: @escaping @Sendable (_ give: (ValueChange) -> Bool) -> Void,
        _ body: (ValueChange) -> Bool
    ) {
        let shared = Shared()
        // Made at 0 and signalled: libdispatch traps when a semaphore is freed below the value it
        // was made with, as `free` is when the reading stops early.
        for _ in 0..<max(1, window) { shared.free.signal() }
        DispatchQueue.global(qos: .userInitiated).async {
            defer { shared.ended.signal() }
            var batch: [ValueChange] = []
            var stopped = false
            batch.reserveCapacity(batchSize)
            /// Hands `batch` over; false when the calling thread stopped.
            func handOver(finished: Bool) -> Bool {
                shared.free.wait()
                let stopped = shared.handOver.withLock { state in
                    if !state.stop {
                        state.batches.append(batch)
                        state.finished = finished
                    }
                    return state.stop
                }
                shared.ready.signal()
                batch = []
                batch.reserveCapacity(batchSize)
                return !stopped
            }
            find { change in
                batch.append(change)
                if batch.count < batchSize { return true }
                stopped = !handOver(finished: false)
                return !stopped
            }
            // Once stopped, `free` is signalled no more: hand nothing over.
            if !stopped { _ = handOver(finished: true) }
        }
        defer {
            shared.handOver.withLock { $0.stop = true }
            shared.free.signal()
            shared.ended.wait()
        }
        while true {
            shared.ready.wait()
            let (batch, finished) = shared.handOver.withLock { state -> ([ValueChange], Bool) in
                let batch = state.batches.isEmpty ? [] : state.batches.removeFirst()
                return (batch, state.finished && state.batches.isEmpty)
            }
            shared.free.signal()
            for change in batch where !body(change) { return }
            if finished { return }
        }
    }
}
