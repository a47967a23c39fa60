import Dispatch
@_spi(RewindInternals) internal import RewindSupport
import TraceReader

/// The validation problems of an open trace, found on another thread as `TraceStream` reads the
/// file, for a command that prints before the whole file is validated (piped `step`): it waits
/// only until the reading has passed the line it needs.
///
/// A line's problems are final once the reading passed it, except two kinds that are known only
/// later: an `unresolved` rule (at the end of the trace) and a `cause-loop`'s message (with the
/// count the loop reached). So for a trace with rules, or a line with a `cause-loop`, the feed
/// waits for the end: what it gives is always what validating the whole file first would give.
///
/// A class because its identity is the point: one validation shared by its thread and the
/// command. Its state is behind a `Lock` (a pthread mutex, which Thread
/// Sanitizer sees, unlike `Mutex` on Linux); a waiter sleeps on a semaphore the reader signals.
final class ProblemFeed: Sendable {
    private struct State {
        var problems = ProblemMarks()
        /// The last line given by the stream: every line up to it was read.
        var reached = 0
        var finished = false
        var failure: FileError?
        /// The line a waiter needs, and how to wake it.
        var waiter: (line: Int, wake: DispatchSemaphore)?
    }

    private let state = Lock(State())
    private let hasRules: Bool

    /// Starts validating `trace` on another thread.
    init(trace: TraceFile) {
        hasRules = !trace.header.rules.isEmpty
        DispatchQueue.global(qos: .userInitiated).async { self.validate(trace) }
    }

    /// Reads and validates the whole trace, publishing each line's problems as it goes.
    private func validate(_ trace: TraceFile) {
        let report: ValidationReport
        do {
            report = try TraceStream(trace: trace, validator: ProblemMarks.validator).forEachLine { line in
                state.withLock { state in
                    if !line.problems.isEmpty || !line.omittedProblems.isEmpty {
                        state.problems.add(line.problems, omitted: line.omittedProblems)
                    }
                    state.reached = line.line
                    if let waiter = state.waiter, waiter.line <= line.line {
                        waiter.wake.signal()
                        state.waiter = nil
                    }
                }
                return true
            }
        } catch {
            let failure = FileError(error.path, line: error.line, error.message)
            finish { $0.failure = failure }
            return
        }
        let problems = ProblemMarks(report)
        finish { $0.problems = problems }
    }

    private func finish(_ change: (inout State) -> Void) {
        state.withLock { state in
            change(&state)
            state.finished = true
            state.waiter?.wake.signal()
            state.waiter = nil
        }
    }

    /// The problems by line, final for every line up to `line`: waits until the reading has
    /// passed it (or, where a problem is known only later, until the end).
    /// - Throws: `FileError` when the trace can no longer be read.
    func problems(through line: Int) throws(FileError) -> ProblemMarks {
        var needed = hasRules ? Int.max : line
        while true {
            let wake = DispatchSemaphore(value: 0)
            let ready: Result<ProblemMarks, FileError>? = state.withLock { state in
                if let failure = state.failure { return .failure(failure) }
                if state.finished { return .success(state.problems) }
                if state.reached >= needed {
                    if state.problems[line]?.contains(where: { $0.kind == .causeLoop }) != true {
                        return .success(state.problems)
                    }
                    needed = Int.max
                }
                state.waiter = (needed, wake)
                return nil
            }
            if let ready { return try ready.get() }
            wake.wait()
        }
    }
}
