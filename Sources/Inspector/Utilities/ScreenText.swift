internal import ToolSupport

/// Measuring and fitting text for a fixed-width screen, per grapheme cluster (`DisplayWidth`):
/// ANSI style sequences take no width, wide characters (CJK, emoji) two columns, combining marks
/// none. A line `fit` to a width never takes more columns than that on a terminal.
enum ScreenText {
    /// The number of columns `text` takes on a terminal.
    static func width(_ text: String) -> Int {
        var columns = 0
        forEachPiece(of: text) { piece in
            if case .character(let character) = piece { columns += DisplayWidth.of(character) }
            return true
        }
        return columns
    }

    /// `text` cut to `width` columns (with `…` when cut) or padded with spaces to it. Styles
    /// are kept and reset at the end of a line that has any. A wide character that would
    /// straddle the edge goes whole (a space pads its place).
    static func fit(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        var result = ""
        var columns = 0
        var styled = false
        let total = self.width(text)
        let limit = total > width ? width - 1 : width
        forEachPiece(of: text) { piece in
            switch piece {
            case .escape(let sequence):
                styled = true
                result += sequence
            case .character(let character):
                let characterColumns = DisplayWidth.of(character)
                if columns + characterColumns > limit { return false }
                result.append(character)
                columns += characterColumns
            }
            return true
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
    /// space (which goes) when the line has one, else anywhere; without `atSpaces`, exactly at
    /// the width, every character kept (a value then reads exactly as it is). A wide character
    /// that would cross the edge starts the next line.
    static func wrapped(_ text: String, lead: String, width: Int, atSpaces: Bool = true) -> [String] {
        let indent = String(repeating: " ", count: self.width(lead))
        let room = max(10, width - indent.count)
        var lines: [String] = []
        var line = ""
        var columns = 0
        for character in text {
            let characterWidth = DisplayWidth.of(character)
            if columns + characterWidth > room && !atSpaces {
                lines.append(line)
                (line, columns) = ("", 0)
            } else if columns + characterWidth > room {
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

    /// `text` seen from column `column` on, for a pane scrolled sideways: the first `column`
    /// columns go, styles kept (a style set in the part that goes still applies to the rest).
    /// A wide character cut by the edge becomes a space, so the columns after it stay where they
    /// were; a line cut on the left starts with `…` in the first column that is left, unless
    /// nothing of it is left.
    static func from(column: Int, of text: String) -> String {
        guard column > 0 else { return text }
        let (rest, cut) = dropping(columns: column, of: text)
        return cut && width(rest) > 0 ? "…" + dropping(columns: 1, of: rest).rest : rest
    }

    /// `text` without its first `count` columns, and whether anything visible went.
    private static func dropping(columns count: Int, of text: String) -> (rest: String, cut: Bool) {
        var rest = ""
        var columns = 0
        var cut = false
        forEachPiece(of: text) { piece in
            switch piece {
            case .escape(let sequence):
                rest += sequence
            case .character(let character):
                let characterColumns = DisplayWidth.of(character)
                if columns >= count {
                    rest.append(character)
                } else {
                    cut = cut || characterColumns > 0
                    // A wide character across the edge: its columns right of the edge are blank.
                    rest += String(repeating: " ", count: max(0, columns + characterColumns - count))
                }
                columns += characterColumns
            }
            return true
        }
        return (rest, cut)
    }

    /// A piece of styled text: an escape sequence (`ESC [ … m`), or a grapheme cluster of the
    /// text between them.
    private enum Piece {
        case escape(String)
        case character(Character)
    }

    /// Calls `body` with each piece of `text` in order, until it returns false. The text between
    /// escape sequences is split into clusters on its own, so a mark after a sequence never
    /// joins the sequence's last letter.
    private static func forEachPiece(of text: String, _ body: (Piece) -> Bool) {
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        var runStart = index
        func flush(upTo end: String.Index) -> Bool {
            guard runStart < end else { return true }
            for character in String(scalars[runStart..<end]) where !body(.character(character)) { return false }
            return true
        }
        while index < scalars.endIndex {
            guard scalars[index] == "\u{1B}" else {
                index = scalars.index(after: index)
                continue
            }
            guard flush(upTo: index) else { return }
            let sequenceStart = index
            index = scalars.index(after: index)
            // Parameters up to the final byte (@ to ~, not the `[` that opens it).
            while index < scalars.endIndex {
                let scalar = scalars[index]
                index = scalars.index(after: index)
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { break }
            }
            guard body(.escape(String(scalars[sequenceStart..<index]))) else { return }
            runStart = index
        }
        _ = flush(upTo: scalars.endIndex)
    }
}
