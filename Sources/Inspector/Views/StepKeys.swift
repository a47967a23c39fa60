/// Every key of the full-screen step view, with what it does: the help screen (`?`) lists them,
/// the hint line shows the short forms that fit, and the README's key table says the same
/// (a test checks it names each key).
enum StepKeys {
    /// One key or group of keys and what it does.
    struct Entry: Equatable {
        /// The keys as the help screen names them: `→ l n`.
        let keys: String
        /// What they do.
        let action: String
        /// The short form for the hint line (`←→ step`), or nil to leave it to the help screen.
        let hint: String?
    }

    /// The keys, in the order the help screen lists them.
    static let all: [Entry] = [
        Entry(keys: "→ l n", action: "the next step (of those the list shows)", hint: "←→ step"),
        Entry(keys: "← h p", action: "the previous step (of those the list shows)", hint: nil),
        Entry(keys: "g Home", action: "step 0, before the first event", hint: "g/G ends"),
        Entry(keys: "G End", action: "the last step (following a live trace: follow it again)", hint: nil),
        Entry(keys: "123 Enter", action: "jump to step 123", hint: "123⏎ jump"),
        Entry(
            keys: "/ TEXT Enter",
            action: "the next event whose store, action, Store.action or arguments hold TEXT, or whose state "
                + "newly does", hint: "/ find"),
        Entry(keys: "/ Enter", action: "find the same text again, forward", hint: nil),
        Entry(keys: "N", action: "find the same text again, backward", hint: nil),
        Entry(keys: "]", action: "the next step with a problem", hint: "] [ problems"),
        Entry(keys: "[", action: "the previous step with a problem", hint: nil),
        Entry(
            keys: "s", action: "list only one store's events (again: the next store, then all)", hint: "s a c ! filter"),
        Entry(keys: "a", action: "list only events with this step's action (again: all)", hint: nil),
        Entry(keys: "c", action: "list only events that changed the state (again: all)", hint: nil),
        Entry(keys: "!", action: "list only events with a problem (again: all)", hint: nil),
        Entry(keys: "F", action: "list every event again", hint: nil),
        Entry(keys: "↑ k ↓ j", action: "scroll the lower pane by a line", hint: nil),
        Entry(keys: "PgUp PgDn", action: "scroll the lower pane by half a screen", hint: nil),
        Entry(keys: "Tab", action: "the step's diff or the whole app state", hint: "Tab state"),
        Entry(
            keys: "< >", action: "scroll the lower pane sideways by half a screen, to the end of a long line",
            hint: nil),
        Entry(
            keys: "+ -",
            action: "open one level more or fewer of the app state (deeper levels are folded; a value the step "
                + "changed is shown under its fold)", hint: nil),
        Entry(
            keys: "e",
            action: "the picked value (v), or the first the step changed, whole: before and after, wrapped "
                + "(↑ ↓ PgUp PgDn scroll, q Esc back); on a step that changed nothing, its store's state",
            hint: "e whole"),
        Entry(keys: "v", action: "pick a value the step changed (again: the next one)", hint: "v w who set"),
        Entry(
            keys: "w",
            action: "jump to the step that last changed the picked value before; on a step that changed "
                + "nothing, to the step that set its store's case", hint: nil),
        Entry(keys: "b", action: "back to the previous step of this step's store: how it got here", hint: "b back"),
        Entry(keys: "r", action: "attached to an app (--attach): set the app back to its present", hint: nil),
        Entry(keys: "?", action: "this help (any key closes it)", hint: "? help"),
        Entry(keys: "q Ctrl-C", action: "quit", hint: "q quit"),
        Entry(keys: "Ctrl-Z", action: "stop, as in a shell (fg comes back)", hint: nil),
    ]

    /// The hint line for a `width`-column screen: as many short forms as fit, in order, always
    /// ending with `? help  q quit` so the way to the rest is never cut off; `r present` first
    /// when the view is `attached` to an app.
    static func hints(width: Int, attached: Bool = false) -> String {
        let always = ["? help", "q quit"]
        let optional = (attached ? ["r present"] : []) + all.compactMap(\.hint).filter { !always.contains($0) }
        var chosen: [String] = []
        for hint in optional {
            let candidate = (chosen + [hint] + always).joined(separator: "  ")
            if ScreenText.width(candidate) + 2 > width { continue }
            chosen.append(hint)
        }
        return " " + (chosen + always).joined(separator: "  ")
    }

    /// The help screen's body for a `width`-column screen: an entry a line, keys in a column,
    /// what they do wrapped beside them.
    static func helpLines(width: Int) -> [String] {
        let keyWidth = all.map { ScreenText.width($0.keys) }.max() ?? 0
        return all.flatMap { entry in
            let lead =
                "  " + entry.keys + String(repeating: " ", count: keyWidth - ScreenText.width(entry.keys)) + "   "
            return ScreenText.wrapped(entry.action, lead: lead, width: width - 1)
        }
    }
}
