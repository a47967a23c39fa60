internal import ToolSupport

/// The one way a value is printed on one line, in diffs, change lists and `when`/`why`/`show`:
/// short JSON, cut with `…` past a width, safe to print to a terminal.
///
/// The text is JSON with a space after each `,` and `:` (`{"sku": "A1", "quantity": 2}`),
/// members in their stored order (the last of several with one name) and numbers as written
/// (`1e400` stays `1e400`), from the same formatter as `JSONPrinter`. Strings are JSON-escaped;
/// with `terminalSafe` (the default) DEL, the C1 controls and U+2028/U+2029 are escaped too, so
/// no string from a trace can drive the terminal. A string that is not Unicode text (a lone
/// surrogate, see `JSONParser`) shows its `\uXXXX` escape, and the line ends with
/// `notUnicodeNote`. Past `maxWidth` characters the text is cut and ends with `…`; a long value
/// is never rendered in full just to be cut, so printing the first line of a 100 MB state is
/// cheap.
public enum ValueText {
    /// What follows a value that holds a string which is not Unicode text (a lone surrogate,
    /// see `JSONParser`), whose `\uXXXX` escape is shown as it was read.
    public static let notUnicodeNote = " (not valid Unicode)"

    /// `value` on one line, at most `maxWidth` characters long when given (at least 1), followed
    /// by `notUnicodeNote` when a string in it is not Unicode text.
    public static func line(_ value: JSONValue, maxWidth: Int? = nil, terminalSafe: Bool = true) -> String {
        render(value, maxWidth: maxWidth, terminalSafe: terminalSafe).line
    }

    /// A value on one line.
    package struct Rendered {
        package var text: String
        /// Whether the text was cut to fit.
        package var isCut: Bool
        /// Whether a string written holds a lone surrogate.
        package var isNotUnicode: Bool

        /// The text, and the note when it is not Unicode text.
        package var line: String { isNotUnicode ? text + ValueText.notUnicodeNote : text }
    }

    /// The line, whether it was cut to fit `maxWidth`, and whether it is not Unicode text.
    package static func render(_ value: JSONValue, maxWidth: Int?, terminalSafe: Bool) -> Rendered {
        let width = maxWidth.map { max(1, $0) }
        // Characters take 1 to 4 bytes, and a cluster more; stop writing well past the width.
        var formatter = JSONFormatter(
            layout: .line, terminalSafe: terminalSafe, budget: width.map { $0 &* 8 &+ 8 } ?? .max)
        formatter.write(value)
        return fit(formatter.text, width: width, stopped: formatter.isSpent, formatter.wroteLoneSurrogate)
    }

    /// The line of `value` of `reader`'s text: the same as for the `JSONValue` it parses into.
    package static func render(
        _ value: TextValue, in reader: JSONTextReader, maxWidth: Int?, terminalSafe: Bool,
        _ scratch: inout JSONTextReader.Scratch
    ) -> Rendered {
        let width = maxWidth.map { max(1, $0) }
        var formatter = JSONFormatter(
            layout: .line, terminalSafe: terminalSafe, budget: width.map { $0 &* 8 &+ 8 } ?? .max)
        formatter.write(value, in: reader, &scratch)
        return fit(formatter.text, width: width, stopped: formatter.isSpent, formatter.wroteLoneSurrogate)
    }

    /// `text` cut with `…` to `width` terminal columns (`DisplayWidth`: an emoji or a CJK
    /// character takes two) when it is wider, or was `stopped` early.
    static func fit(_ text: String, width: Int?, stopped: Bool, _ isNotUnicode: Bool) -> Rendered {
        guard let width else { return Rendered(text: text, isCut: false, isNotUnicode: isNotUnicode) }
        if !stopped && (text.utf8.count <= width || DisplayWidth.of(text) <= width) {
            return Rendered(text: text, isCut: false, isNotUnicode: isNotUnicode)
        }
        var cut = ""
        var columns = 0
        for character in text {
            let characterColumns = DisplayWidth.of(character)
            if columns + characterColumns > width - 1 { break }
            cut.append(character)
            columns += characterColumns
        }
        return Rendered(text: cut + "…", isCut: true, isNotUnicode: isNotUnicode)
    }
}
