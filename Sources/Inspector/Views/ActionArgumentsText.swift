import TraceReader

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

    /// The whole `text` as lines of at most `width` columns, the first starting with `lead` and
    /// the others indented as far: what the event pane shows.
    static func wrapped(_ text: String, lead: String, width: Int) -> [String] {
        let indent = String(repeating: " ", count: ScreenText.width(lead))
        let room = max(10, width - indent.count)
        var lines: [String] = []
        var line = ""
        var columns = 0
        for character in text {
            let characterWidth = ScreenText.width(String(character))
            if columns + characterWidth > room {
                lines.append(line)
                line = ""
                columns = 0
            }
            line.append(character)
            columns += characterWidth
        }
        lines.append(line)
        return lines.enumerated().map { ($0.offset == 0 ? lead : indent) + $0.element }
    }
}
