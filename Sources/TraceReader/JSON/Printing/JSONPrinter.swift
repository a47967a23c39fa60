/// Writes `JSONValue`s as JSON text (RFC 8259).
///
/// Object members come out in their stored order and numbers as their stored text. Strings are
/// escaped as RFC 8259 requires: `"` and `\` with a backslash, the control characters below
/// U+0020 as `\b` `\f` `\n` `\r` `\t` or `\u00XX`; everything else, non-ASCII included, is
/// written as UTF-8. Empty containers print as `{}` and `[]`.
///
/// With `terminalSafe`, these are escaped as `\uXXXX` too: U+007F DELETE, the C1 controls
/// U+0080–U+009F (U+009B is a one-byte terminal escape on its own) and U+2028/U+2029, so that
/// no control sequence from a recorded state reaches a terminal raw. Control characters below
/// U+0020, ESC and BEL included, are always escaped.
public struct JSONPrinter: Sendable {
    /// `value` on one line without any whitespace: `{"a":[1,2]}`.
    public static func compact(_ value: JSONValue, terminalSafe: Bool = false) -> String {
        var writer = JSONWriter(indent: nil, terminalSafe: terminalSafe)
        writer.write(value, level: 0)
        return writer.text()
    }

    /// `value` as compact JSON, in UTF-8.
    static func compactUTF8(_ value: JSONValue) -> [UInt8] {
        Array(compact(value).utf8)
    }

    /// `value` on several lines, each level indented by `indent` spaces, with `": "` between
    /// a member's name and value.
    public static func pretty(_ value: JSONValue, indent: Int = 2, terminalSafe: Bool = false) -> String {
        var writer = JSONWriter(indent: max(0, indent), terminalSafe: terminalSafe)
        writer.write(value, level: 0)
        return writer.text()
    }

    /// `string` as a JSON string literal, with its quotes: `"say \"hi\"\n"`.
    public static func quoted(_ string: String, terminalSafe: Bool = false) -> String {
        var writer = JSONWriter(indent: nil, terminalSafe: terminalSafe)
        writer.writeString(string)
        return writer.text()
    }
}
