/// Writes `JSONValue`s as JSON text (RFC 8259).
///
/// Object members come out in their stored order and numbers as their stored text. An object
/// that repeats a name prints only its last member with that name, where that member stands: the
/// last member wins, as for lookup, the diff and JSON Patch (see `JSONObject`). Strings are
/// escaped as RFC 8259 requires: `"` and `\` with a backslash, the control characters below
/// U+0020 as `\b` `\f` `\n` `\r` `\t` or `\u00XX`; everything else, non-ASCII included, is
/// written as UTF-8. A string that holds a lone UTF-16 surrogate (see `JSONParser`) is written
/// with the `\uXXXX` escape it was read from (`"\ud800"`), so it prints as it was read. Empty
/// containers print as `{}` and `[]`. A `.number` whose text is not a JSON number (only possible
/// when built by hand) is written as a string, so the output is always valid JSON.
///
/// With `terminalSafe`, these are escaped as `\uXXXX` too: U+007F DELETE, the C1 controls
/// U+0080–U+009F (U+009B is a one-byte terminal escape on its own) and U+2028/U+2029, so that
/// no control sequence from a recorded state reaches a terminal raw. Control characters below
/// U+0020, ESC and BEL included, are always escaped.
public struct JSONPrinter: Sendable {
    /// `value` on one line without any whitespace: `{"a":[1,2]}`.
    public static func compact(_ value: JSONValue, terminalSafe: Bool = false) -> String {
        var formatter = JSONFormatter(layout: .compact, terminalSafe: terminalSafe)
        formatter.write(value)
        return formatter.text
    }

    /// `value` on several lines, each level indented by `indent` spaces, with `": "` between
    /// a member's name and value.
    public static func pretty(_ value: JSONValue, indent: Int = 2, terminalSafe: Bool = false) -> String {
        var formatter = JSONFormatter(layout: .pretty(indent: max(0, indent)), terminalSafe: terminalSafe)
        formatter.write(value)
        return formatter.text
    }

    /// `string` as a JSON string literal, with its quotes: `"say \"hi\"\n"`.
    public static func quoted(_ string: String, terminalSafe: Bool = false) -> String {
        var formatter = JSONFormatter(layout: .compact, terminalSafe: terminalSafe)
        formatter.string(string)
        return formatter.text
    }

    /// `value` as compact JSON, in UTF-8.
    static func compactUTF8(_ value: JSONValue) -> [UInt8] {
        var formatter = JSONFormatter(layout: .compact, terminalSafe: false)
        formatter.write(value)
        return formatter.utf8
    }
}
