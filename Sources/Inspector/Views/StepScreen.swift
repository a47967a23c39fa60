import TraceJSON
import TraceQueries
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
    /// How far the lower pane is scrolled sideways, in columns (`<` `>`).
    var column = 0
    /// How many levels of the app state are open in the state pane (`+` `-`; see `StateOutline`).
    var levels = StepScreen.defaultLevels
    /// A value shown whole (`e`) instead of the step.
    var page: ValuePage?
    /// The widest action name, from → to and arguments of the whole trace, which the list's
    /// columns are sized for (`EventLine.forList`); nil until the file is scanned (the rows shown size them
    /// meanwhile).
    var listWidths: ListTextWidths?

    /// The levels of the app state open at first: a usual state whole, a deep one folded.
    static let defaultLevels = 6

    /// The screen's lines for `session` on a `columns` × `rows` terminal.
    func lines(for session: StepSession, columns: Int, rows: Int) -> [String] {
        render(for: session, columns: columns, rows: rows).lines
    }

    /// The screen's lines, how many lines the lower pane has in all and how wide its widest
    /// line is (for clamping the scroll without building the pane a second time).
    func render(for session: StepSession, columns: Int, rows: Int) -> (
        lines: [String], paneLength: Int, paneWidth: Int
    ) {
        let rows = max(rows, 8)
        if showsHelp {
            let length = StepKeys.helpLines(width: columns).count
            return (helpScreen(for: session, columns: columns, rows: rows), max(0, length - (rows - 4)) + 1, 0)
        }
        if let page {
            let body = page.lines(width: columns)
            // As for the help: the number of places it can scroll to.
            let places = max(0, body.count - (rows - 3)) + 1
            return (pageScreen(page, body, for: session, columns: columns, rows: rows), places, 0)
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
        let format = EventLine.forList(
            events, in: trace, lastStep: session.lastStep, widths: listWidths, columns: columns, style: style,
            argsLimit: min(40, max(12, columns / 4)), widestProblemKind: session.problems.widestKind)
        for (offset, event) in events.enumerated() {
            let index = indices[offset]
            let marker = index == current ? "▶" : " "
            // The problem mark goes up front, so a narrow terminal never cuts it off.
            let found = session.problems(ofEventAt: index)
            let glyph =
                found.isEmpty ? " " : found.contains { $0.severity != .warning } ? style.red("✖") : style.yellow("⚠")
            let text = marker + glyph + " " + format.text(event, problems: found)
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
            heading = "── the app state at step \(session.step), \(levels) levels open (+ - e) "
        }
        let sideways = column > 0 ? "from column \(column + 1) (< >) " : ""
        lines.append(
            style.dim(
                heading + sideways
                    + String(repeating: "─", count: max(0, columns - ScreenText.width(heading + sideways)))))
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
        // The call stack that sent the action, where the trace recorded it: after the history,
        // which a small terminal must still show.
        if let stack = session.event?.stack, !stack.isEmpty {
            for line in CallStackText(stack, sourceRoot: session.sourceRoot).lines {
                problemLines += ScreenText.wrapped(TTY.safe(line), lead: "", width: columns - 1)
            }
            problemLines.append("")
        }
        let start = min(scroll, max(0, body.count - (paneRows - problemLines.count)))
        // Scrolled sideways, the pane's lines (not the problems, which are wrapped) start at `column`.
        let shown = body.dropFirst(start).prefix(max(0, paneRows - problemLines.count)).map {
            ScreenText.from(column: column, of: $0)
        }
        lines.append(contentsOf: (problemLines + shown).prefix(paneRows))
        while lines.count < rows - 2 { lines.append("") }
        lines.append(statusLine(for: session, columns: columns))
        lines.append(style.dim(StepKeys.hints(width: columns, attached: appStatus != nil)))
        let widest = body.lazy.map { ScreenText.width($0) }.max() ?? 0
        return (lines.map { ScreenText.fit($0, width: columns) }, problemLines.count + body.count, widest)
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

    /// A value shown whole (`e`), scrolled as the help is, under the title bar; the status line
    /// as on the step's screen, and the keys that scroll and go back.
    private func pageScreen(_ page: ValuePage, _ body: [String], for session: StepSession, columns: Int, rows: Int)
        -> [String]
    {
        let title = " Rewind · \(TTY.safe(session.trace.header.app ?? "trace")) · \(page.title) "
        var lines = [style.inverse(ScreenText.fit(title, width: columns))]
        let room = rows - 3
        lines += body.dropFirst(min(scroll, max(0, body.count - room))).prefix(room)
        while lines.count < rows - 2 { lines.append("") }
        lines.append(statusLine(for: session, columns: columns))
        let more = body.count > room ? "↑ ↓ PgUp PgDn scroll  " : ""
        lines.append(style.dim(" " + more + "q Esc e: back to the step"))
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

    /// The diff's lines; when every change is deeper than the open `levels`, the diff of the
    /// deepest part that holds them all, under a line naming its path (shortened in the middle),
    /// so a change 60 levels down is on the first screen rather than under 60 levels of context.
    private func deepDiffLines(_ diff: StateDiff, printer: StateDiffPrinter) -> [String] {
        func lines(_ text: String) -> [String] {
            text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
        }
        let paths = diff.changes.map(\.path.components)
        guard var common = paths.first else { return lines(printer.text(diff)) }
        for path in paths.dropFirst() {
            common = Array(zip(common, path).prefix { $0.0 == $0.1 }.map(\.0))
        }
        // Two levels above the changes stay for context.
        guard common.count - 2 > max(1, levels) else { return lines(printer.text(diff)) }
        let anchor = StatePath(Array(common.prefix(common.count - 2)))
        guard let before = anchor.resolve(in: diff.before), let after = anchor.resolve(in: diff.after) else {
            return lines(printer.text(diff))
        }
        let heading =
            "in \(StateOutline.shortened(anchor.components)) (\(anchor.components.count) levels down; e: its whole path):"
        return [style.dim(heading)] + lines(printer.text(StateDiff(from: before, to: after))).map { "  " + $0 }
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
            printer.namesItemsByID = true
            if let store = session.event?.store,
                let change = EnumCaseChange(
                    before: diff.before.objectValue?[store], after: diff.after.objectValue?[store])
            {
                return argsLines + change.lines(store: store, printer: printer, style: style)
            }
            return argsLines + deepDiffLines(diff, printer: printer)
        case .state:
            return StateOutline(levels: levels, changed: session.changedPaths).lines(try session.readAppState())
        }
    }
}
