import TraceReader

/// One event on one line, as `log` prints it and `step` lists it:
///
///     16  +0.0213s  CatalogStore  toLoading   loading → loading  (no change)  CatalogStore.swift:31
///     17  +0.0215s  CartStore     add         sku: "MUG", quantity: 2  CartView.swift:12
///
/// The action's `args` follow it (see `ActionArgumentsText`): shortened to `argsLimit` columns
/// in the step view's list, whole in `log`. Every string from the trace is made terminal-safe.
struct EventLine {
    var storeWidth = 14
    var actionWidth = 12
    /// The column the arguments are padded to; 0 when no event shown has any.
    var argsWidth = 0
    /// The most columns of arguments shown, `…` marking the cut; nil for all of them.
    var argsLimit: Int?
    var style = Style(enabled: false)
    /// The step view's list (`forList`): the step column's width, and the from → to column
    /// before the arguments, padded to `detailWidth`, with times of six decimals right-aligned
    /// in `timeWidth` columns after them, so that what a person reads first is never cut first
    /// and the columns do not move as the list scrolls.
    var seqWidth = 6
    var detailFirst = false
    var detailWidth = 0
    var timeWidth = 0
    /// Whether the store, action and arguments are cut to their columns (`…` ending a cut
    /// one), so that the columns after them stay put: the list's; `log` prints them whole.
    var cutsColumns = false

    /// Widths that fit the stores, actions and arguments of `events`; arguments longer than
    /// `argsLimit` columns are cut (nil: never, the column then at most 40 wide, longer ones
    /// pushing the rest of their line right).
    static func fitting(_ events: [TraceEvent], style: Style, argsLimit: Int? = nil) -> EventLine {
        let stores = events.map { ScreenText.width(TTY.safe($0.store ?? "")) }.max() ?? 0
        let actions = events.map { ScreenText.width(TTY.safe(action(of: $0))) }.max() ?? 0
        let args = events.map { ScreenText.width(ActionArgumentsText.text($0.args)) }.max() ?? 0
        return EventLine(
            storeWidth: min(max(stores, 5), 28), actionWidth: min(max(actions, 6), 28),
            argsWidth: min(args, argsLimit ?? 40), argsLimit: argsLimit, style: style)
    }

    /// Widths for the step view's list on a screen `columns` wide. Every width is set by the
    /// whole trace and the screen, never by the rows shown, so no column moves as the list
    /// scrolls: the step column fits the last step, the store column the trace's longest store
    /// name, the action, from → to and arguments columns `widths` (the whole file's,
    /// `ListTextWidths`; the rows of `events` until it is known), the time column the last time.
    ///
    /// What a person reads first is kept whole: the step, store, action, from → to and the
    /// problem's tag end before the screen's last two columns (where a cut line shows `…`).
    /// When they do not fit, the store and action columns give up columns first (the wider one,
    /// down to 8, a long name ending in `…`), then the from → to column (its text is cut, its
    /// tag never); the arguments and the time, read last, come after and are what the screen's
    /// edge cuts. The tag's room fits the widest problem kind of the whole trace
    /// (`widestProblemKind` columns, `ProblemMarks.widestKind`; `  ✖ discontinuity`), so that
    /// a tag is whole wherever the screen has the room, and no column moves as the list scrolls;
    /// a trace with no problem (0) gives it to the arguments.
    static func forList(
        _ events: [TraceEvent], in trace: TraceFile, lastStep: Int, widths: ListTextWidths?, columns: Int,
        style: Style, argsLimit: Int, widestProblemKind: Int = ProblemKind.illegal.rawValue.count
    ) -> EventLine {
        var known = widths ?? ListTextWidths()
        if widths == nil { known.include(events) }
        var format = EventLine(style: style)
        format.detailFirst = true
        format.argsLimit = argsLimit
        format.cutsColumns = true
        format.seqWidth = String(max(0, lastStep)).count
        let stores = trace.storeNames.map { ScreenText.width(TTY.safe($0)) }.max() ?? 0
        var store = min(max(stores, 5), 28)
        var action = min(max(known.action, 6), 28)
        format.argsWidth = min(known.args, argsLimit)
        let tagRoom = widestProblemKind > 0 ? Self.tagLead + widestProblemKind : 0
        let natural = known.detail + tagRoom
        // The row's mark (`▶✖ `), the step, the store and the action with a gap after each; and
        // a space and the `…` that end a line cut after the from → to column.
        let room = columns - (3 + format.seqWidth + 2 + 2 + 2) - 2
        let floor = min(natural, 30)
        while store + action + floor > room && max(store, action) > 8 {
            if action >= store { action -= 1 } else { store -= 1 }
        }
        format.storeWidth = store
        format.actionWidth = action
        format.detailWidth = max(min(natural, room - store - action), min(floor, tagRoom + 4))
        let last = trace.eventCount > 0 ? trace.event(at: trace.eventCount - 1)?.elapsed : nil
        format.timeWidth = max(10, fixedTime(last ?? 0).count)
        return format
    }

    /// The columns of a problem's tag before its kind, after what the event did: `  ✖ `.
    static let tagLead = ScreenText.width("  ✖ ")

    /// `+114.719370s`: six decimals always, so that times line up.
    static func fixedTime(_ value: Double) -> String {
        guard value.isFinite, value.magnitude < 1e9 else { return offset(value) }
        let microseconds = Int((value.magnitude * 1_000_000).rounded())
        let fraction = String(microseconds % 1_000_000)
        let sign = value < 0 && microseconds > 0 ? "-" : "+"
        return "\(sign)\(microseconds / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)s"
    }

