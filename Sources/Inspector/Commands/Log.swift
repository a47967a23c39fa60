import CommandLineArguments
import TraceReader

/// `inspector log TRACE`: one line per event.
enum Log: Command {
    static let name = "log"
    static let summary = "list the events of a trace, one per line"
    static let help = """
        Usage: inspector log TRACE [--store NAME] [--action TEXT] [--problems]

        Prints one line per event: seq, elapsed time, store, action, the machine's from → to,
        (no change) when the action left the state equal, the source line, the cause, and a
        mark where validation found a problem. Rows are printed as the trace is read (the
        columns fit its first 500 events); a problem found only at the end of the trace (an
        unresolved rule) is listed after the rows.

        Options:
          --store NAME     only events of that store
          --action TEXT    only events whose action contains TEXT
          --problems       only events with a problem, each followed by its messages

        \(standardExitStatuses)
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let store = try arguments.option("--store")
        let action = try arguments.option("--action")
        let onlyProblems = arguments.flag("--problems")
        let path = try arguments.positional("TRACE (the trace file)")
        try arguments.finish()
        // The trace is read once and validated as it goes: each row is printed as the reading
        // reaches it, with the problems found on its line, so the first rows come at once.
        var rows = LogRows(
            path: path, options: LogRows.Options(store: store, action: action, onlyProblems: onlyProblems),
            console: console)
        let report = try TraceOpening.stream(path) { rows.add($0) }
        rows.finish(report)
        if let store, !rows.storeNames.contains(store) {
            throw UsageError(
                "no store named '\(TTY.safe(store))' in \(TTY.safe(path)); its stores are: \(rows.storeNames.map { TTY.safe($0) }.joined(separator: ", "))"
            )
        }
        return ExitStatus.success
    }

    /// Prints the row of `event` (and with `--problems` its problems' messages), unless the
    /// options leave it out.
    static func printRow(
        _ event: TraceEvent, problems found: [Problem], format: EventLine, options: LogRows.Options, console: Console
    ) {
        if let store = options.store, event.store != store { return }
        if let action = options.action, !(event.action ?? event.type).contains(action) { return }
        if options.onlyProblems && found.isEmpty { return }
        console.out.line(format.text(event, problems: found))
        if options.onlyProblems {
            for problem in found {
                console.out.line("        \(problem.severity.rawValue): \(TTY.safe(problem.message))")
            }
        }
    }
}
