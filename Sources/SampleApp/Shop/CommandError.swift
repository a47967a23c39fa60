/// A command line the shop cannot run, with what to type instead.
struct CommandError: Error, Equatable, Sendable, CustomStringConvertible {
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
