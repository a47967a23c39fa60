import TimeTravel
import TraceReader

/// The full-screen view of `inspector step` as a value: where the person is (`session`), what the
/// screen shows (`screen`), what they are typing; and `update`, a pure function of this state
/// and a key that gives the next state and the effects the caller performs (draw again, quit,
/// stop the process). `Step` runs the loop: it reads keys from the terminal, calls `update`, and
/// does what the effects say, so every key is tested here without a terminal.
struct StepView {
    /// What the caller does after an update.
    struct Effects: OptionSet, Equatable {
        let rawValue: Int
        /// Draw the screen again.
        static let redraw = Effects(rawValue: 1)
        /// Leave the view: restore the terminal and end.
        static let quit = Effects(rawValue: 2)
        /// Stop the process as Ctrl-Z does in a shell (the terminal restored meanwhile).
        static let suspend = Effects(rawValue: 4)
    }

    var session: StepSession
    var screen: StepScreen
    /// The digits of a jump, or `/…` of a search, being typed.
    var typed: String?
    /// Whether validation has finished (its problems are in `session`).
    var validated = false
    /// The screen's height at the last draw, for the page keys.
    var rows = 24
    /// How many lines the lower pane had at the last draw, for clamping the scroll.
    var paneLength = 0
    /// The screen's width and the lower pane's widest line at the last draw, for `<` `>`.
    var columns = 80
    var paneWidth = 0
    /// Whether an app is attached (`--attach`): moving to a step asks it to restore that step.
    private(set) var attached = false
    /// What to ask the attached app, set by `update` and taken by the caller (`takeAppRequest`).
    private(set) var appRequest: ControlRequest?
    /// Whether `r` asked the attached app back to its present and the person has not moved
    /// since: its answer then moves the view to the step it says (the trace's last row is most
    /// often a restore the app wrote, not its present).
    private(set) var awaitsPresent = false
    /// Whether the view is on the attached app's present, moved there by its answer to `r`, and
    /// the person has not moved since: it follows the app's own new events (not the restores).
    private(set) var followsPresent = false
    /// The store `s` started from (the step's store then): `s` goes through the others in
    /// turn from it, then shows all again.
    private var storeCycleStart: String?
    /// Whether a search runs off the input thread: `update` then asks for it
    /// (`takeSearchRequest`) instead of searching, and the caller reports its progress and
    /// outcome. Off, a search is done within `update` (for tests of the keys).
    var searchesInBackground = false
    /// The text of the search running in the background, nil when none runs.
    private(set) var searching: String?
    /// The search asked for by the last key, taken by the caller (`takeSearchRequest`).
    private(set) var searchRequest: (text: String, backward: Bool)?

    init(session: StepSession, style: Style) {
        self.session = session
        self.screen = StepScreen(style: style)
        screen.validating = true
    }

    /// The next state after `key`, and what to do.
    static func update(_ view: StepView, with key: Key) -> (StepView, Effects) {
        var next = view
        let effects = next.update(key)
        return (next, effects)
    }

    /// The screen's lines on a `columns` × `rows` terminal; remembers the height and the pane's
    /// length for the keys that follow.
    mutating func render(columns: Int, rows: Int) -> [String] {
        let frame = screen.render(for: session, columns: columns, rows: rows)
        self.rows = rows
        self.columns = columns
        paneLength = frame.paneLength
        // A narrower screen, or a step with shorter lines, needs less of the sideways scroll (the
        // help and a value shown whole have no pane: the scroll waits for the step's screen).
        if !screen.showsHelp && screen.page == nil {
            paneWidth = frame.paneWidth
            screen.column = min(screen.column, maxColumn)
        }
        return frame.lines
    }

    /// Validation finished with `problems` (by file line): marks them.
    mutating func problemsFound(_ problems: ProblemMarks) -> Effects {
        validated = true
        screen.validating = false
        session.setProblems(problems)
        sayProblems(problems)
        return .redraw
    }

