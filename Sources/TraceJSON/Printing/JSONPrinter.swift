/// Writes `JSONValue`s, or the values of `JSONText`s, as JSON text (RFC 8259).
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

    // MARK: Texts

    /// The value of `text` on one line without any whitespace: what `compact(text.value)`
    /// prints, written from the bytes with no tree built.
    public static func compact(_ text: JSONText, terminalSafe: Bool = false) -> String {
        var formatter = JSONFormatter(layout: .compact, terminalSafe: terminalSafe)
        write(text, into: &formatter)
        return formatter.text
    }

    /// The value of `text` on several lines: what `pretty(text.value)` prints, written from the
    /// bytes with no tree built.
    public static func pretty(_ text: JSONText, indent: Int = 2, terminalSafe: Bool = false) -> String {
        var formatter = JSONFormatter(layout: .pretty(indent: max(0, indent)), terminalSafe: terminalSafe)
        write(text, into: &formatter)
        return formatter.text
    }

    /// `pretty(text)` handed to `output` in pieces of about 64 KB as it is written, so that a
    /// state of any size prints in memory for one piece beside its text.
    public static func pretty(
        _ text: JSONText, indent: Int = 2, terminalSafe: Bool = false, to output: (UnsafeRawBufferPointer) -> Void
    ) {
        withoutActuallyEscaping(output) { output in
            var formatter = JSONFormatter(
                layout: .pretty(indent: max(0, indent)), terminalSafe: terminalSafe, sink: output)
            write(text, into: &formatter)
            formatter.finish()
        }
    }

    private static func write(_ text: JSONText, into formatter: inout JSONFormatter) {
        text.withReader { reader, root in
            var scratch = JSONTextReader.Scratch()
            formatter.write(root, in: reader, &scratch)
        }
    }

    /// `value` as compact JSON, in UTF-8.
    package static func compactUTF8(_ value: JSONValue) -> [UInt8] {
        var formatter = JSONFormatter(layout: .compact, terminalSafe: false)
        formatter.write(value)
        return formatter.utf8
    }
}
