import CommandLineArguments
import TraceJSON
import TraceReader

/// `inspector show TRACE N [--store NAME]`: the app state at a step.
enum Show: Command {
    static let name = "show"
    static let summary = "print the app state at a step, as pretty JSON"
    static let help = """
        Usage: inspector show TRACE N [--store NAME] [--path PATH]

        Prints the app state at step N of TRACE as pretty-printed JSON: an object from each
        store's name to its state after the latest event with seq ≤ N. Step 0 is {}.

        Options:
          --store NAME   only that store's state
          --path PATH    only the value at PATH, written as diff prints paths
                         (CartStore.lines[2].quantity, or CartStore.lines.2.quantity)

        \(standardExitStatuses)
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let store = try arguments.option("--store")
        let pathText = try arguments.option("--path")
        let path = try arguments.positional("TRACE (the trace file)")
        let stepText = try arguments.positional("N (the step to show)")
        try arguments.finish()
        let statePath: StatePath?
        do {
            statePath = try pathText.map { try StatePath(parsing: $0) }
        } catch {
            throw UsageError("--path: \(error)")
        }
        let trace = try TraceOpening.open(path)
        TraceOpening.reportIssues(of: trace, console: console)
        let step = try TraceOpening.step(stepText, in: trace)
        // The state as text, never as a JSONValue tree: showing a state of any size takes about
        // its own size in memory, and the printing streams.
        var text: JSONText
        if let store {
            // Only that store's state is read: another store's that cannot be given does not matter.
            guard
                let state = try TraceOpening.reading({ () throws(TraceReadError) in
                    try trace.readStateText(of: store, atStep: step)
                })
            else {
                let known = trace.storeNames.map { TTY.safe($0) }.joined(separator: ", ")
                throw UsageError(
                    "no store named '\(TTY.safe(store))' at step \(step); the trace's stores are: \(known.isEmpty ? "none" : known)"
                )
            }
            text = state
        } else {
            text = try TraceOpening.reading { () throws(TraceReadError) in try trace.readAppStateText(atStep: step) }
        }
        if let statePath {
            guard let found = statePath.resolve(in: text) else {
                throw UsageError("nothing at \(statePath) at step \(step)")
            }
            text = found
        }
        JSONPrinter.pretty(text, terminalSafe: true) { console.out.write(bytes: $0) }
        console.out.line()
        return ExitStatus.success
    }
}
