import Dispatch
@_spi(RewindInternals) internal import RewindSupport

/// A trace opened at once from its first part, and indexed whole on a thread of its own: what a
/// view of a large trace uses to show its first events at once (a gigabyte takes about a second
/// to index) while it says how far indexing is.
///
/// ```swift
/// let indexing = try TraceIndexing(path: "traces/big.jsonl")
/// show(indexing.first)                   // the first megabyte's events; isPartial when more
/// indexing.start()
/// print(indexing.progress)               // 0.34
/// let whole = try indexing.wait().get()  // the whole trace, as TraceFile(path:) opens it
/// ```
///
/// The first part is the file's lines that start in its first `firstBytes` bytes (the part ends
/// at a line end, so no line of it is torn). A file that small, or a pipe (read whole), is
/// opened whole at once: then `first` is not partial and is the whole trace. The whole is indexed
/// from the file opened for the first part, as it is when indexing starts.
///
/// A class because its identity is the point: one indexing, shared by its thread and the view.
/// Its result is behind a `Lock` (a pthread mutex, which Thread Sanitizer sees), the bytes indexed are counted in an atomic; a waiter sleeps on
/// a semaphore the thread signals.
public final class TraceIndexing: Sendable {
    private enum State {
        case waiting
        case indexing
        case done(Result<TraceFile, TraceOpenError>)
    }

    /// The first part of the trace (`isPartial` when the file goes on), or the whole trace.
    public let first: TraceFile
    private let rest: Rest?
    private let state: Lock<State>
    private let progressCount = IndexProgress()
    private let finished = DispatchSemaphore(value: 0)

    /// The open file and its size, to index whole.
    private struct Rest: Sendable {
        let input: TraceInput
        let size: Int
    }

    /// The trace's last step as the file's end says it, read at once: the `seq` of the file's
    /// last event line. It is `lastStep` of the whole trace unless the trace is damaged (its seqs
    /// do not go up, or its last lines are not events). `first.lastStep` when `first` is whole.
    public let expectedLastStep: Int

    /// The default first part: a megabyte, a few thousand events, indexed in milliseconds.
    public static let defaultFirstBytes = 1 << 20

    /// Opens the trace at `path` and indexes its first `firstBytes` bytes (all of it when it is
    /// no larger, or is a pipe). Nothing more is read until `start` or `wait`.
    /// - Throws: `TraceOpenError`, as `TraceFile(path:)` does.
    public init(path: String, firstBytes: Int = defaultFirstBytes) throws(TraceOpenError) {
        let part = try TraceLoader.openFirstPart(path: path, firstBytes: firstBytes)
        first = TraceFile(part.loaded, path: path, isPartial: part.rest != nil)
        rest = part.rest.map { Rest(input: $0.input, size: $0.size) }
        expectedLastStep =
            part.rest.flatMap { TraceLoader.lastSeq($0.input.file.rawValue, size: $0.size) }
            .map { [first] in max($0, first.lastStep) } ?? first.lastStep
        state = Lock(rest == nil ? .done(.success(first)) : .waiting)
        if rest == nil { finished.signal() }
    }

    /// Starts indexing the whole trace on a thread of its own, unless it started or is done.
    public func start() {
        guard let rest else { return }
        let starts = state.withLock { state in
            guard case .waiting = state else { return false }
            state = .indexing
            return true
        }
        guard starts else { return }
        let path = first.path
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let result = Result { () throws(TraceOpenError) in
                TraceFile(
                    try TraceLoader.indexWhole(rest.input, size: rest.size, path: path, progress: progressCount),
                    path: path)
            }
            state.withLock { $0 = .done(result) }
            finished.signal()
        }
    }

    /// How far indexing the whole is, from 0 to 1 (1 when it is done).
    public var progress: Double {
        guard let rest else { return 1 }
        if case .done = state.withLock({ $0 }) { return 1 }
        return min(0.99, Double(progressCount.byteCount) / Double(max(1, rest.size)))
    }

    /// The whole trace once it is indexed (or why it could not be), without waiting; nil while
    /// it is being indexed or before `start`.
    public var whole: Result<TraceFile, TraceOpenError>? {
        if case .done(let result) = state.withLock({ $0 }) { return result }
        return nil
    }

    /// The whole trace: starts indexing it if it has not started, and waits until it is done.
    public func wait() -> Result<TraceFile, TraceOpenError> {
        start()
        if let whole { return whole }
        finished.wait()
        finished.signal()  // for the next waiter
        return whole ?? .success(first)
    }
}
