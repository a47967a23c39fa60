/// Why some bytes are not one valid JSON value (RFC 8259), and where the problem is.
///
/// Positions count from the start of the buffer that was given to the parser or checker:
/// - `offset` is the 0-based **byte** offset of the problem;
/// - `line` is 1-based; lines end at `\n` (a `\r` before it belongs to the line it ends);
/// - `column` is 1-based and counts UTF-8 **bytes** from the start of the line, not characters,
///   so in `"é",x` the `x` is at column 6. Byte columns stay exact even when the input is not
///   valid UTF-8, and they match what `offset` counts.
///
/// `message` is a sentence without the position, such as
/// `expected ',' or '}' after an object member, found ']'`; `description` puts both together:
/// `line 1, column 17: expected ',' or '}' after an object member, found ']'`.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line of the problem.
    public var line: Int
    /// The 1-based column of the problem, in UTF-8 bytes from the start of its line.
    public var column: Int
    /// The 0-based byte offset of the problem from the start of the input.
    public var offset: Int
    /// What is wrong, as a sentence a person can act on, without the position.
    public var message: String

    /// Creates an error at the given position.
    public init(line: Int, column: Int, offset: Int, message: String) {
        self.line = line
        self.column = column
        self.offset = offset
        self.message = message
    }

    /// The position and the message: `line 1, column 17: expected ',' or '}' ..., found ']'`.
    public var description: String {
        "line \(line), column \(column): \(message)"
    }
}
