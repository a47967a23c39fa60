/// Makes text safe to print on a terminal.
enum TerminalText {
    /// `text` with every control character made visible (`\u{1b}`, `\n`, `\t`), so that a
    /// string typed by the shopper or read from a trace cannot move the cursor, clear the screen
    /// or change the terminal's title.
    static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
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

    /// C0 controls, DEL, C1 controls, and the Unicode line and paragraph separators.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
    }
}
