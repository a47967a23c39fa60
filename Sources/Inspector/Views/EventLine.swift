import TraceReader

/// One event on one line, as `log` prints it and `step` lists it:
///
///     16  +0.0213s  CatalogStore  toLoading   loading → loading  (no change)  CatalogStore.swift:31
///
/// Every string from the trace is made terminal-safe.
struct EventLine {
    var storeWidth = 14
    var actionWidth = 12
    var style = Style(enabled: false)

    /// Widths that fit the stores and actions of `events`.
    static func fitting(_ events: [TraceEvent], style: Style) -> EventLine {
        let stores = events.map { ScreenText.width(TTY.safe($0.store ?? "")) }.max() ?? 0
        let actions = events.map { ScreenText.width(TTY.safe(action(of: $0))) }.max() ?? 0
        return EventLine(storeWidth: min(max(stores, 5), 28), actionWidth: min(max(actions, 6), 28), style: style)
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
        var detail = ""
        if let from = event.from, let to = event.to {
            detail = "\(TTY.safe(from)) → \(TTY.safe(to))"
        } else if let caseName = event.caseName {
            detail = "→ \(TTY.safe(caseName))"
        }
        if event.changed == false { detail += detail.isEmpty ? "(no change)" : "  (no change)" }
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
