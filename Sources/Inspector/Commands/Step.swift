import CommandLineArguments
import Dispatch
@_spi(RewindInternals) internal import RewindSupport
import TimeTravel
import TraceJSON
import TraceQueries
import TraceReader

/// `inspector step TRACE [--at N]`: walk through a trace, forward and back.
enum Step: Command {
    static let name = "step"
    static let summary = "step through a trace, forward and back, with each step's diff"
    static let help = """
        Usage: inspector step TRACE [--at N] [--follow]
               inspector step --attach SOCKET|TRACE

        Walks through TRACE one step at a time. Step N is the moment just after the event
        whose seq is N; step 0 is before any event.

        On a terminal, a full-screen view: the events around the current step (problems found
        by validation are marked), what the step changed, and a status line. Each event shows its
        action's arguments, shortened in the list and whole above the diff. The view redraws when
        the terminal is resized, and the terminal is put back on every exit (q, Ctrl-C, a signal,
        a crash). Every key, as ? in the view lists them:
        \(StepKeys.helpLines(width: 81).joined(separator: "\n"))

        A large trace opens at once: the view shows its first megabyte while the rest is
        indexed ("indexing 34%…" on the status line); G, ], a jump, a search and → past the
        first megabyte wait for it.

        Not on a terminal (a pipe, CI, a script): prints the step, then reads one command per
        line from standard input and prints the result of each:
          next | prev | first | last | goto N | find TEXT | diff | state | problems | help | quit
          who [PATH]   jump to the step that last changed PATH (default: the first value this
                       step changed) before this step

        Live (an app that is still writing TRACE):
          --follow          show events as the app appends them, as tail -f does, problems
                            marked as they arrive; the view stays on the step you look at,
                            unless it is the last one (G or End: follow again)
          --attach SOCKET   attach to a running app that opened a control channel (its
                            TimeTravel ControlChannel; sample-app --control SOCKET): follow its
                            trace, and set the app itself to each step you move to; r sets it
                            back to its present (the last step before the first jump), and so
                            does the command 'present'. Quitting leaves the app running.
          --attach TRACE    the same, for the app recording TRACE whose channel is at its
                            default place: next to TRACE (run.jsonl: run.sock), or, for a path
                            too long for a socket (an iOS Simulator app's container), in
                            /tmp/rewind-UID/

        Options:
          --at N      start at step N (default 0; with --follow or --attach, the last step)

        \(standardExitStatuses)
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let at = try arguments.option("--at")
        let follow = arguments.flag("--follow")
        let socket = try arguments.option("--attach")
        let client = try socket.map { socket throws(FileError) in try connect(socket) }
        let path =
            try client.map { client in arguments.optionalPositional() ?? client.tracePath }
            ?? arguments.positional("TRACE (the trace file to step through)")
        try arguments.finish()
        let live = follow || client != nil
        // The first megabyte is indexed at once and the rest in the background, so the first
        // step comes at once on any size; following, or a step past the first part, waits for
        // the whole index.
        let indexing = try TraceOpening.indexing(path)
        var trace = indexing.first
        if trace.isPartial && (live || at.map { Int($0).map { $0 < 0 || $0 > trace.lastStep } ?? true } ?? false) {
            trace = try TraceOpening.whole(of: indexing)
        }
        if !trace.isPartial { TraceOpening.reportIssues(of: trace, console: console) }
        let follower = live ? try TraceFollower(trace) : nil
        let step = try at.map { try TraceOpening.step($0, in: trace, what: "--at") } ?? (live ? trace.lastStep : 0)
        if console.isTerminal, let terminal = Terminal.enter() {
            // The first screen comes first; validation marks problems when it is done.
            var session = StepSession(trace: trace, problems: [:])
            session.expectedLastStep = indexing.expectedLastStep
            _ = session.go(toStep: step)
            var view = StepView(session: session, style: console.style)
            if !trace.isPartial { view.readerIssues(trace.issues) }
            if live { view.follow() }
            if client != nil { view.attach() }
            runFullScreen(
                view, terminal: terminal, live: LiveTrace(trace, following: follower), app: client.map(AppLink.init),
                indexing: trace.isPartial ? indexing : nil)
            // Said after the view, where it cannot spoil the screen; not waited for (quitting
            // while the rest is indexed is at once).
            if trace.isPartial, case .success(let whole)? = indexing.whole {
                TraceOpening.reportIssues(of: whole, console: console)
            }
            return ExitStatus.success
        }
        // Validation reads the file on another thread; each step waits only until it has passed
        // the step's line, so the first step is printed at once. Following, the problems come
        // whole with each new opening of the trace instead.
        let feed = live ? nil : ProblemFeed(trace: trace)
        var session = StepSession(
            trace: trace, problems: live ? try TraceOpening.problemMarks(of: trace) : ProblemMarks())
        session.expectedLastStep = indexing.expectedLastStep
        _ = session.go(toStep: step)
        var script = Script(
            session: session, follower: follower, app: client, feed: feed, indexing: trace.isPartial ? indexing : nil)
        do {
            try script.run(console: console)
        } catch {
            // A line that can no longer be read ends the session with a message, as `show` does.
            console.out.flush()
            switch error {
            case .changed(let error): throw FileError(error.path, line: error.line, error.message)
            case .validation(let error): throw error
            }
        }
        return ExitStatus.success
    }

    /// Connects to the app whose control channel is at `target`: a socket, or the app's trace,
    /// whose channel is at its default place (`ControlChannel.defaultSocketPath(forTrace:)`).
    static func connect(_ target: String) throws(FileError) -> ControlClient {
        do {
            let isTrace = (try? SystemCalls.status(ofPath: target))?.kind == .regular
            return try ControlClient(socketPath: isTrace ? ControlClient.socketPath(forTrace: target) : target)
        } catch {
            throw FileError(target, TTY.safe(error.message))
        }
    }

    // MARK: Full screen

    /// The loop of the full-screen view: keys from the terminal go through `StepView.update`,
    /// whose effects are performed here; the trace's new openings (`live`) and the attached
    /// app's answers (`app`) are taken at each key and tick.
    /// `indexing`: the whole trace being indexed in the background while the view shows its
    /// first part (nil when the view has the whole trace).
    private static func runFullScreen(
        _ start: StepView, terminal: Terminal, live: LiveTrace, app: AppLink?, indexing: TraceIndexing?
    ) {
        defer {
            live.stop()
            app?.close()
            terminal.restore()
        }
        var view = start
        view.searchesInBackground = true
        // The search running off this thread, if any.
        var search: BackgroundSearch?
        defer { search?.cancel() }
        // The scan for the action filter's events, if one runs.
        var actionScan: ActionEventScan?
        defer { actionScan?.cancel() }
        // The scan of the file for the list's column widths: its first block is waited for (at
        // most 50 ms; a 200 MB trace's first screen takes 140 ms), so that the first screen has
        // them, the rest is taken at each tick.
        var widthScan: ListWidthScan? = ListWidthScan(
            path: view.session.trace.path, maxStepDigits: String(view.session.trace.lastStep).count)
        defer { widthScan?.cancel() }
        widthScan?.waitForFirstBlock(milliseconds: 50)
        if let widths = widthScan?.take() { _ = view.listWidthsFound(widths) }
        var effects = StepView.Effects.redraw
        let firstPart = view.session.trace
        var indexing = indexing
        if let indexing { view.screen.indexing = Int(indexing.progress * 100) }
        while true {
            if effects.contains(.quit) { return }
            if effects.contains(.suspend) { terminal.suspend() }
            if effects.contains(.redraw) {
                let (columns, rows) = terminal.size
                terminal.draw(view.render(columns: columns, rows: rows))
            }
            // Indexing the rest starts once the first screen is drawn, so as not to delay it.
            indexing?.start()
            guard let key = terminal.readKey() else { return }
            effects = []
            if let running = indexing {
                let (taken, done) = takeWholeTrace(running, into: &view, waiting: Self.needsWholeTrace(key, view))
                effects.formUnion(taken)
                if done { indexing = nil }
            }
            effects.formUnion(view.update(key))
            if let request = view.takeSearchRequest() {
                search?.cancel()
                search = BackgroundSearch(view.session, text: request.text, backward: request.backward)
            }
            if let running = search {
                if view.searching != running.text {
                    // Esc, or a step view that no longer waits for it.
                    running.cancel()
                    search = nil
                } else if let outcome = running.take() {
                    search = nil
                    effects.formUnion(view.searchFinished(outcome.text, found: outcome.found))
                } else {
                    effects.formUnion(view.searchProgress(running.percent))
                }
            }
            if let running = widthScan {
                // Read before `take`: widths taken after the scan ended are the whole file's.
                let done = running.isDone
                if let widths = running.take() { effects.formUnion(view.listWidthsFound(widths)) }
                if done { widthScan = nil }
            }
            scanActionEvents(&actionScan, into: &view)
            if let request = view.takeAppRequest() { app?.send(request) }
            if let update = live.take() {
                if view.screen.following {
                    // A trace that grew may have wider actions: scanned again.
                    widthScan?.cancel()
                    widthScan = ListWidthScan(
                        path: update.trace.path, maxStepDigits: String(update.trace.lastStep).count + 1)
                }
                // The validation of the first part's opening is that of the whole file.
                let trace = update.trace === firstPart ? view.session.trace : update.trace
                switch update.problems {
                case .success(let problems): effects.formUnion(view.traceChanged(trace, problems: problems))
                case .failure(let error):
                    effects.formUnion(view.traceChanged(trace, problems: nil))
                    effects.formUnion(view.validationFailed(error))
                }
            }
            for answer in app?.takeAnswers() ?? [] {
                effects.formUnion(view.appAnswered(answer.request, answer.outcome))
            }
        }
    }

    /// Starts the scan for the action filter's events when the view needs it (an action filter
    /// is set, and its events are not known for this opening of the trace), cancelling one for
    /// another action or opening, and gives the view those of a scan that is done (the list
    /// shows the same rows: nothing to draw again).
    private static func scanActionEvents(_ scan: inout ActionEventScan?, into view: inout StepView) {
        if let running = scan, let found = running.take() {
            scan = nil
            view.session.actionEventsFound(found)
        }
        guard let action = view.session.filter.action, !view.session.knowsActionEvents else {
            scan?.cancel()
            scan = nil
            return
        }
        if let running = scan, running.action == action, running.trace === view.session.trace { return }
        scan?.cancel()
        scan = ActionEventScan(view.session.trace, action: action)
    }

    /// Keys that need the whole trace, not its first part: the last step, the next problem, a
    /// jump to a step number or a search (which may be past the first part), and the next step
    /// after the first part's last.
    static func needsWholeTrace(_ key: Key, _ view: StepView) -> Bool {
        switch key {
        case .end, .character("G"), .character("]"): true
        case .enter: view.typed != nil
        case .right, .character("l"), .character("n"): view.typed == nil && view.session.isAtEnd
        default: false
        }
    }

    /// Gives `view` the whole trace of `indexing` when it is indexed (waiting for it when
    /// `waiting`, the status line saying so meanwhile), or how far indexing is; returns the
    /// effects and whether indexing is over.
    static func takeWholeTrace(_ indexing: TraceIndexing, into view: inout StepView, waiting: Bool)
        -> (StepView.Effects, done: Bool)
    {
        let result = waiting ? indexing.wait() : indexing.whole
        switch result {
        case .success(let whole)?:
            view.session.wholeIndexed(whole)
            view.readerIssues(whole.issues)
            view.screen.indexing = nil
            return (.redraw, true)
        case .failure(let error)?:
            view.screen.indexing = nil
            view.screen.message = "cannot index the rest of the trace: \(TTY.safe(error.message))"
            return (.redraw, true)
        case nil:
            let percent = Int(indexing.progress * 100)
            defer { view.screen.indexing = percent }
            return (view.screen.indexing == percent ? [] : .redraw, false)
        }
    }

    // MARK: Line commands

    /// Why the line commands stopped: a line that can no longer be read, for a step or for
    /// the validation.
    private enum ScriptError: Error {
        case changed(TraceReadError)
        case validation(FileError)
    }

    /// The line-command mode: a session, the file it follows, the app it is attached to, and
    /// the validation running beside it (none when following).
    private struct Script {
        var session: StepSession
        var follower: TraceFollower?
        let app: ControlClient?
        let feed: ProblemFeed?
        /// The whole trace being indexed in the background, while `session` has its first part.
        let indexing: TraceIndexing?

        /// Reads commands from standard input until its end or `quit`.
        /// - Throws: `ScriptError` when a line the command needs can no longer be read.
        mutating func run(console: Console) throws(ScriptError) {
            let out = console.out
            var printer = StateDiffPrinter(width: 100, terminalSafe: true, colors: false)
            printer.namesItemsByID = true
            let feed = feed
            /// Takes the problems of the lines up to the current step's once validation passed it.
            func markProblems(_ session: inout StepSession) throws(ScriptError) {
                guard let feed else { return }
                // The last event also carries the problems of lines skipped after it (a torn last
                // line): its problems are final only once the reading reached the end.
                let isLast = session.position > 0 && session.position == session.trace.eventCount
                let line =
                    isLast
                    ? Int.max : session.position == 0 ? 1 : session.trace.line(ofEventAt: session.position - 1) ?? 1
                do {
                    session.setProblems(try feed.problems(through: line))
                } catch {
                    throw .validation(error)
                }
            }
            /// What `body` reads from the current step; nil, said, when a state there cannot be
            /// rebuilt from its patches (other steps still can).
            func reading<Value>(at step: Int, _ body: () throws(TraceReadError) -> Value) throws(ScriptError) -> Value?
            {
                do {
                    return try body()
                } catch  where error.kind != .changed {
                    out.line("✖ cannot show the state at step \(step): \(TTY.safe(error.description))")
                    return nil
                } catch {
                    throw .changed(error)
                }
            }
            func show(_ session: inout StepSession) throws(ScriptError) {
                try markProblems(&session)
                let current = session
                do {
                    out.line(try describe(current))
                } catch {
                    throw .changed(error)
                }
                if let diff = try reading(at: current.step, current.readDiff), !diff.isEmpty {
                    out.write(printer.text(diff))
                }
            }
            try show(&session)
            // A script that drives step through pipes reads the first step before it sends a command.
            out.flush()
            // The rest of the trace is indexed while the first step is read; every command but
            // `quit` waits for the whole trace.
            var indexing = indexing
            indexing?.start()
            while let line = console.input.readLine() {
                let words = line.split(separator: " ", maxSplits: 1).map(String.init)
                guard let command = words.first else { continue }
                if let running = indexing, !["quit", "q", "exit"].contains(command) {
                    indexing = nil
                    switch running.wait() {
                    case .success(let whole):
                        session.wholeIndexed(whole)
                        TraceOpening.reportIssues(of: whole, console: console)
                    case .failure(let error):
                        throw .validation(FileError(error.path, line: error.line, error.message))
                    }
                }
                let argument = words.count > 1 ? words[1].trimmingCharacters(in: " ") : ""
                // Following: the commands see the events the app appended since the last one.
                if follower?.refresh() != nil, let newer = follower?.trace {
                    session.traceChanged(newer, problems: (try? TraceOpening.problemMarks(of: newer)) ?? ProblemMarks())
                }
                let stepBefore = session.step
                switch command {
                case "next", "n":
                    if session.next() {
                        try show(&session)
                    } else {
                        out.line("at the last step (\(session.trace.lastStep))")
                    }
                case "prev", "p":
                    if session.previous() { try show(&session) } else { out.line("at step 0") }
                case "first":
                    session.first()
                    try show(&session)
                case "last":
                    session.last()
                    try show(&session)
                case "goto":
                    if let step = Int(argument), let reached = session.go(nearStep: step) {
                        if reached != step { out.line(StepView.noEvent(step, showing: reached)) }
                        try show(&session)
                    } else {
                        out.line("goto needs a step from 0 to \(session.trace.lastStep), not '\(TTY.safe(argument))'")
                    }
                case "find":
                    if session.find(argument) {
                        try show(&session)
                    } else {
                        out.line(StepView.notFound(argument))
                    }
                case "who":
                    if whoSet(argument, in: &session, out: out) { try show(&session) }
                case "diff":
                    let current = session
                    if let diff = try reading(at: current.step, current.readDiff) {
                        if diff.isEmpty { out.line("no change") } else { out.write(printer.text(diff)) }
                    }
                case "state":
                    let current = session
                    if let state = try reading(at: current.step, current.readAppState) {
                        out.line(JSONPrinter.pretty(.object(state), terminalSafe: true))
                    }
                case "problems":
                    let problems = session.currentProblems
                    if problems.isEmpty { out.line("no problem at this step") }
                    for problem in problems {
                        out.line("\(problem.severity.rawValue): \(problem.kind): \(TTY.safe(problem.message))")
                    }
                case "present" where app != nil:
                    ask(.present, out: out)
                case "help":
                    out.line("commands: \(Self.commands(attached: app != nil))")
                case "quit", "q", "exit":
                    out.flush()
                    return
                default:
                    out.line("unknown command '\(TTY.safe(command))'; commands: \(Self.commands(attached: app != nil))")
                }
                if app != nil && session.step != stepBefore { ask(.restore(step: session.step), out: out) }
                out.flush()
            }
        }

        static func commands(attached: Bool) -> String {
            "next, prev, first, last, goto N, find TEXT, who [PATH], diff, state, problems, "
                + (attached ? "present, quit" : "quit")
        }

        /// Asks the attached app for `request` and prints its answer.
        private func ask(_ request: ControlRequest, out: TextStream) {
            guard let app else { return }
            switch Result(catching: { () throws(ControlChannelError) in try app.request(request) }) {
            case .success(.restored(let step, let present, let stores, let absent, let kept)):
                var text = present ? "app: back at its present, step \(step)" : "app: restored to step \(step)"
                if !stores.isEmpty { text += " (\(stores.map { TTY.safe($0) }.joined(separator: ", ")))" }
                if !absent.isEmpty {
                    text += "; not at that step yet: \(absent.map { TTY.safe($0) }.joined(separator: ", "))"
                }
                if !kept.isEmpty { text += "; kept its live \(kept.map { TTY.safe($0) }.joined(separator: ", "))" }
                out.line(text)
            case .success(.error(let message)):
                out.line("app: ✖ \(TTY.safe(message))")
            case .success(.hello):
                break
            case .failure(let error):
                out.line("app: ✖ \(TTY.safe(error.message))")
            }
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
        guard let change = session.goToLastChange(of: path) else {
            out.line("no step before \(from) changed \(path)")
            return false
        }
        // The path followed: an item named by id, wherever it sat.
        out.line("\(change.path) was last changed before step \(from) at step \(session.step):")
        return true
    }

    /// The header line of a step in the line-command mode.
    static func describe(_ session: StepSession) throws(TraceChangedError) -> String {
        guard let event = try session.readEvent() else {
            return "step 0 of \(session.lastStep): before any event"
        }
        var text =
            "step \(session.step) of \(session.lastStep): "
            + EventLine.fitting([event], style: Style(enabled: false)).text(event, problems: session.currentProblems)
            .trimmingCharacters(in: " ")
        for problem in session.currentProblems {
            text += "\n  \(problem.severity.rawValue): \(TTY.safe(problem.message))"
        }
        if let stack = event.stack, !stack.isEmpty {
            for line in CallStackText(stack, sourceRoot: session.sourceRoot).lines { text += "\n  \(TTY.safe(line))" }
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
