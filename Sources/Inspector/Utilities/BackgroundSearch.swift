import Dispatch
@_spi(RewindInternals) internal import RewindSupport
import TraceReader

/// A search of the step view (`/TEXT` Enter, `N`) run on a thread of its own, so that the view
/// keeps answering keys while it scans a long trace: the view shows its progress at each tick
/// (`percent`), Esc cancels it (`cancel`, which the scan sees between two blocks of the file),
/// and the view takes the outcome on a later tick (`take`).
///
/// A class: its identity is the search the view waits for; the thread and the view share only
/// the atomic flag and counter and the outcome, under its lock.
final class BackgroundSearch: Sendable {
    /// What the search found: the text, and the index of the event it found (nil: none).
    struct Outcome: Sendable, Equatable {
        var text: String
        var found: Int?
    }

    /// The text searched for.
    let text: String
    private let total: Int
    private let cancelled = AtomicCell<Bool>(false)
    private let scanned = AtomicCell<Int>(0)
    // The outcome, handed from the search's thread to the view: nil until it is done.
    private let outcome = Lock<Outcome?>(nil)

    /// Starts searching for `text` from `session`'s step (a copy: the view moves on meanwhile).
    init(_ session: StepSession, text: String, backward: Bool) {
        self.text = text
        self.total = max(1, session.trace.eventByteCount)
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let found = session.search(
                for: text, backward: backward, shouldStop: { self.cancelled.load(ordering: .relaxed) },
                progress: { self.scanned.store($0, ordering: .relaxed) })
            guard !cancelled.load(ordering: .relaxed) else { return }
            outcome.withLock { $0 = Outcome(text: text, found: found) }
        }
    }

    /// How far the scan is, 0 to 99 (a search wraps around: the whole file is scanned once).
    var percent: Int {
        min(99, scanned.load(ordering: .relaxed) * 100 / total)
    }

    /// Stops the search at its next block; it then gives no outcome.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    /// The outcome once the search is done; nil before.
    func take() -> Outcome? {
        outcome.withLock { $0 }
    }
}