    /// Says once, on the status line, until the next key: how many problems, and the key to the
    /// first; after the reader's warning when it is still shown.
    private mutating func sayProblems(_ problems: ProblemMarks) {
        guard let summary = Self.problemSummary(problems, onEvents: session.problemEvents.count) else { return }
        if screen.message == nil {
            screen.message = summary
        } else if let warning = readerWarning, screen.message == warning {
            screen.message = summary + " · " + warning
        }
    }

    /// What the reader skipped or noticed in the trace (a malformed line), said on the status
    /// line when the view opens, where `inspector step` piped prints it on standard error.
    private(set) var readerWarning: String?

    /// Says the trace's first reader issue (and how many more) on the status line.
    mutating func readerIssues(_ issues: [TraceReadIssue]) {
        guard let first = issues.first else { return }
        let more = issues.count > 1 ? " (and \(issues.count - 1) more: inspector validate lists them)" : ""
        readerWarning = "⚠ line \(first.line): \(TTY.safe(first.message))\(more)"
        if screen.message == nil { screen.message = readerWarning }
    }

    /// `2 problems (1 error, 1 warning): ] goes to the first`; nil when there is none.
    static func problemSummary(_ problems: ProblemMarks, onEvents: Int) -> String? {
        let all = problems
        guard !all.isEmpty else { return nil }
        let warnings = problems.warnings
        let errors = problems.errors
        var kinds: [String] = []
        if errors > 0 { kinds.append(errors == 1 ? "1 error" : "\(errors) errors") }
        if warnings > 0 { kinds.append(warnings == 1 ? "1 warning" : "\(warnings) warnings") }
        let count = all.count == 1 ? "1 problem" : "\(all.count) problems"
        let key =
            onEvents == 0
            ? "none on an event: inspector validate lists them"
            : all.count == 1 ? "] goes to it" : "] goes to the first"
        return "\(count) (\(kinds.joined(separator: ", "))): \(key)"
    }

    /// Validation could not read the file (it changed since it was opened): says so, and marks
    /// no problem.
    mutating func validationFailed(_ error: FileError) -> Effects {
        validated = true
        screen.validating = false
        screen.message = "cannot validate: \(error)"
        return .redraw
    }

    // MARK: Following and attaching

    /// Follows the trace as it grows (`--follow`): the status line says so.
    mutating func follow() {
        screen.following = true
    }

    /// The whole file's widest action name and arguments are known (`ListWidthScan`): the
    /// list's columns are sized by them from now on. Widths only grow (a trace that grew is
    /// scanned again), so a column never moves back.
    mutating func listWidthsFound(_ widths: ListTextWidths) -> Effects {
        var grown = screen.listWidths ?? widths
        grown.formUnion(widths)
        guard grown != screen.listWidths else { return [] }
        screen.listWidths = grown
        return .redraw
    }

    /// The trace grew, or was written anew: the view stays on the step the person looks at,
    /// unless it is the last one, and marks the problems found in the new trace (nil: none yet).
    mutating func traceChanged(_ trace: TraceFile, problems: ProblemMarks?) -> Effects {
        let before = session.trace.eventCount
        let step = session.step
        session.traceChanged(trace, problems: problems ?? session.problems)
        // Attached, the app writes a restore per store for each step the person moves to: the
        // view stays where the person is, and follows only the app's own new events (on its
        // present, after `r`: to the last of them).
        if attached && trace.eventCount > before {
            let added = before..<trace.eventCount
            if followsPresent, let own = added.last(where: { trace.event(at: $0)?.type != "restore" }) {
                _ = session.go(toStep: trace.step(ofEventAt: own) ?? step)
            } else if added.allSatisfy({ trace.event(at: $0)?.type == "restore" }) {
                _ = session.go(toStep: step)
            }
        }
        if let problems {
            // The first validation is said as `problemsFound` says it; later ones (a followed
            // trace that grew) mark their problems without a message.
            let first = !validated
            validated = true
            screen.validating = false
            if first { sayProblems(problems) }
        }
        return .redraw
    }

