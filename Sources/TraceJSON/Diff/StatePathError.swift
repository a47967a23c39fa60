/// Why a text is not a state path, where, and what to write instead.
///
/// `description` reads, for the text `CartStore.lines[2`:
///
///     invalid path "CartStore.lines[2" at column 18: expected ']' to close the '[' at column 16
public struct StatePathError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text that was read.
    public var text: String
    /// The 1-based position of the problem in `text`, counted in Unicode scalars.
    public var column: Int
    /// What is wrong and what to write instead, without the position.
    public var message: String

    /// An error at `column` of `text`.
    public init(text: String, column: Int, message: String) {
        self.text = text
        self.column = column
        self.message = message
    }

    /// The path (quoted, its control characters escaped), the column and the message.
    public var description: String {
        "invalid path \(JSONPrinter.quoted(text, terminalSafe: true)) at column \(column): \(message)"
    }
}
