import CommandLineArguments
import TraceReader

/// The steps a report covers: all of a trace, or the window `--from N --to M`. The page's slider
/// starts at step `N − 1` (the app state just before the window's first event, step 0 for a whole
/// trace) and goes to every step up to `M`; the page opens at the first problem.
struct ReportWindow: Equatable {
    /// The first step whose events are in the report (1 for a whole trace).
    var firstStep: Int
    /// The last step whose events are in the report.
    var lastStep: Int
    /// The indexes of the trace's events in the report.
    var events: Range<Int>
    /// Whether the report holds every event of the trace.
    var isWhole: Bool

    /// The step the slider starts at: before the window's first event.
    var startStep: Int { max(0, firstStep - 1) }

    /// The window `--from from --to to` of `trace`; either may be nil (the start, the end).
    /// - Throws: `UsageError` for a step past the end, or `from` after `to`.
    static func resolve(from: String?, to: String?, in trace: TraceFile) throws(UsageError) -> ReportWindow {
        let first =
            try from.map { text throws(UsageError) in try TraceOpening.step(text, in: trace, what: "--from") } ?? 1
        let last =
            try to.map { text throws(UsageError) in try TraceOpening.step(text, in: trace, what: "--to") }
            ?? trace.lastStep
        guard max(1, first) <= last || (from == nil && to == nil) else {
            throw UsageError(
                "the window from step \(max(1, first)) to step \(last) is empty; give --from the first step and --to the last (steps start at 1)"
            )
        }
        let lower = firstEvent(in: trace) { $0 >= first }
        let upper = firstEvent(in: trace) { $0 > last }
        let events = lower..<max(lower, upper)
        return ReportWindow(
            firstStep: max(1, first), lastStep: max(last, max(1, first) - 1), events: events,
            isWhole: events.lowerBound == 0 && events.upperBound == trace.eventCount)
    }

    /// The first event whose step satisfies `predicate` (steps never go down), or `eventCount`.
    private static func firstEvent(in trace: TraceFile, where predicate: (Int) -> Bool) -> Int {
        var low = 0
        var high = trace.eventCount
        while low < high {
            let middle = (low + high) / 2
            if predicate(trace.step(ofEventAt: middle) ?? Int.max) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