    /// An app is attached (`--attach`): from now on, each move to a step asks it to restore that
    /// step, and `r` asks it back to its present.
    mutating func attach() {
        attached = true
        screen.following = true
        screen.appStatus = "live"
    }

    /// The request for the attached app that the last key made, if any; taking it clears it.
    mutating func takeAppRequest() -> ControlRequest? {
        defer { appRequest = nil }
        return appRequest
    }

    /// The attached app answered `request` (or could not be reached).
    mutating func appAnswered(_ request: ControlRequest, _ outcome: Result<ControlReply, ControlChannelError>)
        -> Effects
    {
        switch outcome {
        case .success(.restored(let step, let present, _, _, let kept)):
            screen.appStatus = present ? "live (back at its present, step \(step))" : "at step \(step)"
            if present && request == .present && awaitsPresent {
                awaitsPresent = false
                followsPresent = session.go(nearStep: step) != nil
                screen.scroll = 0
            }
            if !kept.isEmpty {
                screen.message =
                    "kept the app's live value of \(kept.map { TTY.safe($0) }.joined(separator: ", ")) (redacted in the trace)"
            }
        case .success(.error(let message)):
            screen.appStatus = "✖ " + TTY.safe(message)
        case .success(.hello):
            break
        case .failure(let error):
            screen.appStatus = "✖ " + TTY.safe(error.message)
        }
        return .redraw
    }

    // MARK: Searching

    /// The search the last key asked for, if any; taking it clears it. The caller cancels the
    /// search running before, if any, and starts this one.
    mutating func takeSearchRequest() -> (text: String, backward: Bool)? {
        defer { searchRequest = nil }
        return searchRequest
    }

    /// Searches for `text`: at once, or in the background (the status line says so).
    private mutating func startSearch(_ text: String, backward: Bool) {
        if searchesInBackground {
            searching = text
            searchRequest = (text, backward)
            screen.message = Self.searchingMessage(text, percent: 0)
        } else if !session.find(text, backward: backward) {
            screen.message = Self.notFound(text)
        }
    }

    static func searchingMessage(_ text: String, percent: Int) -> String {
        "finding \"\(TTY.safe(text))\"… \(percent)% (Esc cancels)"
    }

    /// The background search has scanned `percent` of the trace.
    mutating func searchProgress(_ percent: Int) -> Effects {
        guard let text = searching else { return [] }
        let message = Self.searchingMessage(text, percent: percent)
        guard screen.message != message else { return [] }
        screen.message = message
        return .redraw
    }

    /// The background search for `text` ended: goes to what it found, or says it found nothing.
    mutating func searchFinished(_ text: String, found: Int?) -> Effects {
        guard searching == text else { return [] }
        searching = nil
        let stepBefore = session.step
        session.searched(text, found: found)
        screen.message = found == nil ? Self.notFound(text) : nil
        screen.scroll = 0
        if attached && session.step != stepBefore {
            awaitsPresent = false
            followsPresent = false
            appRequest = .restore(step: session.step)
            screen.appStatus = "restoring step \(session.step)…"
        }
        return .redraw
    }

    /// Applies `key`; returns what the caller must do.
    mutating func update(_ key: Key) -> Effects {
        let stepBefore = session.step
        let effects = apply(key)
        if attached && !effects.contains(.quit) {
            if key == .character("r") && typed == nil {
                // The view moves when the app says which step its present is (`appAnswered`).
                appRequest = .present
                awaitsPresent = true
                screen.appStatus = "going back to its present…"
            } else if session.step != stepBefore {
                awaitsPresent = false
                followsPresent = false
                appRequest = .restore(step: session.step)
                screen.appStatus = "restoring step \(session.step)…"
            }
        }
        return effects
    }

