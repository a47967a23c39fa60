/// Measuring and fitting text for a fixed-width screen: ANSI style sequences take no width,
/// wide characters (CJK, most emoji) take two columns, combining marks none.
enum ScreenText {
    /// The number of columns `text` takes on a terminal.
    static func width(_ text: String) -> Int {
        var columns = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" {
                inEscape = true
                continue
            }
            columns += scalarWidth(scalar)
        }
        return columns
    }

    /// `text` cut to `width` columns (with `…` when cut) or padded with spaces to it. Styles
    /// are kept and reset at the end of a line that has any.
    static func fit(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        var result = ""
        var columns = 0
        var inEscape = false
        var styled = false
        let total = self.width(text)
        let limit = total > width ? width - 1 : width
        for scalar in text.unicodeScalars {
            if inEscape {
                result.unicodeScalars.append(scalar)
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" {
                inEscape = true
                styled = true
                result.unicodeScalars.append(scalar)
                continue
            }
            let scalarColumns = scalarWidth(scalar)
            if columns + scalarColumns > limit { break }
            result.unicodeScalars.append(scalar)
            columns += scalarColumns
        }
        if total > width {
            result += "…"
            columns += 1
        }
        if styled { result += "\u{1B}[0m" }
        return result + String(repeating: " ", count: max(0, width - columns))
    }

    /// The whole of `text` (unstyled) as lines of at most `width` columns, the first starting
    /// with `lead` (which may be styled) and the others indented as far: for a message or a
    /// value that must be read in full rather than cut at the screen's edge. Lines break at a
    /// space (which goes) when the line has one, else anywhere.
    static func wrapped(_ text: String, lead: String, width: Int) -> [String] {
        let indent = String(repeating: " ", count: self.width(lead))
        let room = max(10, width - indent.count)
        var lines: [String] = []
        var line = ""
        var columns = 0
        for character in text {
            let characterWidth = self.width(String(character))
            if columns + characterWidth > room {
                if character == " " {
                    lines.append(line)
                    (line, columns) = ("", 0)
                    continue
                }
                if let space = line.lastIndex(of: " "), space != line.startIndex {
                    lines.append(String(line[..<space]))
                    line = String(line[line.index(after: space)...])
                } else {
                    lines.append(line)
                    line = ""
                }
                columns = self.width(line)
            }
            line.append(character)
            columns += characterWidth
        }
        lines.append(line)
        return lines.enumerated().map { ($0.offset == 0 ? lead : indent) + $0.element }
    }

    private static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        // Printable ASCII first: most of a trace's text, without the Unicode property lookup.
        if value >= 0x20 && value < 0x7F { return 1 }
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .enclosingMark {
            return 0
        }
        if value == 0x200B || value == 0x200D || value == 0xFE0F { return 0 }
        if (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value) || (0xAC00...0xD7A3).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0xFE30...0xFE4F).contains(value)
            || (0xFF00...0xFF60).contains(value)
            || (0xFFE0...0xFFE6).contains(value) || (0x1F300...0x1F64F).contains(value)
            || (0x1F900...0x1F9FF).contains(value)
            || (0x20000...0x3FFFD).contains(value)
        {
            return 2
        }
        return 1
    }
}