    /// `loading → loaded`, `→ idle`, `(no change)`, `(restored step 5)`: what the event did to
    /// its store's case.
    /// `restored`: the list's, which says a restore's step (`log` prints its rows from the
    /// bytes, as they were).
    static func detail(of event: TraceEvent, restored: Bool = true) -> String {
        var detail = caseChange(of: event)
        if event.changed == false { detail += detail.isEmpty ? "(no change)" : "  (no change)" }
        if restored, let step = event.restoredStep {
            detail += (detail.isEmpty ? "" : "  ") + "(restored step \(step))"
        }
        return detail
    }

    /// `loading → loaded`, `→ idle`, or empty: the machine's cases, how `detail` starts, what
    /// the list keeps whole longest.
    static func caseChange(of event: TraceEvent) -> String {
        if let from = event.from, let to = event.to { return "\(TTY.safe(from)) → \(TTY.safe(to))" }
        return event.caseName.map { "→ \(TTY.safe($0))" } ?? ""
    }

    /// The action column: the action's name, `register`, or the event's type.
    static func action(of event: TraceEvent) -> String {
        event.type == "transition" ? (event.action ?? "?") : event.type
    }

    func text(_ event: TraceEvent, problems: [Problem] = []) -> String {
        var parts: [String] = []
        parts.append(pad(String(event.seq), seqWidth, right: true))
        if !detailFirst { parts.append(event.elapsed.map { pad(Self.offset($0), 10) } ?? pad("", 10)) }
        parts.append(style.cyan(column(TTY.safe(event.store ?? "-"), storeWidth)))
        parts.append(style.bold(column(TTY.safe(Self.action(of: event)), actionWidth)))
        let detail = Self.detail(of: event, restored: detailFirst)
        var mark = ""
        var markText = ""
        var worstIsWarning = false
        if let worst = problems.max(by: { $0.severity < $1.severity }) {
            worstIsWarning = worst.severity == .warning
            markText = (worstIsWarning ? "⚠ " : "✖ ") + worst.kind.rawValue
            mark = worstIsWarning ? style.yellow(markText) : style.red(markText)
        }
        // In the list, the problem's tag comes right after what the event did, in its column.
        // When the column is short of room, what follows the cases (`(no change)`) is cut
        // first, then the tag's kind (`✖ discont…`, down to `✖`), then the cases themselves:
        // `calculating → ready` is read first.
        if detailFirst && detailWidth > 0 {
            let gap = detail.isEmpty || mark.isEmpty ? "" : "  "
            let casesColumns = ScreenText.width(Self.caseChange(of: event))
            if !markText.isEmpty && casesColumns + gap.count + ScreenText.width(markText) > detailWidth {
                let room = detailWidth - casesColumns - gap.count
                let glyph = String(markText.prefix(1))
                // `✖ d…` at least, or the glyph alone.
                let cut = room >= 4 ? ScreenText.fit(markText, width: room) : glyph
                markText = cut
                mark = worstIsWarning ? style.yellow(cut) : style.red(cut)
            }
            let markWidth = ScreenText.width(gap + markText)
            var shown = detail
            if ScreenText.width(detail) + markWidth > detailWidth {
                shown = ScreenText.fit(detail, width: max(1, detailWidth - markWidth))
            }
            let cell = shown + gap + mark
            parts.append(
                cell + String(repeating: " ", count: max(0, detailWidth - ScreenText.width(shown) - markWidth)))
        }
        if argsWidth > 0 {
            var args = ActionArgumentsText.text(event.args)
            if let argsLimit { args = ActionArgumentsText.shortened(args, width: argsLimit) }
            parts.append(column(args, argsWidth))
        }
        if detailFirst {
            parts.append(pad(event.elapsed.map(Self.fixedTime) ?? "", timeWidth, right: true))
        } else if !detail.isEmpty {
            parts.append(detail)
        }
        if let source = event.source { parts.append(style.dim(TTY.safe(source))) }
        if let cause = event.cause { parts.append(style.dim("cause \(cause)")) }
        var line = parts.joined(separator: "  ")
        if !detailFirst && !mark.isEmpty { line += "  " + mark }
        return line
    }

    /// An elapsed time as an offset from the start: `+0.0213s`, `-2s` (a clock that went back).
    static func offset(_ value: Double) -> String {
        value < 0 ? seconds(value) : "+" + seconds(value)
    }

    /// Seconds with up to six decimals and no trailing zeros: `0.0213s`, `-1.5s`. Any double a
    /// trace holds is printed, never trapped on: from 1e9 s (about 31 years) on, where the
    /// microseconds are no longer exact in a `Double`, in Swift's shortest form (`1e+16s`); `?` for a
    /// value that is not finite (a number beyond the range of `Double` in the trace).
    static func seconds(_ value: Double) -> String {
        guard value.isFinite else { return "?" }
        let magnitude = value.magnitude
        guard magnitude < 1e9 else { return "\(value)s" }
        let microseconds = Int((magnitude * 1_000_000).rounded())
        // The six decimals without their trailing zeros (at least one digit), by arithmetic:
        // `log` prints one per event.
        var fraction = microseconds % 1_000_000
        var digits = 6
        while digits > 1 && fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let decimals = String(fraction)
        let zeros = String(repeating: "0", count: digits - decimals.count)
        return (value < 0 && microseconds > 0 ? "-" : "") + "\(microseconds / 1_000_000).\(zeros)\(decimals)s"
    }

    /// `text` in a column `width` wide: padded, or with `cutsColumns` cut to it (`…` last).
    private func column(_ text: String, _ width: Int) -> String {
        cutsColumns && ScreenText.width(text) > width ? ScreenText.fit(text, width: width) : pad(text, width)
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let missing = width - ScreenText.width(text)
        guard missing > 0 else { return text }
        let spaces = String(repeating: " ", count: missing)
        return right ? spaces + text : text + spaces
    }
}