    /// Applies `key` to the view.
    private mutating func apply(_ key: Key) -> Effects {
        switch key {
        case .tick: return []
        case .resize, .continued: return .redraw
        case .suspend: return [.suspend, .redraw]
        default: break
        }
        if let entry = typed {
            typing(key, entry)
            return .redraw
        }
        if searching != nil && key == .escape {
            // The caller sees that no search is wanted any more and cancels it.
            searching = nil
            screen.message = "search cancelled"
            return .redraw
        }
        if screen.showsHelp && key != .interrupt {
            helpKey(key)
            return .redraw
        }
        if screen.page != nil && key != .interrupt {
            pageKey(key)
            return .redraw
        }
        screen.message = nil
        switch key {
        case .right, .character("l"), .character("n"):
            if !session.next() { screen.message = "this is the last step" }
            screen.scroll = 0
        case .left, .character("h"), .character("p"):
            if !session.previous() { screen.message = "this is step 0" }
            screen.scroll = 0
        case .home, .character("g"):
            session.first()
            screen.scroll = 0
        case .end, .character("G"):
            session.last()
            screen.scroll = 0
        case .character("]"), .character("["):
            nextProblem(forward: key == .character("]"))
        case .tab:
            screen.pane = screen.pane == .diff ? .state : .diff
            screen.scroll = 0
            screen.column = 0
        case .character(">"):
            if screen.column >= maxColumn { screen.message = "the pane's lines end here" }
            screen.column = min(maxColumn, screen.column + sidewaysStep)
        case .character("<"):
            screen.column = max(0, screen.column - sidewaysStep)
        case .character("+"), .character("-"):
            fold(deeper: key == .character("+"))
        case .character("e"):
            expand()
        case .down, .character("j"):
            screen.scroll += 1
        case .up, .character("k"):
            screen.scroll = max(0, screen.scroll - 1)
        case .pageDown:
            screen.scroll += max(1, rows / 2)
        case .pageUp:
            screen.scroll = max(0, screen.scroll - max(1, rows / 2))
        case .character("v"):
            if let path = screen.selectNextValue(in: session) {
                screen.message = "value \(path) (w: jump to the step that last changed it)"
            } else {
                screen.message = "this step changed no value"
            }
        case .character("w"):
            whoSet()
        case .character("b"):
            let from = session.step
            if let earlier = session.backInStore() {
                screen.message =
                    "back from step \(from) to \(TTY.safe(earlier.store ?? "?"))'s previous step"
                    + (earlier.to.map { ", into \(TTY.safe($0))" } ?? "")
            } else {
                screen.message =
                    session.event == nil ? "step 0 has no store" : "this is the first step of its store"
            }
            screen.scroll = 0
        case .character("?"):
            screen.showsHelp = true
            screen.scroll = 0
        case .character("N"):
            if let text = session.lastSearch {
                startSearch(text, backward: true)
            } else {
                screen.message = "nothing to find again: / TEXT Enter first"
            }
            screen.scroll = 0
        case .character("s"), .character("a"), .character("c"), .character("!"), .character("F"):
            filterKey(key)
        case .character("/"):
            typed = "/"
            screen.message = "find: "
        case .character(let character) where character.isASCII && character.isNumber:
            typed = String(character)
            screen.message = "jump to step \(character)"
        case .character("q"), .interrupt:
            return .quit
        default:
            break
        }
        screen.scroll = min(screen.scroll, max(0, paneLength - 1))
        return .redraw
    }

    /// The message for a jump to a step that no event has (its line was skipped).
    static func noEvent(_ step: Int, showing reached: Int) -> String {
        "no event has step \(step) (its line was skipped: see the problem here); showing step \(reached), the next one"
    }

    /// The message for a search that found nothing (in the view, and piped `find`).
    static func notFound(_ text: String) -> String {
        "no store, action, argument or new state value matches \"\(TTY.safe(text))\""
    }

