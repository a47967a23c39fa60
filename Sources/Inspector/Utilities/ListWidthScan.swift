import Dispatch
@_spi(RewindInternals) internal import RewindSupport

/// The scan of a trace file for its widest action name, from → to and arguments
/// (`ListTextWidths`), run on a thread of its own so that a long trace's first screen does not
/// wait for it: the step view takes the widths found so far at each tick (`take`), those of
/// the file's first block (4 MB) at once, and sizes its list's columns by them; they only grow,
/// and are the whole file's when the scan is done (on a 94 MB trace, 4.3 s in a debug build).
///
/// A class: the thread and the view share only the outcome, under its lock, and the flag that
/// stops the scan.
final class ListWidthScan: Sendable {
    // The widths of the lines scanned so far, handed from the scan's thread to the view: nil
    // until the first block is scanned (and for a file that cannot be read).
    private let outcome = Lock<ListTextWidths?>(nil)
    private let cancelled = AtomicCell<Bool>(false)
    private let done = AtomicCell<Bool>(false)
    // Signalled once: when the first block is scanned, or the scan ended before.
    private let firstBlock = DispatchSemaphore(value: 0)

    /// Starts scanning the file at `path`, whose restores name steps of at most `maxStepDigits`.
    init(path: String, maxStepDigits: Int = 6) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            var signalled = false
            let widths = ListTextWidths.ofFile(
                atPath: path, maxStepDigits: maxStepDigits, shouldStop: { self.cancelled.load(ordering: .relaxed) },
                progress: { found in
                    self.outcome.withLock { $0 = found }
                    if !signalled { self.firstBlock.signal() }
                    signalled = true
                })
            if let widths { outcome.withLock { $0 = widths } }
            done.store(true, ordering: .releasing)
            if !signalled { firstBlock.signal() }
        }
    }

    /// Waits up to `milliseconds` for the file's first block (4 MB, a few milliseconds in a
    /// release build) to be scanned, or the scan to end, so that the first screen has its
    /// columns; the view's first screen of a long trace is not delayed more than that.
    func waitForFirstBlock(milliseconds: Int) {
        _ = firstBlock.wait(timeout: .now() + .milliseconds(milliseconds))
    }

    /// Whether the scan is over.
    var isDone: Bool { done.load(ordering: .acquiring) }

    /// The widths of the lines scanned so far (the whole file's once `isDone`); nil before the
    /// first block is scanned, or when the file could not be read.
    func take() -> ListTextWidths? {
        outcome.withLock { $0 }
    }

    /// Stops the scan at its next block.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }
}
