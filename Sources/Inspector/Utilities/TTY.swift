#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Facts about the terminal, and the escaping that keeps recorded text from driving it.
enum TTY {
    /// Whether `descriptor` is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// Whether to colour output on `descriptor`: only on a terminal, never with `NO_COLOR` set
    /// (to anything, https://no-color.org), nor with `TERM=dumb`.
    static func wantsColor(_ descriptor: Int32, environment: [String: String]) -> Bool {
        guard isTerminal(descriptor), environment["NO_COLOR"] == nil else { return false }
        return environment["TERM"] != "dumb"
    }

    /// The terminal's size in columns and rows, if `descriptor` is one.
    static func size(_ descriptor: Int32 = 1) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// `text` with every control character made visible, so that a string from a trace cannot
    /// move the cursor, change the title or clear the screen: C0 controls (but for none), DEL,
    /// C1 controls and the Unicode line/paragraph separators become `\u{…}`; a newline and a tab
    /// become `\n` and `\t`.
    static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            if !needsEscape(scalar) {
                result.unicodeScalars.append(scalar)
            } else if scalar == "\n" {
                result += "\\n"
            } else if scalar == "\t" {
                result += "\\t"
            } else {
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (value >= 0x7F && value <= 0x9F) || value == 0x2028 || value == 0x2029
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
