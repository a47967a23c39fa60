@_spi(RewindInternals) internal import RewindSupport

/// Simulated time for the fake services, counted in ticks.
///
/// A fake service does not sleep or start threads: it schedules its answer a few ticks ahead,
/// and the answer arrives when the app moves time forward (`advance(by:)`). Each command the
/// shopper types takes one tick, so a run is reproducible, fast, and a response can still be
/// pending while the shopper types the next command.
final class SimulatedClock: Sendable {
    /// How many ticks `advanceUntilIdle()` waits at most.
    static let patience = 100

    // Guarded by a `Lock`: services may schedule work from any thread while the app advances time.
    private let state = Lock(Schedule())

    init() {}

    /// The current tick; 0 when the clock is created.
    var now: Int {
        state.withLock { $0.now }
    }

    /// Whether some work is waiting for its tick.
    var hasPendingWork: Bool {
        state.withLock { !$0.jobs.isEmpty }
    }

    /// Runs `work` when time reaches `ticks` ticks from now (at least one).
    func schedule(after ticks: Int, _ work: @escaping @Sendable () -> Void) {
        state.withLock { schedule in
            schedule.order += 1
            schedule.jobs.append(Job(due: schedule.now + max(1, ticks), order: schedule.order, work: work))
        }
    }

    /// Moves time forward by `ticks`, one tick at a time. At each tick the work due then runs, in
    /// the order it was scheduled, outside the clock's lock (work may schedule more).
    func advance(by ticks: Int) {
        for _ in 0..<max(0, ticks) {
            let due: [Job] = state.withLock { schedule in
                schedule.now += 1
                let now = schedule.now
                let due = schedule.jobs.filter { $0.due <= now }
                schedule.jobs.removeAll { $0.due <= now }
                return due.sorted { ($0.due, $0.order) < ($1.due, $1.order) }
            }
            for job in due { job.work() }
        }
    }

    /// Moves time forward until no work is pending, or `patience` ticks have passed.
    func advanceUntilIdle() {
        var waited = 0
        while hasPendingWork && waited < Self.patience {
            advance(by: 1)
            waited += 1
        }
    }

    private struct Job: Sendable {
        var due: Int
        var order: Int
        var work: @Sendable () -> Void
    }

    private struct Schedule: Sendable {
        var now = 0
        var order = 0
        var jobs: [Job] = []
    }
}