    /// `s` `a` `c` `!` `F`: narrow the list to a store (each in turn, then all again), to this
    /// step's action (again: any), to steps that changed something, to steps with a problem;
    /// `F` shows every event again.
    private mutating func filterKey(_ key: Key) {
        var filter = session.filter
        switch key {
        case .character("s"):
            // The current step's store first, then each other in turn, then all again.
            let stores = session.trace.storeNames
            if let store = filter.store, let index = stores.firstIndex(of: store) {
                let next = (index + 1) % stores.count
                let start = storeCycleStart.flatMap { stores.firstIndex(of: $0) } ?? 0
                filter.store = next == start ? nil : stores[next]
            } else {
                filter.store = session.event?.store ?? stores.first
                storeCycleStart = filter.store
            }
        case .character("a"):
            if filter.action != nil {
                filter.action = nil
            } else if let event = session.event {
                filter.action = EventLine.action(of: event)
            } else {
                screen.message = "step 0 has no action: step to an event first"
                return
            }
        case .character("c"): filter.changedOnly.toggle()
        case .character("!"): filter.problemsOnly.toggle()
        default: filter = EventFilter()
        }
        session.filter = filter
        screen.message = filter.isEmpty ? "showing every event" : nil
        // The list shows only what passes: from a step that does not, go to the nearest that does.
        if session.position > 0 && !session.passes(session.position - 1) {
            if !session.next() && !session.previous() { screen.message = "no event passes the filter" }
        }
    }

    /// A key on the help screen: the arrows and page keys scroll it, any other key but Ctrl-C
    /// closes it (and
    /// does nothing else, so a person who presses `q` there is back where they were, not gone).
    private mutating func helpKey(_ key: Key) {
        // The render reports the help's length as the number of places it can scroll to.
        let last = max(0, paneLength - 1)
        switch key {
        case .down, .character("j"): screen.scroll = min(screen.scroll + 1, last)
        case .up, .character("k"): screen.scroll = max(0, screen.scroll - 1)
        case .pageDown: screen.scroll = min(screen.scroll + max(1, rows / 2), last)
        case .pageUp: screen.scroll = max(0, screen.scroll - max(1, rows / 2))
        default:
            screen.showsHelp = false
            screen.scroll = 0
        }
    }

    /// The columns `<` and `>` move the pane by: half the screen, so what was at the edge
    /// comes to the middle.
    private var sidewaysStep: Int { max(8, columns / 2) }

    /// The furthest the pane scrolls sideways: until its widest line's end is on screen (the
    /// first column showing `…`).
    private var maxColumn: Int { max(0, paneWidth - columns + 1) }

    /// `+` `-`: one level more or fewer of the app state open, in the state pane (which they
    /// show when the diff was shown).
    private mutating func fold(deeper: Bool) {
        if screen.pane != .state {
            screen.pane = .state
            screen.scroll = 0
            screen.column = 0
        } else if deeper {
            screen.levels += 1
        } else if screen.levels > 0 {
            screen.levels -= 1
        }
        screen.message =
            screen.levels == 0
            ? "every store folded (+ opens a level)" : "\(screen.levels) levels open (+ more, - fewer)"
    }

    /// `e`: the value picked with `v` (or the first the step changed) whole, before and after;
    /// on a step that changed nothing, its store's whole state (at step 0, the app's).
    private mutating func expand() {
        let step = session.step
        if let path = screen.selectedPath(in: session),
            let change = (try? session.readDiff())?.changes.first(where: { $0.path == path })
        {
            screen.page = ValuePage(change: change, step: step)
        } else if let state = try? session.readAppState() {
            if let store = session.event?.store, let value = state[store] {
                screen.page = ValuePage(whole: value, name: TTY.safe(store), step: step)
            } else {
                screen.page = ValuePage(whole: .object(state), name: "the app state", step: step)
            }
        } else {
            screen.message = "cannot read the state at step \(step)"
            return
        }
        screen.scroll = 0
    }

