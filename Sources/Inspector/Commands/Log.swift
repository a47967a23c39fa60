import CommandLineArguments
@_spi(RewindInternals) internal import ToolSupport
import TraceReader

/// `inspector log TRACE`: one line per event.
enum Log: Command {
    static let name = "log"
    static let summary = "list the events of a trace, one per line"
    static let help = """
        Usage: inspector log TRACE [--store NAME] [--action NAME | --action-contains TEXT]
                                   [--problems] [--source-root DIR] [--follow]

        Prints one line per event: seq, elapsed time, store, action, its arguments in full
        (title: "Dune"), the machine's from → to, (no change) when the action left the state
        equal, the source line, the cause, and a mark where validation found a problem. Rows are printed as the trace is read (the
        columns fit its first 500 events); a problem found only at the end of the trace (an
        unresolved rule) is listed after the rows.

        Options:
          --store NAME     only events of that store
          --action NAME    only events whose action is NAME exactly (load is not loaded), or
                           Store.NAME: that store's
          --action-contains TEXT
                           only events whose action contains TEXT
          --problems       only events with a problem, each followed by its messages and
                           the call stack the event recorded, folded to the app's own frames
          --source-root DIR
                           where the app's Swift files are, for the call stack (default: the
                           current directory)
          --follow         go on printing events as the app appends them, as tail -f does
                           (until interrupted), each with the problems found when it came;
                           a torn last line is printed once the app has finished writing it

        \(standardExitStatuses)
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let options = LogRows.Options(
            store: try arguments.option("--store"), action: try arguments.option("--action"),
            actionContains: try arguments.option("--action-contains"), onlyProblems: arguments.flag("--problems"),
            sourceRoot: try SourceRoot.option(&arguments))
        let follow = arguments.flag("--follow")
        let path = try arguments.positional("TRACE (the trace file)")
        try arguments.finish()
        if follow {
            try LogFollower.run(path: path, options: options, console: console)
            return ExitStatus.success
        }
        // The trace is read once and validated as it goes: each row is printed as the reading
        // reaches it, with the problems found on its line, so the first rows come at once.
        var rows = LogRows(path: path, options: options, console: console)
        let report: ValidationReport
        do {
            report = try TraceOpening.streamScanned(path, preparing: rows.preparer) { rows.add($0) }
        } catch {
            rows.flushRows()  // the rows printed before the error
            throw error
        }
        rows.finish(report)
        if let store = options.store, !rows.storeNames.contains(store) {
            throw UsageError(
                "no store named '\(TTY.safe(store))' in \(TTY.safe(path)); its stores are: \(rows.storeNames.map { TTY.safe($0) }.joined(separator: ", "))"
            )
        }
        if let action = options.action, !rows.actionMatched {
            throw UsageError(
                "no action named '\(TTY.safe(action))' in \(TTY.safe(path)); its actions are: \(rows.actionNames.map { TTY.safe($0) }.joined(separator: ", "))"
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
        if let action = options.action, !Self.action(of: event, is: action) { return }
        if let part = options.actionContains, !(event.action ?? event.type).contains(part) { return }
        if options.onlyProblems && found.isEmpty { return }
        console.out.line(format.text(event, problems: found))
        if options.onlyProblems {
            for problem in found {
                console.out.line("        \(problem.severity.rawValue): \(TTY.safe(problem.message))")
                if let note = CallStackText.note(for: problem, sourceRoot: options.sourceRoot) {
                    console.out.line("        \(note)")
                }
            }
        }
    }

    /// A problem as `log` prints it where it is not under an event's row: `line N: severity:
    /// kind: message`.
    static func problemText(_ problem: Problem, line: Int) -> String {
        "line \(line): \(problem.severity.rawValue): \(problem.kind): \(TTY.safe(problem.message))"
    }

    /// Whether `event`'s action (its type, for a register) is `name`, or `Store.action` names
    /// its store and action.
    static func action(of event: TraceEvent, is name: String) -> Bool {
        let action = event.action ?? event.type
        return action == name || (event.store.map { "\($0).\(action)" } == name)
    }
}
