import Dispatch
@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) internal import ToolSupport
import TraceReader

/// The full-screen view's trace, validated and (with `--follow`) followed on a thread of its
/// own: it validates the trace as opened, then looks at the file every quarter of a second and,
/// when it changed, opens and validates it again. The view takes the latest opening on its next tick (`take`), so it never
/// waits for the file.
///
/// A class: it owns the thread, which ends when `stop` is called.
final class LiveTrace: Sendable {
    /// A newer opening and its problems by line; nil problems when it could not be validated.
    struct Update: Sendable {
        var trace: TraceFile
        var problems: Result<ProblemMarks, FileError>
    }

    // Handed from the thread to the view under the lock: the latest update not taken yet.
    private let latest = Lock<Update?>(nil)
    private let stopped = AtomicCell<Bool>(false)

    /// Validates `trace`, then, with a follower, follows its file.
    init(_ trace: TraceFile, following follower: TraceFollower?) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            publish(trace)
            guard var follower else { return }
            while !stopped.load(ordering: .relaxed) {
                let began = monotonicNanoseconds()
                if follower.refresh() != nil { publish(follower.trace) }
                // A large file costs its opening at each change: look less often than that.
                let spent = Int((monotonicNanoseconds() &- began) / 1_000_000)
                SystemCalls.pause(milliseconds: Int32(min(5_000, max(250, spent * 4))))
            }
        }
    }

    /// The newest opening since the last call, if any.
    func take() -> Update? {
        latest.withLock { update in
            defer { update = nil }
            return update
        }
    }

    /// Stops looking at the file.
    func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    private func publish(_ trace: TraceFile) {
        let problems = Result { () throws(FileError) in try TraceOpening.problemMarks(of: trace) }
        latest.withLock { $0 = Update(trace: trace, problems: problems) }
    }
}
