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

    /// The action column: the action's name, `register`, or the event's type.
    static func action(of event: TraceEvent) -> String {
        event.type == "transition" ? (event.action ?? "?") : event.type
    }

    func text(_ event: TraceEvent, problems: [Problem] = []) -> String {
        var parts: [String] = []
        parts.append(pad(String(event.seq), 6, right: true))
        parts.append(event.elapsed.map { pad(Self.offset($0), 10) } ?? pad("", 10))
        parts.append(style.cyan(pad(TTY.safe(event.store ?? "-"), storeWidth)))
        parts.append(style.bold(pad(TTY.safe(Self.action(of: event)), actionWidth)))
        if argsWidth > 0 {
            var args = ActionArgumentsText.text(event.args)
            if let argsLimit { args = ActionArgumentsText.shortened(args, width: argsLimit) }
            parts.append(pad(args, argsWidth))
        }
        var detail = ""
        if let from = event.from, let to = event.to {
            detail = "\(TTY.safe(from)) → \(TTY.safe(to))"
        } else if let caseName = event.caseName {
            detail = "→ \(TTY.safe(caseName))"
        }
        if event.changed == false { detail += detail.isEmpty ? "(no change)" : "  (no change)" }
        if let step = event.restoredStep { detail += (detail.isEmpty ? "" : "  ") + "(restored step \(step))" }
        if !detail.isEmpty { parts.append(detail) }
        if let source = event.source { parts.append(style.dim(TTY.safe(source))) }
        if let cause = event.cause { parts.append(style.dim("cause \(cause)")) }
        var line = parts.joined(separator: "  ")
        if let worst = problems.max(by: { $0.severity < $1.severity }) {
            let mark = worst.severity == .warning ? style.yellow("⚠ \(worst.kind)") : style.red("✖ \(worst.kind)")
            line += "  " + mark
        }
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

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let missing = width - ScreenText.width(text)
        guard missing > 0 else { return text }
        let spaces = String(repeating: " ", count: missing)
        return right ? spaces + text : text + spaces
    }
}
