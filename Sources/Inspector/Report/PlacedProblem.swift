import TraceReader

/// A validation problem and the event of the report it belongs to, for the problem list's links
/// and the timeline's markers.
struct PlacedProblem: Equatable {
    /// The problem, as `inspector validate` reports it.
    var problem: Problem
    /// The index, among the report's events, of the problem's event; for a line that is not an
    /// event (a malformed line), the last event before it. Nil for a line before every event.
    var event: Int?

    /// The problems of `problems` on the lines of `window`, placed; and how many are outside it.
    static func place(_ problems: [Problem], in trace: TraceFile, window: ReportWindow) -> (
        placed: [PlacedProblem], outside: Int
    ) {
        var placed: [PlacedProblem] = []
        var outside = 0
        for problem in problems {
            if let index = trace.eventIndex(atLine: problem.line) ?? lastEvent(before: problem.line, in: trace) {
                guard window.events.contains(index) else {
                    outside += 1
                    continue
                }
                placed.append(PlacedProblem(problem: problem, event: index - window.events.lowerBound))
            } else if window.events.lowerBound == 0 {
                placed.append(PlacedProblem(problem: problem, event: nil))
            } else {
                outside += 1
            }
        }
        return (placed, outside)
    }

    /// The last event on a line before `line`, found by binary search on the event lines.
    private static func lastEvent(before line: Int, in trace: TraceFile) -> Int? {
        var low = 0
        var high = trace.eventCount
        while low < high {
            let middle = (low + high) / 2
            if (trace.line(ofEventAt: middle) ?? Int.max) < line { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? low - 1 : nil
    }
}
