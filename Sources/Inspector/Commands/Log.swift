import CommandLineArguments
import TraceReader

/// `inspector log TRACE`: one line per event.
enum Log: Command {
    static let name = "log"
    static let summary = "list the events of a trace, one per line"
    static let help = """
        Usage: inspector log TRACE [--store NAME] [--action NAME | --action-contains TEXT] [--problems]

        Prints one line per event: seq, elapsed time, store, action, its arguments in full
        (title: "Dune"), the machine's from → to, (no change) when the action left the state
        equal, the source line, the cause, and a mark where validation found a problem.

        Options:
          --store NAME     only events of that store
          --action NAME    only events whose action is NAME (or Store.NAME: that store's)
          --action-contains TEXT
                           only events whose action contains TEXT
          --problems       only events with a problem, each followed by its messages

        \(standardExitStatuses)
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let store = try arguments.option("--store")
        let action = try arguments.option("--action")
        let actionPart = try arguments.option("--action-contains")
        let onlyProblems = arguments.flag("--problems")
        let path = try arguments.positional("TRACE (the trace file)")
        try arguments.finish()
        let trace = try TraceOpening.open(path)
        TraceOpening.reportIssues(of: trace, console: console)
        let problems = try TraceOpening.problemsByLine(of: trace)
        if let store, !trace.storeNames.contains(store) {
            throw UsageError(
                "no store named '\(TTY.safe(store))' in \(TTY.safe(path)); its stores are: \(trace.storeNames.map { TTY.safe($0) }.joined(separator: ", "))"
            )
        }
        // Column widths from the first 500 events: enough to align, without reading a huge trace twice.
        let sample = (0..<min(trace.eventCount, 500)).compactMap { trace.event(at: $0) }
        let format = EventLine.fitting(sample, style: console.style)
        if onlyProblems {
            // Problems on lines that are not events (malformed, truncated, the header).
            for (line, list) in problems.sorted(by: { $0.key < $1.key })
            where !list.isEmpty && list.allSatisfy({ $0.seq == nil }) {
                for problem in list {
                    console.out.line(
                        "line \(line): \(problem.severity.rawValue): \(problem.kind): \(TTY.safe(problem.message))")
                }
            }
        }
        for index in 0..<trace.eventCount {
            let read = { () throws(TraceChangedError) in try trace.readEvent(at: index) }
            guard let event = try TraceOpening.reading(read) else { continue }
            if let store, event.store != store { continue }
            if let action, !Self.action(of: event, is: action) { continue }
            if let actionPart, !(event.action ?? event.type).contains(actionPart) { continue }
            let found = problems[event.line] ?? []
            if onlyProblems && found.isEmpty { continue }
            console.out.line(format.text(event, problems: found))
            if onlyProblems {
                for problem in found {
                    console.out.line("        \(problem.severity.rawValue): \(TTY.safe(problem.message))")
                }
            }
        }
        return ExitStatus.success
    }

    /// Whether `event`'s action (its type, for a register) is `name`, or `Store.action` names
    /// its store and action.
    static func action(of event: TraceEvent, is name: String) -> Bool {
        let action = event.action ?? event.type
        return action == name || (event.store.map { "\($0).\(action)" } == name)
    }
}
