import Dispatch
@_spi(RewindInternals) internal import RewindSupport

/// The scan of a trace file for its widest action name and arguments (`ListTextWidths`), run
/// on a thread of its own so that a long trace's first screen does not wait for it: the step
/// view takes the widths when the scan is done (`take`), and sizes its list's columns by them
/// from then on.
///
/// A class: the thread and the view share only the outcome, under its lock, and the flag that
/// stops the scan.
final class ListWidthScan: Sendable {
    // The widths, handed from the scan's thread to the view: nil until it is done (and for a
    // file that cannot be read).
    private let outcome = Lock<ListTextWidths?>(nil)
    private let cancelled = AtomicCell<Bool>(false)
    private let done = AtomicCell<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts scanning the file at `path`.
    init(path: String) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let widths = ListTextWidths.ofFile(atPath: path, shouldStop: { self.cancelled.load(ordering: .relaxed) })
            outcome.withLock { $0 = widths }
            done.store(true, ordering: .releasing)
            finished.signal()
        }
    }

    /// Waits up to `milliseconds` for the scan to end (a short trace's first screen then has
    /// its columns at once); true when it has.
    func wait(milliseconds: Int) -> Bool {
        finished.wait(timeout: .now() + .milliseconds(milliseconds)) == .success
    }

    /// Whether the scan is over.
    var isDone: Bool { done.load(ordering: .acquiring) }

    /// The widths once the scan is done; nil before (or when the file could not be read).
    func take() -> ListTextWidths? {
        outcome.withLock { $0 }
    }

    /// Stops the scan at its next block.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }
}
