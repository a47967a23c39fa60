import CommandLineArguments
import Dispatch
import Synchronization
import TraceReader

/// `inspector step TRACE [--at N]`: walk through a trace, forward and back.
enum Step: Command {
    static let name = "step"
    static let summary = "step through a trace, forward and back, with each step's diff"
    static let help = """
        Usage: inspector step TRACE [--at N]

        Walks through TRACE one step at a time. Step N is the moment just after the event
        whose seq is N; step 0 is before any event.

        On a terminal, a full-screen view: the events around the current step (problems found
        by validation are marked), what the step changed, and a status line.
          → l n       next step            ← h p       previous step
          g Home      step 0               G End       last step
          123 Enter   jump to step 123     / text      find a store or action (/ Enter again: next)
          ] [         next/previous step with a problem
          v           pick the next value this step changed (shown on the status line)
          w           who set it? jump to the step that last changed that value (the first
                      one, unless v picked another) before this step
          Tab         switch between the diff and the whole app state
          ↑ ↓ PgUp PgDn  scroll the lower pane           q Ctrl-C     quit

        Not on a terminal (a pipe, CI, a script): prints the step, then reads one command per
        line from standard input and prints the result of each:
          next | prev | first | last | goto N | find TEXT | diff | state | problems | help | quit
          who [PATH]   jump to the step that last changed PATH (default: the first value this
                       step changed) before this step

        Options:
          --at N      start at step N (default 0)

        \(standardExitStatuses)
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let at = try arguments.option("--at")
        let path = try arguments.positional("TRACE (the trace file to step through)")
        try arguments.finish()
        let trace = try TraceOpening.open(path)
        TraceOpening.reportIssues(of: trace, console: console)
        let step = try at.map { try TraceOpening.step($0, in: trace, what: "--at") } ?? 0
        if console.isTerminal, let terminal = Terminal.enter() {
            // The first screen comes first; validation marks problems when it is done.
            var session = StepSession(trace: trace, problems: [:])
            _ = session.go(toStep: step)
            runFullScreen(session, terminal: terminal, style: console.style)
            return ExitStatus.success
        }
        var session = StepSession(trace: trace, problems: try TraceOpening.problemsByLine(of: trace))
        _ = session.go(toStep: step)
        do {
            try runScript(&session, console: console)
        } catch {
            // A line that can no longer be read ends the session with a message, as `show` does.
            console.out.flush()
            throw FileError(error.path, line: error.line, error.message)
        }
        return ExitStatus.success
    }

    // MARK: Full screen

    /// The loop of the full-screen view: keys from the terminal go through `StepView.update`,
    /// whose effects are performed here.
    private static func runFullScreen(_ start: StepSession, terminal: Terminal, style: Style) {
        defer { terminal.restore() }
        var view = StepView(session: start, style: style)
        // Validation runs on another thread; its result is handed over under a Mutex.
        let found = Mutex<Result<[Int: [Problem]], FileError>?>(nil)
        let trace = start.trace
        DispatchQueue.global(qos: .userInitiated).async {
            let problems = Result { () throws(FileError) in try TraceOpening.problemsByLine(of: trace) }
            found.withLock { $0 = problems }
        }
        var effects = StepView.Effects.redraw
        while true {
            if effects.contains(.quit) { return }
            if effects.contains(.suspend) { terminal.suspend() }
            if effects.contains(.redraw) {
                let (columns, rows) = terminal.size
                terminal.draw(view.render(columns: columns, rows: rows))
            }
            guard let key = terminal.readKey() else { return }
            effects = view.update(key)
            if key == .tick, !view.validated, let outcome = found.withLock({ $0 }) {
                switch outcome {
                case .success(let problems): effects.formUnion(view.problemsFound(problems))
                case .failure(let error): effects.formUnion(view.validationFailed(error))
                }
            }
        }
    }

    // MARK: Line commands

    /// Reads commands from standard input until its end or `quit`.
    /// - Throws: `TraceReadError` when a line the command needs can no longer be read (a
    ///   version 2 patch that does not apply is said, and the session goes on).
    private static func runScript(_ session: inout StepSession, console: Console) throws(TraceReadError) {
        let out = console.out
        let printer = StateDiffPrinter(width: 100, terminalSafe: true, colors: false)
        /// What `body` reads from the current step's states; nil, said, when a state there
        /// cannot be rebuilt from its patches (other steps still can).
        func reading<Value>(_ body: () throws(TraceReadError) -> Value) throws(TraceReadError) -> Value? {
            do {
                return try body()
            } catch  where error.kind != .changed {
                out.line("✖ cannot show the state at step \(session.step): \(TTY.safe(error.description))")
                return nil
            }
        }
        func show() throws(TraceReadError) {
            out.line(try describe(session))
            if let diff = try reading(session.readDiff), !diff.isEmpty { out.write(printer.text(diff)) }
        }
        try show()
        // A script that drives step through pipes reads the first step before it sends a command.
        out.flush()
        while let line = console.input.readLine() {
            let words = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard let command = words.first else { continue }
            let argument = words.count > 1 ? words[1].trimmingCharacters(in: " ") : ""
            switch command {
            case "next", "n":
                if session.next() { try show() } else { out.line("at the last step (\(session.trace.lastStep))") }
            case "prev", "p":
                if session.previous() { try show() } else { out.line("at step 0") }
            case "first":
                session.first()
                try show()
            case "last":
                session.last()
                try show()
            case "goto":
                if let step = Int(argument), step >= 0, step <= session.trace.lastStep, session.go(toStep: step) {
                    try show()
                } else {
                    out.line("goto needs a step from 0 to \(session.trace.lastStep), not '\(TTY.safe(argument))'")
                }
            case "find":
                if session.find(argument) {
                    try show()
                } else {
                    out.line("no store or action matches \"\(TTY.safe(argument))\"")
                }
            case "who":
                if whoSet(argument, in: &session, out: out) { try show() }
            case "diff":
                if let diff = try reading(session.readDiff) {
                    if diff.isEmpty { out.line("no change") } else { out.write(printer.text(diff)) }
                }
            case "state":
                if let state = try reading(session.readAppState) {
                    out.line(JSONPrinter.pretty(.object(state), terminalSafe: true))
                }
            case "problems":
                let problems = session.currentProblems
                if problems.isEmpty { out.line("no problem at this step") }
                for problem in problems {
                    out.line("\(problem.severity.rawValue): \(problem.kind): \(TTY.safe(problem.message))")
                }
            case "help":
                out.line(
                    "commands: next, prev, first, last, goto N, find TEXT, who [PATH], diff, state, problems, quit")
            case "quit", "q", "exit":
                out.flush()
                return
            default:
                out.line(
                    "unknown command '\(TTY.safe(command))'; commands: next, prev, first, last, goto N, find TEXT, who [PATH], diff, state, problems, quit"
                )
            }
            out.flush()
        }
    }

    /// `who [PATH]`: jumps to the step that last changed PATH (or the first value the current
    /// step changed) before the current step; returns whether it moved.
    private static func whoSet(_ argument: String, in session: inout StepSession, out: TextStream) -> Bool {
        let path: StatePath
        if argument.isEmpty {
            guard let first = session.changedPaths.first else {
                out.line("this step changed no value; give a path: who CartStore.lines[2].quantity")
                return false
            }
            path = first
        } else {
            do {
                path = try StatePath(parsing: argument)
            } catch {
                out.line("\(error)")
                return false
            }
        }
        let from = session.step
        guard session.goToLastChange(of: path) != nil else {
            out.line("no step before \(from) changed \(path)")
            return false
        }
        out.line("\(path) was last changed before step \(from) at step \(session.step):")
        return true
    }

    /// The header line of a step in the line-command mode.
    static func describe(_ session: StepSession) throws(TraceReadError) -> String {
        let trace = session.trace
        guard let event = try session.readEvent() else {
            return "step 0 of \(trace.lastStep): before any event"
        }
        var text =
            "step \(session.step) of \(trace.lastStep): "
            + EventLine().text(event, problems: session.currentProblems)
            .trimmingCharacters(in: " ")
        for problem in session.currentProblems {
            text += "\n  \(problem.severity.rawValue): \(TTY.safe(problem.message))"
        }
        return text
    }
}

extension String {
    /// The string without `character` at either end.
    func trimmingCharacters(in character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text.removeFirst() }
        while text.last == character { text.removeLast() }
        return String(text)
    }
}
