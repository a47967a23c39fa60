/// Text from a trace made safe to print on a terminal.
package enum TerminalText {
    /// `text` with every control character made visible, so that a string recorded in a state
    /// (or typed by a user) cannot move the cursor, clear the screen or set the window's title:
    /// C0 controls, DEL, C1 controls and the Unicode line and paragraph separators become
    /// `\u{1b}`-style escapes; a newline and a tab become `\n` and `\t`. Other text, non-ASCII
    /// included, is unchanged.
    package static func safe(_ text: String) -> String {
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

    /// Whether `scalar` is one a terminal may act on.
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
    }
}
