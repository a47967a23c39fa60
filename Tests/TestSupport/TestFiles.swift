import Foundation

/// Parses each line of a trace with Foundation, failing the test on a line that is not a JSON object.
public func jsonObjects(_ lines: [String]) throws -> [[String: Any]] {
    try lines.map { line in
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        guard let dictionary = object as? [String: Any] else {
            throw TestFailure("not a JSON object: \(line)")
        }
        return dictionary
    }
}

public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A fresh temporary folder, removed when the value is released.
public final class TemporaryFolder {
    public let url: URL
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Lines of a trace file, without their `\n`.
public func traceLines(at path: String) throws -> [String] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
}
