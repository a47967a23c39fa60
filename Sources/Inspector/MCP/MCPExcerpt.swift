import TraceJSON

/// What the MCP server repeats of a client's input in an error: a method, a tool or argument
/// name, a path, a number. However long the input, the excerpt is short: its first
/// `scalars` Unicode scalars, quoted and escaped as every command's JSON escapes strings
/// (control characters, C1 controls, U+2028/9 as `\u` escapes), then `… (N bytes)` when it was
/// cut. A whole message is bounded too (`message(_:)`), in case some text repeated a client's
/// input whole.
enum MCPExcerpt {
    /// The most Unicode scalars of an input an excerpt shows.
    static let scalars = 200
    /// The most bytes of an error message or a tool's error text, before it is cut.
    static let messageBytes = 4096

    /// `text` quoted and escaped, cut to `scalars` scalars with its size in bytes after it.
    static func of(_ text: String) -> String {
        let bytes = text.utf8.count
        // At most `scalars` bytes is at most `scalars` scalars.
        if bytes <= scalars { return JSONPrinter.quoted(text, terminalSafe: true) }
        let head = text.unicodeScalars.prefix(scalars + 1)
        if head.count <= scalars { return JSONPrinter.quoted(text, terminalSafe: true) }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: head.prefix(scalars))
        return JSONPrinter.quoted(String(kept), terminalSafe: true) + "… (\(bytes) bytes)"
    }

    /// `text` cut to `scalars` scalars, unquoted, for a JSON member that repeats it.
    static func cut(_ text: String) -> String {
        guard text.utf8.count > scalars else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(scalars)))
    }

    /// A number as the client wrote it (`1e15`), cut as `of(_:)` cuts a string but unquoted.
    static func number(_ value: JSONValue) -> String {
        let text = JSONPrinter.compact(value)
        guard text.utf8.count > scalars else { return text }
        return String(text.unicodeScalars.prefix(scalars)) + "… (\(text.utf8.count) bytes)"
    }

    /// `message` when it is at most `messageBytes` bytes; otherwise its beginning and its size.
    static func message(_ message: String) -> String {
        let bytes = message.utf8.count
        guard bytes > messageBytes else { return message }
        var kept = String.UnicodeScalarView()
        var used = 0
        for scalar in message.unicodeScalars {
            used += String(scalar).utf8.count
            if used > messageBytes - 64 { break }
            kept.append(scalar)
        }
        return String(kept) + "… (the message was \(bytes) bytes)"
    }
}
