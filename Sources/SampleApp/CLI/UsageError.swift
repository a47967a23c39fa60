/// A command line that cannot be run: the app prints the message and how to get help, and exits
/// with status 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
