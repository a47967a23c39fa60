/// A trace that `replay` cannot use, naming the file and, where known, the line. Exit status 2.
struct ReplayError: Error, Equatable, CustomStringConvertible {
    var path: String
    var line: Int?
    var message: String

    init(_ path: String, line: Int? = nil, _ message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    var description: String {
        line.map { "\(path):\($0): \(message)" } ?? "\(path): \(message)"
    }
}
