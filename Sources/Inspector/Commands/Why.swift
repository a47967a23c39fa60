import CommandLineArguments
import TraceReader

/// `inspector why TRACE SEQ`: the chain of causes of an event.
enum Why: Command {
    static let name = "why"
    static let summary = "show the chain of causes of an event, back to the action that started it"
    static let help = """
        Usage: inspector why TRACE SEQ [--format text|json]

        Prints the event whose seq is SEQ, then the event it happened while handling (its
        cause: one store reacting to another), then that event's cause, and so on back to the
        action that started the chain, one line each: seq, elapsed time, store, action, the
        machine's from → to, the source line and the cause.

        A damaged trace is said so, not followed forever: the chain stops at a cause that is
        not in the trace, or one that comes back to an event already in the chain.

        Options:
          --format text   for people (default)
          --format json   one JSON object for scripts: {"seq":N,"chain":[event, its cause, …],
                          "end":"origin|missing-cause|cycle|unreadable"}, each event with its
                          seq, line, type, store, action, from, to, source and cause; a broken
                          chain adds "endCause", the cause it stopped at

        Exit status:
          0  success
          1  the chain is broken: a cause is missing from the trace or the causes go in a circle
          2  the command line is wrong (no event has seq SEQ), or the file cannot be read or is
             not a trace
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let format = try arguments.choice("--format", among: ["text", "json"]) ?? "text"
        let file = try arguments.positional("TRACE (the trace file)")
        let seqText = try arguments.positional("SEQ (the seq of the event to explain)")
        try arguments.finish()
        let trace = try TraceOpening.open(file)
        guard let seq = Int(seqText) else {
            throw UsageError(
                "SEQ must be a whole number, the seq of an event (1 to \(trace.lastStep)), not '\(TTY.safe(seqText))'")
        }
        TraceOpening.reportIssues(of: trace, console: console)
        guard let chain = CauseChain(of: seq, in: trace) else {
            throw UsageError("no event of \(TTY.safe(file)) has seq \(seq); its seqs go from 1 to \(trace.lastStep)")
        }
        let last = chain.events[chain.events.count - 1]
        if format == "json" {
            console.out.line(JSONPrinter.compact(json(chain, seq: seq), terminalSafe: true))
        } else {
            let lineFormat = EventLine.fitting(chain.events, style: console.style)
            for (position, event) in chain.events.enumerated() {
                console.out.line((position == 0 ? "  " : "← ") + lineFormat.text(event))
            }
        }
        switch chain.end {
        case .origin:
            if format == "json" { return ExitStatus.success }
            let what =
                chain.events.count == 1
                ? "it has no cause" : "\(chain.events.count - 1) \(chain.events.count == 2 ? "cause" : "causes")"
            console.out.line(
                "seq \(seq): \(what); seq \(last.seq) (\(TTY.safe(last.store ?? "?")).\(TTY.safe(EventLine.action(of: last)))) started the chain"
            )
            return ExitStatus.success
        case .missingCause(let cause):
            console.err.line(
                "inspector: \(TTY.safe(file)):\(last.line): seq \(last.seq) names cause \(cause), but no event of the trace has that seq; the chain stops here (was the trace cut, or rolled over to a new file?)"
            )
        case .cycle(let cause):
            console.err.line(
                "inspector: \(TTY.safe(file)):\(last.line): seq \(last.seq) names cause \(cause), which is already in the chain: the causes go in a circle, which a recorder never writes; the trace is damaged"
            )
        case .unreadable(let cause):
            console.err.line(
                "inspector: \(TTY.safe(file)): the line of seq \(cause) can no longer be read as it was indexed; the file changed since it was opened, open it again"
            )
        }
        return ExitStatus.problems
    }

    /// `{"seq":7,"chain":[…],"end":"origin"}`; a broken end names the cause it stopped at.
    private static func json(_ chain: CauseChain, seq: Int) -> JSONValue {
        var object: JSONObject = [:]
        object.append(key: "seq", value: .number(String(seq)))
        object.append(key: "chain", value: .array(chain.events.map { .object(EventJSON.object($0)) }))
        let (end, cause): (String, Int?) =
            switch chain.end {
            case .origin: ("origin", nil)
            case .missingCause(let cause): ("missing-cause", cause)
            case .cycle(let cause): ("cycle", cause)
            case .unreadable(let cause): ("unreadable", cause)
            }
        object.append(key: "end", value: .string(end))
        if let cause { object.append(key: "endCause", value: .number(String(cause))) }
        return .object(object)
    }
}
