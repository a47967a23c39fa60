/// The one way a value is printed on one line, in diffs, change lists and `when`/`why`/`show`:
/// short JSON, cut with `…` past a width, safe to print to a terminal.
///
/// The text is JSON with a space after each `,` and `:` (`{"sku": "A1", "quantity": 2}`),
/// members in their stored order and numbers as written (`1e400` stays `1e400`). Strings are
/// JSON-escaped; with `terminalSafe` (the default) DEL, the C1 controls and U+2028/U+2029 are
/// escaped too, so no string from a trace can drive the terminal (see `JSONPrinter`). Past
/// `maxWidth` characters the text is cut and ends with `…`; a long value is never rendered in
/// full just to be cut, so printing the first line of a 100 MB state is cheap.
public enum ValueText {
    /// `value` on one line, at most `maxWidth` characters long when given (at least 1).
    public static func line(_ value: JSONValue, maxWidth: Int? = nil, terminalSafe: Bool = true) -> String {
        render(value, maxWidth: maxWidth, terminalSafe: terminalSafe).text
    }

    /// The line and whether it was cut to fit `maxWidth`.
    static func render(_ value: JSONValue, maxWidth: Int?, terminalSafe: Bool) -> (text: String, isCut: Bool) {
        let width = maxWidth.map { max(1, $0) }
        // Characters take 1 to 4 bytes, and a cluster more; stop writing well past the width.
        var writer = Writer(byteBudget: width.map { $0 * 8 + 8 } ?? Int.max, terminalSafe: terminalSafe)
        writer.write(value)
        guard let width else { return (writer.text, false) }
        if !writer.stopped && writer.text.utf8.count <= width { return (writer.text, false) }
        if !writer.stopped && writer.text.count <= width { return (writer.text, false) }
        return (String(writer.text.prefix(width - 1)) + "…", true)
    }

    /// Writes JSON on one line until a byte budget is spent.
    private struct Writer {
        var text = ""
        let byteBudget: Int
        let terminalSafe: Bool
        var stopped = false

        init(byteBudget: Int, terminalSafe: Bool) {
            self.byteBudget = byteBudget
            self.terminalSafe = terminalSafe
        }

        private var remaining: Int { byteBudget - text.utf8.count }

        mutating func write(_ value: JSONValue) {
            guard !stopped else { return }
            guard remaining > 0 else {
                stopped = true
                return
            }
            switch value {
            case .null:
                text += "null"
            case .bool(let bool):
                text += bool ? "true" : "false"
            case .number(let text):
                writeNumber(text)
            case .string(let string):
                writeString(string)
            case .array(let elements):
                text += "["
                for (position, element) in elements.enumerated() {
                    if position > 0 { text += ", " }
                    write(element)
                    if stopped { return }
                }
                text += "]"
            case .object(let object):
                text += "{"
                for position in object.indices {
                    if position > 0 { text += ", " }
                    let (key, member) = object[position]
                    writeString(key)
                    text += ": "
                    write(member)
                    if stopped { return }
                }
                text += "}"
            }
        }

        private mutating func writeNumber(_ number: String) {
            // The parser only makes number texts of the JSON grammar; a value built by hand
            // could hold anything, which is then shown as a string rather than printed raw.
            let isNumberText =
                !number.isEmpty
                && number.utf8.allSatisfy { byte in
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                        || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
                        || byte == UInt8(ascii: "E")
                }
            guard isNumberText else { return writeString(number) }
            if number.utf8.count > remaining {
                text += String(decoding: number.utf8.prefix(remaining), as: UTF8.self)
                stopped = true
            } else {
                text += number
            }
        }

        private mutating func writeString(_ string: String) {
            // An object's key is written without `write`'s check: the budget may be spent.
            let budget = max(0, remaining)
            if string.utf8.count <= budget {
                text += JSONPrinter.quoted(string, terminalSafe: terminalSafe)
            } else {
                // Escape only the part that can show.
                text += JSONPrinter.quoted(String(string.prefix(budget)), terminalSafe: terminalSafe).dropLast()
                stopped = true
            }
        }
    }
}