    /// A key on a value shown whole: the arrows and page keys scroll it; `q`, Esc, `e` and Enter
    /// go back to the step (other keys do nothing, so an arrow never moves the step unseen).
    private mutating func pageKey(_ key: Key) {
        let last = max(0, paneLength - 1)
        switch key {
        case .down, .character("j"): screen.scroll = min(screen.scroll + 1, last)
        case .up, .character("k"): screen.scroll = max(0, screen.scroll - 1)
        case .pageDown, .character(" "): screen.scroll = min(screen.scroll + max(1, rows / 2), last)
        case .pageUp: screen.scroll = max(0, screen.scroll - max(1, rows / 2))
        case .home, .character("g"): screen.scroll = 0
        case .end, .character("G"): screen.scroll = last
        case .character("q"), .escape, .character("e"), .enter:
            screen.page = nil
            screen.scroll = 0
        default: break
        }
    }

    /// A key while a jump or a search is being typed.
    private mutating func typing(_ key: Key, _ entry: String) {
        var entry = entry
        switch key {
        case .enter:
            typed = nil
            if entry.hasPrefix("/") {
                let text = String(entry.dropFirst())
                if let needle = text.isEmpty ? session.lastSearch : text {
                    screen.message = nil
                    startSearch(needle, backward: false)
                } else {
                    screen.message = Self.notFound("")
                }
            } else if let step = Int(entry), let reached = session.go(nearStep: step) {
                screen.message = reached == step ? nil : Self.noEvent(step, showing: reached)
            } else {
                screen.message = "no step \(entry): steps go from 0 to \(session.trace.lastStep)"
            }
            screen.scroll = 0
        case .escape, .interrupt:
            typed = nil
            screen.message = nil
        case .backspace:
            entry.removeLast()
            typed = entry.isEmpty ? nil : entry
            screen.message = typed.map {
                $0.hasPrefix("/") ? "find: \(TTY.safe(String($0.dropFirst())))" : "jump to step \($0)"
            }
        case .character(let character):
            // A search takes any text; a jump only digits (0-9: `Int` reads no other).
            if entry.hasPrefix("/") || (character.isASCII && character.isNumber) {
                entry.append(character)
                typed = entry
            }
            screen.message =
                entry.hasPrefix("/") ? "find: \(TTY.safe(String(entry.dropFirst())))" : "jump to step \(entry)"
        default:
            break
        }
    }

    private mutating func nextProblem(forward: Bool) {
        if !session.nextProblem(forward: forward) {
            screen.message =
                !validated
                ? "still validating; problems are marked when it is done"
                : session.problemEvents.isEmpty
                    ? "no problems in this trace"
                    : forward ? "no problem after this step" : "no problem before this step"
        }
        screen.scroll = 0
    }

    /// `w`: jump to the step that last changed the picked value before this one.
    private mutating func whoSet() {
        if let path = screen.selectedPath(in: session) {
            let from = session.step
            if let change = session.goToLastChange(of: path) {
                screen.message =
                    "\(path) was last changed before step \(from) here, by \(TTY.safe(change.event.store ?? "?")).\(TTY.safe(EventLine.action(of: change.event)))"
            } else {
                screen.message = "no step before \(from) changed \(path)"
            }
        } else if let store = session.event?.store, let history = session.caseHistory, let entry = history.entry {
            // Nothing changed (an illegal loading → loading): who set the case it stayed in?
            let from = session.step
            _ = session.go(toStep: session.trace.step(ofEventAt: entry.index) ?? entry.seq)
            screen.message =
                "\(TTY.safe(store)) entered \(TTY.safe(history.caseName)) here (step \(from) changed nothing), by \(TTY.safe(EventLine.action(of: entry)))"
        } else {
            screen.message = "this step changed no value; press w on a step whose diff shows one"
        }
        screen.scroll = 0
    }
}
