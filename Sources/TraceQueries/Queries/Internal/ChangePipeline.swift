import Dispatch
@_spi(RewindInternals) internal import RewindSupport

/// Finds the changes of a `ValueHistory` in parts, on worker threads, while the calling thread
/// uses the parts found before (`inspector when` printing them), in order.
///
/// The store's events are cut into parts of consecutive positions; a part can be read on its
/// own, since its first value is compared with the value just before it (which its worker reads
/// again). Each worker takes the next part not taken (`HandOver.next`) and leaves what it made
/// in `HandOver.done`; the calling thread takes the parts in order. All of it behind `Lock`
/// (RewindSupport, a pthread mutex that Thread Sanitizer sees). At most `window` parts are taken
/// and not yet used, so memory stays that of a few parts: a worker waits for `free` (signalled
/// once per part used) before taking one past the window; the calling thread waits for `ready`
/// (signalled once per part made). When `body` returns false the workers are told to stop (they
/// stop after the part in hand) and are waited for: nothing of them runs after `run` returns.
enum ChangePipeline {
    /// What the threads share, behind the lock.
    private struct HandOver<Part> {
        /// The first part not taken by a worker.
        var next = 0
        /// How many parts the calling thread has used.
        var used = 0
        /// Parts made and not yet used, by number.
        var done: [Int: Part] = [:]
        /// Set by the calling thread when it needs no more parts.
        var stop = false
    }

    /// The lock and the semaphores, shared by the threads.
    private struct Shared<Part>: @unchecked Sendable {
        // @unchecked: `Part` values are only touched under the lock, and each is made by one
        // worker and used by the calling thread after the hand-over.
        let handOver = Lock(HandOver<Part>())
        /// Signalled once per part made.
        let ready = DispatchSemaphore(value: 0)
        /// Signalled once per part used, and once per worker at the stop.
        let free = DispatchSemaphore(value: 0)
    }

    /// Calls `body` on the calling thread with `make(0)`, `make(1)`, … `make(parts - 1)` in that
    /// order, made on `workers` threads, until `body` returns false. With one part or one worker,
    /// everything runs on the calling thread.
    static func run<Part>(
        parts: Int, workers: Int = 2, window: Int = 6, make: @escaping @Sendable (Int) -> Part,
        _ body: (Part) -> Bool
    ) {
        guard parts > 1 && workers > 1 else {
            for part in 0..<max(0, parts) where !body(make(part)) { return }
            return
        }
        let shared = Shared<Part>()
        let window = max(window, workers)
        let group = DispatchGroup()
        for _ in 0..<workers {
            DispatchQueue.global(qos: .userInitiated).async(group: group) {
                while true {
                    // The next part to make, when one is left within the window, stopping or
                    // waiting for the calling thread otherwise.
                    let taken = shared.handOver.withLock { state -> Int?? in
                        if state.stop || state.next >= parts { return .some(nil) }
                        guard state.next < state.used + window else { return nil }
                        state.next += 1
                        return state.next - 1
                    }
                    guard let taken else {
                        shared.free.wait()
                        continue
                    }
                    guard let part = taken else { return }
                    let made = make(part)
                    shared.handOver.withLock { $0.done[part] = made }
                    shared.ready.signal()
                }
            }
        }
        defer {
            shared.handOver.withLock { $0.stop = true }
            for _ in 0..<workers { shared.free.signal() }
            group.wait()
        }
        for part in 0..<parts {
            // A `ready` signal may be for a later part: look again until this one is there.
            var made: Part?
            while true {
                made = shared.handOver.withLock { $0.done.removeValue(forKey: part) }
                if made != nil { break }
                shared.ready.wait()
            }
            shared.handOver.withLock { $0.used += 1 }
            shared.free.signal()
            guard let made, body(made) else { return }
        }
    }
}
