import CommandLineArguments
@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) internal import ToolSupport
import TraceReader

/// `inspector log --follow`: prints the events of a trace, then those an app appends, as
/// `tail -f` does, until interrupted. The trace is opened again as it grows (`TraceFollower`), so
/// each new event comes with the problems validation finds when it arrives.
enum LogFollower {
    /// Prints the trace at `path` and follows it; returns only by an error.
    static func run(path: String, options: LogRows.Options, console: Console) throws {
        let trace = try TraceOpening.open(path)
        TraceOpening.reportIssues(of: trace, console: console)
        var follower = try TraceFollower(trace)
        // Column widths from the first 500 events: enough to align, without reading a huge trace twice.
        let sample = (0..<min(trace.eventCount, 500)).compactMap { trace.event(at: $0) }
        let printer = Printer(
            format: EventLine.fitting(sample, style: console.style), options: options, console: console)
        var problems = try TraceOpening.problemsByLine(of: trace)
        var problemLine = options.onlyProblems ? printer.printProblemsOffEvents(problems) : 0
        var printed = try printer.printEvents(of: trace, from: 0, problems: problems)
        // The last line whose issue was reported: a line skipped later (a torn line that another
        // writer's line completed into one that is not an event) is reported when it appears.
        var issueLine = lastSettledIssueLine(of: trace, after: 0)
        console.out.flush()
        while true {
            SystemCalls.pause(milliseconds: 200)
            guard let change = follower.refresh() else { continue }
            let newer = follower.trace
            if change == .replaced {
                console.err.line("inspector: \(TTY.safe(path)) was written anew; following it from its start")
                printed = 0
                problemLine = 0
                issueLine = 0
            }
            let fresh = newer.issues.filter { $0.line > issueLine && $0.kind != .truncated }
            TraceOpening.reportIssues(fresh, path: path, console: console)
            issueLine = lastSettledIssueLine(of: newer, after: issueLine)
            problems = (try? TraceOpening.problemsByLine(of: newer)) ?? [:]
            if options.onlyProblems { problemLine = printer.printProblemsOffEvents(problems, after: problemLine) }
            printed = try printer.printEvents(of: newer, from: printed, problems: problems)
            console.out.flush()
        }
    }

    /// The last line of `trace` with an issue that is settled (not a torn last line, which the
    /// app may still complete), or `after` when there is none past it.
    private static func lastSettledIssueLine(of trace: TraceFile, after: Int) -> Int {
        trace.issues.filter { $0.kind != .truncated }.map(\.line).reduce(after, max)
    }

    /// Prints events as `log` shows them, leaving out what only the end of a finished trace shows.
    private struct Printer {
        let format: EventLine
        let options: LogRows.Options
        let console: Console

        /// Prints the events of `trace` from index `start`; returns the index after the last.
        /// A problem that only the end of the trace shows (a torn last line, a store left in a
        /// case it should not end in) is not printed: the app is not done.
        func printEvents(of trace: TraceFile, from start: Int, problems: [Int: [Problem]]) throws(FileError) -> Int {
            for index in start..<max(start, trace.eventCount) {
                let read = { () throws(TraceReadError) in try trace.readEvent(at: index) }
                guard let event = try TraceOpening.reading(read) else { continue }
                let found = (problems[event.line] ?? []).filter { !Self.isAboutTheEnd($0) }
                Log.printRow(event, problems: found, format: format, options: options, console: console)
            }
            return max(start, trace.eventCount)
        }

        /// Prints the problems on lines that are not events (malformed, truncated, the header)
        /// after line `after`; returns the last line printed (or `after`).
        func printProblemsOffEvents(_ problems: [Int: [Problem]], after: Int = 0) -> Int {
            var last = after
            for (line, list) in problems.sorted(by: { $0.key < $1.key })
            where line > after && !list.isEmpty && list.allSatisfy({ $0.seq == nil }) {
                for problem in list where !Self.isAboutTheEnd(problem) {
                    console.out.line(Log.problemText(problem, line: line))
                    last = line
                }
            }
            return last
        }

        /// Whether a problem is about where the trace ends, which changes while an app writes it.
        static func isAboutTheEnd(_ problem: Problem) -> Bool {
            problem.kind == .truncated || problem.kind == .unresolved
        }
    }
}
