import CommandLineArguments
@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) internal import ToolSupport
import TraceReader

/// `inspector log TRACE`: one line per event.
enum Log: Command {
    static let name = "log"
    static let summary = "list the events of a trace, one per line"
    static let help = """
        Usage: inspector log TRACE [--store NAME] [--action TEXT] [--problems] [--follow]

        Prints one line per event: seq, elapsed time, store, action, the machine's from → to,
        (no change) when the action left the state equal, the source line, the cause, and a
        mark where validation found a problem.

        Options:
          --store NAME     only events of that store
          --action TEXT    only events whose action contains TEXT
          --problems       only events with a problem, each followed by its messages
          --follow         go on printing events as the app appends them, as tail -f does
                           (until interrupted), each with the problems found when it came;
                           a torn last line is printed once the app has finished writing it

        \(standardExitStatuses)
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let store = try arguments.option("--store")
        let action = try arguments.option("--action")
        let onlyProblems = arguments.flag("--problems")
        let follow = arguments.flag("--follow")
        let path = try arguments.positional("TRACE (the trace file)")
        try arguments.finish()
        let trace = try TraceOpening.open(path)
        TraceOpening.reportIssues(of: trace, console: console)
        var follower = follow ? try TraceFollower(trace) : nil
        let problems = try TraceOpening.problemsByLine(of: trace)
        if let store, !follow, !trace.storeNames.contains(store) {
            throw UsageError(
                "no store named '\(TTY.safe(store))' in \(TTY.safe(path)); its stores are: \(trace.storeNames.map { TTY.safe($0) }.joined(separator: ", "))"
            )
        }
        // Column widths from the first 500 events: enough to align, without reading a huge trace twice.
        let sample = (0..<min(trace.eventCount, 500)).compactMap { trace.event(at: $0) }
        let printer = Printer(
            format: EventLine.fitting(sample, style: console.style), store: store, action: action,
            onlyProblems: onlyProblems, out: console.out)
        var problemLine = onlyProblems ? printer.printProblemsOffEvents(problems, live: follow) : 0
        var printed = try printer.printEvents(of: trace, from: 0, problems: problems, live: follow)
        guard follow else { return ExitStatus.success }
        console.out.flush()
        while true {
            SystemCalls.pause(milliseconds: 200)
            guard let change = follower?.refresh(), let newer = follower?.trace else { continue }
            if change == .replaced {
                console.err.line("inspector: \(TTY.safe(path)) was written anew; following it from its start")
                printed = 0
                problemLine = 0
            }
            let problems = (try? TraceOpening.problemsByLine(of: newer)) ?? [:]
            if onlyProblems { problemLine = printer.printProblemsOffEvents(problems, live: true, after: problemLine) }
            printed = try printer.printEvents(of: newer, from: printed, problems: problems, live: true)
            console.out.flush()
        }
    }

    /// Prints events as `log` shows them.
    private struct Printer {
        let format: EventLine
        let store: String?
        let action: String?
        let onlyProblems: Bool
        let out: TextStream

        /// Prints the events of `trace` from index `start`; returns the index after the last.
        /// Live, a problem that only the end of the trace shows (a torn last line, a store left
        /// in a case it should not end in) is not printed: the app is not done.
        func printEvents(of trace: TraceFile, from start: Int, problems: [Int: [Problem]], live: Bool) throws(FileError)
            -> Int
        {
            for index in start..<max(start, trace.eventCount) {
                let read = { () throws(TraceReadError) in try trace.readEvent(at: index) }
                guard let event = try TraceOpening.reading(read) else { continue }
                if let store, event.store != store { continue }
                if let action, !(event.action ?? event.type).contains(action) { continue }
                let found = (problems[event.line] ?? []).filter { !live || !Self.isAboutTheEnd($0) }
                if onlyProblems && found.isEmpty { continue }
                out.line(format.text(event, problems: found))
                if onlyProblems {
                    for problem in found {
                        out.line("        \(problem.severity.rawValue): \(TTY.safe(problem.message))")
                    }
                }
            }
            return max(start, trace.eventCount)
        }

        /// Prints the problems on lines that are not events (malformed, truncated, the header)
        /// after line `after`; returns the last line printed (or `after`).
        @discardableResult
        func printProblemsOffEvents(_ problems: [Int: [Problem]], live: Bool, after: Int = 0) -> Int {
            var last = after
            for (line, list) in problems.sorted(by: { $0.key < $1.key })
            where line > after && !list.isEmpty && list.allSatisfy({ $0.seq == nil }) {
                for problem in list where !live || !Self.isAboutTheEnd(problem) {
                    out.line(
                        "line \(line): \(problem.severity.rawValue): \(problem.kind): \(TTY.safe(problem.message))")
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
