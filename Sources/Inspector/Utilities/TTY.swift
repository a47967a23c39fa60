@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) internal import ToolSupport
import TraceReader

/// Facts about the terminal, and the escaping that keeps recorded text from driving it.
enum TTY {
    /// Whether `descriptor` is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool {
        SystemCalls.isTerminal(descriptor)
    }

    /// Whether to colour output on `descriptor`: only on a terminal, never with `NO_COLOR` set
    /// (to anything, https://no-color.org), nor with `TERM=dumb`.
    static func wantsColor(_ descriptor: Int32, environment: [String: String]) -> Bool {
        guard isTerminal(descriptor), environment["NO_COLOR"] == nil else { return false }
        return environment["TERM"] != "dumb"
    }

    /// The terminal's size in columns and rows, if `descriptor` is one.
    static func size(_ descriptor: Int32 = 1) -> (columns: Int, rows: Int)? {
        RawTerminal.size(descriptor)
    }

    /// `text` with every control character made visible (see `TerminalText.safe`), so that a
    /// string from a trace cannot move the cursor, change the title or clear the screen.
    static func safe(_ text: String) -> String {
        TerminalText.safe(text)
    }
}

/// ANSI styles, applied only when colour is on.
struct Style: Sendable {
    var enabled: Bool

    func red(_ text: String) -> String { wrap(text, "31") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func cyan(_ text: String) -> String { wrap(text, "36") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func bold(_ text: String) -> String { wrap(text, "1") }
    func inverse(_ text: String) -> String { wrap(text, "7") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
