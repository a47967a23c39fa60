import TraceJSON

/// An event's `args` as a person reads a call: `sku: "MUG", quantity: 2`, each value as compact
/// JSON, every string terminal-safe. The event list shows it shortened (`shortened(_:width:)`),
/// the event pane and `log` whole.
enum ActionArgumentsText {
    /// `name: value` for each member, in the order recorded; empty for no `args` or `{}`.
    static func text(_ args: JSONObject?) -> String {
        guard let args else { return "" }
        return args.map { "\(TTY.safe($0.key)): \(JSONPrinter.compact($0.value, terminalSafe: true))" }
            .joined(separator: ", ")
    }

    /// `text` cut to at most `width` columns, ending in `…` when cut.
    static func shortened(_ text: String, width: Int) -> String {
        guard ScreenText.width(text) > width else { return text }
        return ScreenText.fit(text, width: width)
    }
}
