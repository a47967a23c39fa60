/// Why a JSON Patch (RFC 6902) cannot be applied, and which operation failed.
///
/// `description` reads, for example:
///
///     patch[3]: remove "/CartStore/lines/7": the array at "/CartStore/lines" has 5 elements, so it has no index 7
public struct JSONPatchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 0-based position of the failing operation in the patch array; nil when the patch
    /// itself is not an array.
    public var operation: Int?
    /// What is wrong, with the operation's name and path, without the position.
    public var message: String

    /// An error for the operation at `operation`.
    public init(operation: Int?, message: String) {
        self.operation = operation
        self.message = message
    }

    /// The operation's position in the patch and the message.
    public var description: String {
        guard let operation else { return message }
        return "patch[\(operation)]: \(message)"
    }
}
