import Foundation
import TestSupport
import Testing
import TraceJSON

@testable import Inspector

/// An `MCPServer` driven message by message, for the MCP tests: its answers parsed, and the
/// size of each line it wrote.
struct MCPDriver {
    let server: MCPServer
    /// The repository's double-refresh trace, whose first error is at seq 6.
    static let trace = packageRoot.appendingPathComponent("traces/invalid/double-refresh.jsonl").path

    /// A server that reads files under `folders` (the repository by default) and finds sources
    /// under the repository.
    init(allowing folders: [String] = [packageRoot.path]) throws {
        server = MCPServer(
            session: MCPSession(
                access: try MCPFileAccess(folders: folders), sourceRoot: SourceRoot(path: packageRoot.path)))
    }

    /// The line the server answers `line` with.
    func line(_ line: String) throws -> String {
        let text = try #require(server.handle(Array(line.utf8)))
        #expect(!text.contains("\n"))
        return text
    }

    /// The answer to `line`, parsed.
    func answer(_ line: String) throws -> JSONValue {
        try JSONParser.parse(try self.line(line))
    }

    /// The answer to calling `tool` with `arguments` (a JSON object's text).
    func call(_ tool: String, _ arguments: String, meta: String = "") throws -> JSONValue {
        try answer(
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":\#(JSONPrinter.quoted(tool)),"arguments":\#(arguments)\#(meta)}}"#
        )
    }

    /// The structured result of calling `tool`, which must not be an error.
    func result(_ tool: String, _ arguments: String) throws -> JSONValue {
        let answer = try call(tool, arguments)
        #expect(answer["result"]?["isError"] == .bool(false), "\(answer)")
        return try #require(answer["result"]?["structuredContent"])
    }

    /// The text of a tool's error result, which must be one.
    func toolError(_ tool: String, _ arguments: String) throws -> String {
        let answer = try call(tool, arguments)
        #expect(answer["result"]?["isError"] == .bool(true), "\(answer)")
        return try #require(answer["result"]?["content"]?[0]?["text"]?.stringValue)
    }
}
