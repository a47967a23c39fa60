import CommandLineArguments
import TraceJSON
import TraceQueries

/// `inspector compare A B`: the first step where two recorded runs differ.
enum Compare: Command {
    static let name = "compare"
    static let summary = "find the first step where two recorded runs differ, with its state diff and causes"
    static let help = """
        Usage: inspector compare A B [--ignore PATH]... [--format text|json]

        Walks the two traces side by side, event by event in file order, and stops at the first
        pair of events that differ in type, store, action, case, from, to, changed, args, a
        register's machine, or the store's state after the event (the same data: members in any
        order, numbers however written; a version 2 patch is applied first). seq, elapsed,
        source, stack and cause never count. It prints both events, what differs, the diff of
        the app states there, and the chain of causes that led to each event. When every event
        agrees, the headers' machines are compared. Both traces are streamed: memory holds the
        app states, not the traces.

        Options:
          --ignore PATH   leave the value at PATH out of every state, on both sides, such as a
                          timestamp or an id: CartStore.lines[0].addedAt, in the syntax of
                          show --path; [*] stands for every element (or member) there:
                          CartStore.lines[*].addedAt. Repeat it for several paths
          --format text   for people (default)
          --format json   one object: {"agree":false,"event":N,"differs":[...],
                          "first":{"file","event","causes","end"},"second":{…},
                          "changes":[{"path","kind","before","after"}]}; {"agree":true,"events":N}
                          when the runs agree

        Exit status:
          0  the runs agree
          1  the runs differ
          2  the command line is wrong (a PATH that cannot be read included), or a trace cannot
             be read, is not a trace, or has a version 2 patch that does not apply
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let format = try arguments.choice("--format", among: ["text", "json"]) ?? "text"
        var patterns: [StatePathPattern] = []
        for text in try arguments.options("--ignore") {
            do {
                patterns.append(try StatePathPattern(parsing: text))
            } catch {
                throw UsageError("--ignore: \(error)")
            }
        }
        let first = try arguments.positional("A (the first trace)")
        let second = try arguments.positional("B (the second trace)")
        try arguments.finish()
        let result: TraceComparison.Result
        do {
            result = try TraceComparison(ignoring: patterns).compare(.file(first), .file(second))
        } catch {
            throw FileError(error.path, line: error.line, error.message)
        }
        for (path, skipped) in [(first, result.skippedLines.first), (second, result.skippedLines.second)]
        where skipped > 0 {
            console.err.line(
                "inspector: \(TTY.safe(path)): \(counted(skipped, "line")) that \(skipped == 1 ? "is" : "are") not an event skipped; run 'inspector validate \(TTY.safe(path))'"
            )
        }
        guard let difference = result.difference else {
            if format == "json" {
                console.out.line(
                    JSONPrinter.compact(
                        .object(["agree": .bool(true), "events": .number(String(result.agreeingEvents))])))
            } else {
                console.out.line(
                    "\(TTY.safe(first)) and \(TTY.safe(second)) agree: \(counted(result.agreeingEvents, "event")) each")
            }
            return ExitStatus.success
        }
        if format == "json" {
            console.out.line(JSONPrinter.compact(json(difference), terminalSafe: true))
        } else {
            console.out.write(difference.report(width: TTY.size()?.columns ?? 100, colors: console.style.enabled))
        }
        return ExitStatus.problems
    }

    /// The difference as one JSON object.
    static func json(_ difference: TraceDifference) -> JSONValue {
        var object: JSONObject = ["agree": .bool(false), "event": .number(String(difference.position))]
        object.append(key: "differs", value: .array(difference.fields.map(JSONValue.string)))
        object.append(key: "first", value: side(difference.first))
        object.append(key: "second", value: side(difference.second))
        object.append(key: "changes", value: .array(difference.stateDiff.changes.map(EventJSON.object)))
        if !difference.ignoring.isEmpty {
            object.append(key: "ignored", value: .array(difference.ignoring.map { .string($0.description) }))
        }
        return .object(object)
    }

    private static func side(_ side: TraceDifference.Side) -> JSONValue {
        var object: JSONObject = ["file": .string(side.name), "events": .number(String(side.eventCount))]
        if let event = side.event {
            var members = EventJSON.object(event)
            if let args = event.args { members.append(key: "args", value: .object(args)) }
            object.append(key: "event", value: .object(members))
        } else {
            object.append(key: "event", value: .null)
        }
        if let chain = side.causes {
            object.append(key: "causes", value: .array(chain.events.map { .object(EventJSON.object($0)) }))
            let end =
                switch chain.end {
                case .origin: "origin"
                case .missingCause: "missing-cause"
                case .cycle: "cycle"
                case .unreadable: "unreadable"
                }
            object.append(key: "end", value: .string(end))
        }
        if !side.machines.isEmpty {
            object.append(key: "machines", value: .array(side.machines.map(JSONValue.string)))
        }
        return .object(object)
    }
}
