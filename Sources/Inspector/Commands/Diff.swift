import CommandLineArguments
import TraceJSON
import TraceQueries
import TraceReader

/// `inspector diff TRACE N [M]`: what changed between two steps.
enum Diff: Command {
    static let name = "diff"
    static let summary = "show what changed between steps N-1 and N, or N and M"
    static let help = """
        Usage: inspector diff TRACE N [M] [--format text|paths|json-patch] [--store NAME]

        Shows what changed in the app state between steps N-1 and N, or between steps N and M.
        The diff is structural: objects are compared by key, arrays are aligned (a Myers diff) so
        that one inserted item shows as one insertion, and unchanged context is folded
        ("… (4 unchanged)"). Items of an
        array whose elements all have distinct string or integer ids are named by id,
        CartStore.lines[id: "MUG"].quantity, wherever they sit; other elements by position.

        Options:
          --format text        a folded tree, - for the old value and + for the new (default)
          --format paths       one line per change: CartStore.lines[2].quantity: 1 → 2
          --format json-patch  an RFC 6902 JSON Patch that turns the first state into the second
          --store NAME         only that store

        \(standardExitStatuses)
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let format = try arguments.choice("--format", among: ["text", "paths", "json-patch"]) ?? "text"
        let store = try arguments.option("--store")
        let path = try arguments.positional("TRACE (the trace file)")
        let firstText = try arguments.positional("N (a step)")
        let secondText = arguments.optionalPositional()
        try arguments.finish()
        let trace = try TraceOpening.open(path)
        TraceOpening.reportIssues(of: trace, console: console)
        let from: Int
        let to: Int
        if let secondText {
            from = try TraceOpening.step(firstText, in: trace, what: "N")
            to = try TraceOpening.step(secondText, in: trace, what: "M")
        } else {
            to = try TraceOpening.step(firstText, in: trace, what: "N")
            guard to > 0 else {
                throw UsageError("step 0 has no step before it; give N from 1 to \(trace.lastStep), or two steps")
            }
            from = to - 1
        }
        if let store, !trace.storeNames.contains(store) {
            throw UsageError(
                "no store named '\(TTY.safe(store))' in \(TTY.safe(path)); its stores are: \(trace.storeNames.map { TTY.safe($0) }.joined(separator: ", "))"
            )
        }
        // The states as text, never as JSONValue trees: a diff of states of any size takes about
        // their own size in memory.
        let before = try TraceOpening.reading { () throws(TraceReadError) in
            try trace.readAppStateText(atStep: from, store: store)
        }
        let after = try TraceOpening.reading { () throws(TraceReadError) in
            try trace.readAppStateText(atStep: to, store: store)
        }
        let diff = StateDiff(from: before, to: after)
        var printer = StateDiffPrinter(
            width: TTY.size()?.columns ?? 100, terminalSafe: true, colors: console.style.enabled)
        printer.namesItemsByID = true
        switch format {
        case "json-patch":
            JSONPatch.write(diff, terminalSafe: true) { console.out.write(bytes: $0) }
            console.out.line()
        case "paths":
            printer.writePaths(diff) { console.out.write(bytes: $0) }
        default:
            if diff.isEmpty {
                console.out.line("no change between steps \(from) and \(to)")
            } else {
                printer.write(diff) { console.out.write(bytes: $0) }
            }
        }
        return ExitStatus.success
    }
}
