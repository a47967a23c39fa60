/// A command line that cannot be run as given: a missing or unknown argument, a bad value.
/// Both executables print it as `NAME: MESSAGE` with a pointer to `--help`, and exit with 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What is wrong and what to do, in one sentence.
    public var message: String

    /// A usage error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
