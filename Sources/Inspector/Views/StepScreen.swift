import TraceReader

/// The full-screen view of `inspector step`, drawn from a `StepSession`: the events around the
/// current step, the diff that step made (or the whole app state), a status line and a line of
/// key hints; or, after `?`, the help screen listing every key.
struct StepScreen {
    enum Pane { case diff, state }

    var pane: Pane = .diff
    /// How far the lower pane is scrolled.
    var scroll = 0
    /// A message for the status line (a failed search, a number being typed).
    var message: String?
    var style: Style
    /// The changed value picked with `v` for `w`: its place in `StepSession.changedPaths`, at
    /// the position it was picked (another step forgets it).
    var selectedValue: (position: Int, index: Int)?
    /// Whether validation is still running (problems are not marked yet).
    var validating = false
    /// Whether the trace is followed as the app appends to it (`--follow`, `--attach`).
    var following = false
    /// How far the whole trace is indexed, in percent, while the view shows its first part.
    var indexing: Int?
    /// Where the attached app is (`--attach`), for the status line.
    var appStatus: String?
    /// Whether the help screen (`?`) is shown instead of the step.
    var showsHelp = false

    /// The screen's lines for `session` on a `columns` × `rows` terminal.
    func lines(for session: StepSession, columns: Int, rows: Int) -> [String] {
        render(for: session, columns: columns, rows: rows).lines
    }

    /// The screen's lines, and how many lines the lower pane has in all (for clamping scroll
    /// without building the pane a second time).
    func render(for session: StepSession, columns: Int, rows: Int) -> (lines: [String], paneLength: Int) {
        let rows = max(rows, 8)
        if showsHelp {
            let length = StepKeys.helpLines(width: columns).count
            return (helpScreen(for: session, columns: columns, rows: rows), max(0, length - (rows - 4)) + 1)
        }
        var lines: [String] = []
        let trace = session.trace
        let title = " Rewind · \(TTY.safe(trace.header.app ?? "trace")) · \(TTY.safe(trace.path))"
        lines.append(style.inverse(ScreenText.fit(title, width: columns)))

        // Events around the current one.
        let listRows = max(3, (rows - 4) * 2 / 5)
        let current = session.position - 1
        let indices = Self.listed(around: current, rows: listRows, in: session)
        let events = indices.compactMap { trace.event(at: $0) }
        // Arguments shortened to leave room for the rest: 20 columns at 80, 40 from 160 on.
        let format = EventLine.fitting(events, style: style, argsLimit: min(40, max(12, columns / 4)))
        for (offset, event) in events.enumerated() {
            let index = indices[offset]
            let marker = index == current ? "▶" : " "
            // The problem mark goes up front, so a narrow terminal never cuts it off.
            let found = session.problems[event.line] ?? []
            let glyph =
                found.isEmpty ? " " : found.contains { $0.severity != .warning } ? style.red("✖") : style.yellow("⚠")
            let text = marker + glyph + format.text(event, problems: found)
            lines.append(index == current ? style.bold(text) : text)
        }
        if session.position == 0 { lines.append(style.dim("▶ step 0: before the first event")) }
        while lines.count < 1 + listRows { lines.append("") }

        // The lower pane.
        let paneRows = rows - lines.count - 3
        let body = paneLines(for: session, width: columns)
        let heading: String
        switch pane {
        case .diff:
            if let event = session.event {
                let source = event.source.map { ", \(TTY.safe($0))" } ?? ""
                heading =
                    "── what step \(session.step) changed: \(TTY.safe(event.store ?? "?")).\(TTY.safe(EventLine.action(of: event)))\(source) "
            } else {
                heading = "── step 0: no store yet "
            }
        case .state:
            heading = "── the app state at step \(session.step) "
        }
        lines.append(style.dim(heading + String(repeating: "─", count: max(0, columns - ScreenText.width(heading)))))
        // The current step's problems come first, in full (wrapped, never cut at the edge):
        // they are why a person is here.
        var problemLines: [String] = []
        for problem in session.currentProblems {
            let mark = problem.severity == .warning ? style.yellow("⚠ warning") : style.red("✖ error")
            problemLines += ScreenText.wrapped(
                "\(TTY.safe(problem.message)) [\(problem.kind)]", lead: "\(mark): ", width: columns - 1)
        }
        if !problemLines.isEmpty {
            problemLines.append("")
            // How the store got into the case it broke a rule from, with the causes.
            if let history = session.caseHistory, let store = session.event?.store {
                problemLines += history.lines(store: store, in: trace, style: style) + [""]
            }
        }
        let start = min(scroll, max(0, body.count - (paneRows - problemLines.count)))
        lines.append(contentsOf: (problemLines + body.dropFirst(start)).prefix(paneRows))
        while lines.count < rows - 2 { lines.append("") }
        lines.append(statusLine(for: session, columns: columns))
        lines.append(style.dim(StepKeys.hints(width: columns, attached: appStatus != nil)))
        return (lines.map { ScreenText.fit($0, width: columns) }, problemLines.count + body.count)
    }

