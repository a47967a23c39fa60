import Dispatch
@_spi(RewindInternals) internal import RewindSupport
import TraceReader

/// The scan for the events of one action (`ActionEvents.scan`) run on a thread of its own when
/// the step view's action filter is set, so that the view keeps answering keys while it reads a
/// long trace; the view takes its outcome on a later tick (`take`), and moves by binary search
/// from then on.
///
/// A class: its identity is the scan the view waits for. The thread and the view share only the
/// atomic flag and the outcome, under its lock.
final class ActionEventScan: Sendable {
    /// The action scanned for, and the trace scanned.
    let action: String
    let trace: TraceFile
    private let cancelled = AtomicCell<Bool>(false)
    // The outcome, handed from the scan's thread to the view: nil until it is done.
    private let outcome = Lock<ActionEvents?>(nil)

    /// Starts scanning `trace` for the events of `action`.
    init(_ trace: TraceFile, action: String) {
        self.action = action
        self.trace = trace
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            guard
                let found = ActionEvents.scan(
                    trace, action: action, shouldStop: { self.cancelled.load(ordering: .relaxed) })
            else { return }
            outcome.withLock { $0 = found }
        }
    }

    /// Stops the scan at its next batch of events; it then gives no outcome.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    /// The events once the scan is done; nil before.
    func take() -> ActionEvents? {
        outcome.withLock { $0 }
    }
}
