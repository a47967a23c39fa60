/// Why a control channel could not be opened, or why the inspector's side of one failed: a
/// sentence that names the socket and says what to do.
public struct ControlChannelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong and what to do.
    public var message: String

    /// An error with this message.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