    /// The indices of the events the list shows: the current one and those around it that pass
    /// the filter, about half before and half after.
    static func listed(around current: Int, rows: Int, in session: StepSession) -> [Int] {
        let count = session.trace.eventCount
        guard !session.filter.isEmpty else {
            var first = max(0, current - rows / 2)
            first = max(0, min(first, count - rows))
            return Array(first..<min(count, first + rows))
        }
        // Each look is bounded, so a filter that matches little stays quick on a huge trace.
        let budget = 20_000
        func neighbours(_ wanted: Int, forward: Bool) -> [Int] {
            var found: [Int] = []
            var index = current
            while found.count < wanted,
                let next = session.matchingIndex(after: index, forward: forward, limit: budget)
            {
                found.append(next)
                index = next
            }
            return forward ? found : found.reversed()
        }
        let own = current >= 0 ? [current] : []
        var before = neighbours(rows / 2, forward: false)
        let after = neighbours(rows - before.count - own.count, forward: true)
        if before.count + own.count + after.count < rows {
            before = neighbours(rows - own.count - after.count, forward: false)
        }
        return before + own + after
    }

    /// The help screen (`?`): every key and what it does, under the title bar.
    private func helpScreen(for session: StepSession, columns: Int, rows: Int) -> [String] {
        let title = " Rewind · \(TTY.safe(session.trace.header.app ?? "trace")) · keys "
        var lines = [style.inverse(ScreenText.fit(title, width: columns)), ""]
        let room = rows - 4
        let help = StepKeys.helpLines(width: columns)
        lines += help.dropFirst(min(scroll, max(0, help.count - room))).prefix(room)
        while lines.count < rows - 2 { lines.append("") }
        lines.append(style.inverse(ScreenText.fit(" any key goes back to step \(session.step)", width: columns)))
        lines.append(style.dim(help.count > room ? " ↑ ↓ PgUp PgDn scroll  any other key goes back" : ""))
        return lines.map { ScreenText.fit($0, width: columns) }
    }

    /// The status line: the file, the step, its time, its problem, and the message.
    private func statusLine(for session: StepSession, columns: Int) -> String {
        let trace = session.trace
        let fileName = trace.path.split(separator: "/").last.map(String.init) ?? trace.path
        var status = " \(TTY.safe(fileName)) · step \(session.step) of \(session.lastStep)"
        if let elapsed = session.event?.elapsed { status += " · " + EventLine.offset(elapsed) }
        if let problem = session.currentProblems.first {
            status += " · " + (problem.severity == .warning ? "⚠ " : "✖ ") + problem.kind.rawValue
        }
        if following { status += session.isAtEnd ? " · following" : " · paused (G: follow)" }
        if !session.filter.isEmpty { status += " · filter: " + session.filter.summary }
        if let indexing { status += " · indexing \(indexing)%…" }
        if validating { status += " · validating…" }
        if let appStatus { status += " · app: " + appStatus }
        if let message { status += " · " + message }
        return style.inverse(ScreenText.fit(status, width: columns))
    }

    /// The changed value `w` asks about: the one picked with `v` at this step, or the first.
    func selectedPath(in session: StepSession) -> StatePath? {
        let paths = session.changedPaths
        guard !paths.isEmpty else { return nil }
        guard let selectedValue, selectedValue.position == session.position, paths.indices.contains(selectedValue.index)
        else {
            return paths[0]
        }
        return paths[selectedValue.index]
    }

    /// Picks the next value the current step changed (wrapping around); returns its path.
    mutating func selectNextValue(in session: StepSession) -> StatePath? {
        let paths = session.changedPaths
        guard !paths.isEmpty else { return nil }
        var index = 0
        if let selectedValue, selectedValue.position == session.position {
            index = (selectedValue.index + 1) % paths.count
        }
        selectedValue = (session.position, index)
        return paths[index]
    }

    /// The lower pane's full text, before scrolling.
    func paneLines(for session: StepSession, width: Int) -> [String] {
        do throws(TraceReadError) {
            return try readPaneLines(for: session, width: width)
        } catch {
            // Never an empty state for a line that cannot be read: say so.
            return [style.red("✖ cannot show step \(session.step): \(TTY.safe(error.description))")]
        }
    }

    private func readPaneLines(for session: StepSession, width: Int) throws(TraceReadError) -> [String] {
        switch pane {
        case .diff:
            let diff = try session.readDiff()
            if session.position == 0 { return ["Nothing has happened yet. Press → to see the first event."] }
            // The action's arguments in full, wrapped: the list shows them shortened.
            let args = ActionArgumentsText.text(session.event?.args)
            let argsLines =
                args.isEmpty ? [] : ScreenText.wrapped(args, lead: "args: ", width: width - 1) + [""]
            if diff.isEmpty {
                return argsLines + [
                    session.event?.changed == false
                        ? "No change: the action left the state as it was." : "This event changes no state."
                ]
            }
            var printer = StateDiffPrinter(width: max(40, width - 2), terminalSafe: true, colors: style.enabled)
            // The screen cuts lines at its edge: show where a long string changed.
            printer.showsChangedPartOfLongStrings = true
            if let store = session.event?.store,
                let change = EnumCaseChange(
                    before: diff.before.objectValue?[store], after: diff.after.objectValue?[store])
            {
                return argsLines + change.lines(store: store, printer: printer, style: style)
            }
            return argsLines
                + printer.text(diff).split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter {
                    !$0.isEmpty
                }
        case .state:
            let text = JSONPrinter.pretty(.object(try session.readAppState()), terminalSafe: true)
            return text.split(separator: "\n").map(String.init)
        }
    }
}
