import CommandLineArguments
import TraceJSON
import TraceQueries
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
        machine's from → to, the source line and the cause. An event whose call stack was
        recorded (an illegal transition's) is followed by it, folded to the frames of Swift
        files under the current directory: the code that sent the action.

        A damaged trace is said so, not followed forever: the chain stops at a cause that is
        not in the trace, or one that comes back to an event already in the chain.

        Options:
          --format text   for people (default)
          --format json   one JSON object for scripts: {"seq":N,"chain":[event, its cause, …],
                          "end":"origin|missing-cause|cycle|unreadable"}, each event with its
                          seq, line, type, store, action, from, to, source, cause and stack
                          (where recorded); a broken
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
        // The chain is printed as it is walked: the columns fit its first 500 events, and
        // memory holds those at most, however long the chain.
        var printer = ChainPrinter(json: format == "json", seq: seq, console: console)
        guard let end = CauseChain.walk(from: seq, in: trace, { printer.add($0) }) else {
            throw UsageError("no event of \(TTY.safe(file)) has seq \(seq); its seqs go from 1 to \(trace.lastStep)")
        }
        printer.finish(end)
        let last = printer.last!
        let count = printer.count
        switch end {
        case .origin:
            if format == "json" { return ExitStatus.success }
            let what =
                count > 1
                ? "\(count - 1) \(count == 2 ? "cause" : "causes")"
                : last.stack?.isEmpty == false
                    ? "no other event caused it; the app sent it from the call stack above"
                    : last.source.map { "no other event caused it; the app sent it from \(TTY.safe($0))" }
                        ?? "it has no cause"
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

    /// Prints a chain as it is walked: for people, one line per event, the first 500 held to
    /// size the columns; for scripts, `{"seq":7,"chain":[…],"end":"origin"}`, one event at a
    /// time (a broken end names the cause it stopped at).
    struct ChainPrinter {
        /// The most events that size the columns.
        static let sampleEvents = 500

        let json: Bool
        let seq: Int
        let console: Console
        private var pending: [TraceEvent]? = []
        private var format = EventLine()
        private(set) var count = 0
        private(set) var last: TraceEvent?
        /// Where the app's Swift files are: a stack is folded to their frames.
        private let sourceRoot = SourceRoot()

        init(json: Bool, seq: Int, console: Console) {
            self.json = json
            self.seq = seq
            self.console = console
        }

        mutating func add(_ event: TraceEvent) {
            count += 1
            last = event
            if json {
                console.out.write(count == 1 ? "{\"seq\":\(seq),\"chain\":[" : ",")
                console.out.write(JSONPrinter.compact(.object(EventJSON.object(event)), terminalSafe: true))
            } else if pending != nil {
                pending!.append(event)
                if count == Self.sampleEvents { sizeColumns() }
            } else {
                emit(event)
            }
        }

        mutating func finish(_ end: CauseChain.End) {
            if json {
                let (name, cause) = (end.name, end.cause)
                console.out.write("],\"end\":\"\(name)\"")
                if let cause { console.out.write(",\"endCause\":\(cause)") }
                console.out.line("}")
            } else if pending != nil {
                sizeColumns()
            }
        }

        private mutating func sizeColumns() {
            let events = pending ?? []
            pending = nil
            format = EventLine.fitting(events, style: console.style)
            for (position, event) in events.enumerated() { emit(event, first: position == 0) }
            console.out.flush()
        }

        private func emit(_ event: TraceEvent, first: Bool = false) {
            console.out.line((first ? "  " : "← ") + format.text(event))
            if let stack = event.stack, !stack.isEmpty {
                for line in CallStackText(stack, sourceRoot: sourceRoot).lines {
                    console.out.line("      " + console.style.dim(TTY.safe(line)))
                }
            }
        }
    }
}
