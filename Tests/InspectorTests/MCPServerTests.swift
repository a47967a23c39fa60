import Foundation
import TestSupport
import Testing
import TraceJSON

@testable import Inspector

/// `inspector mcp`'s server, driven message by message through `MCPServer.handle`.
@Suite struct MCPServerTests {
    let root = packageRoot.path
    let trace = packageRoot.appendingPathComponent("traces/invalid/double-refresh.jsonl").path

    func server(allowing folders: [String]? = nil) throws -> MCPServer {
        MCPServer(session: MCPSession(access: try MCPFileAccess(folders: folders ?? [root])))
    }

    /// The answer to `line`, parsed.
    func answer(_ server: MCPServer, _ line: String) throws -> JSONValue {
        let text = try #require(server.handle(Array(line.utf8)))
        #expect(!text.contains("\n"))
        return try JSONParser.parse(text)
    }

    /// The result of calling `tool` with `arguments` (a JSON object's text).
    func call(_ server: MCPServer, _ tool: String, _ arguments: String, id: Int = 1) throws -> JSONValue {
        try answer(
            server,
            #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"\#(tool)","arguments":\#(arguments)}}"#
        )
    }

    func errorCode(_ answer: JSONValue) -> Int? { answer["error"]?["code"]?.intValue }

    @Test func initializesListsToolsAndIgnoresNotifications() throws {
        let server = try server()
        let initialized = try answer(
            server,
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2099-01-01","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
        )
        #expect(initialized["result"]?["protocolVersion"] == .string("2025-11-25"))
        #expect(initialized["result"]?["capabilities"]?["tools"] != nil)
        #expect(server.handle(Array(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.utf8)) == nil)
        let listed = try answer(server, #"{"jsonrpc":"2.0","id":"two","method":"tools/list"}"#)
        #expect(listed["id"] == .string("two"))
        let tools = try #require(listed["result"]?["tools"]?.arrayValue)
        #expect(
            Set(tools.compactMap { $0["name"]?.stringValue })
                == [
                    "open_trace", "summary", "problems", "events", "state", "diff", "when", "why", "compare",
                    "coverage",
                ])
        #expect(tools.allSatisfy { $0["inputSchema"]?["type"] == .string("object") })
    }

    @Test func findsTheFirstWrongStepAndTheLineOfSwiftThatSentIt() throws {
        let server = try server()
        let summary = try call(server, "summary", #"{"trace":\#(JSONPrinter.quoted(trace))}"#)
        let first = try #require(summary["result"]?["structuredContent"]?["problems"]?["firstError"])
        #expect(first["kind"] == .string("illegal"))
        let seq = try #require(first["seq"]?.intValue)
        #expect(seq == 6)
        let why = try call(server, "why", #"{"trace":\#(JSONPrinter.quoted(trace)),"seq":\#(seq)}"#)
        #expect(why["result"]?["structuredContent"]?["chain"]?[0]?["source"] == .string("SampleApp/Shop.swift:97"))
        // The text content is the same answer, for clients that read only text.
        let text = try #require(why["result"]?["content"]?[0]?["text"]?.stringValue)
        #expect(try JSONParser.parse(text) == why["result"]?["structuredContent"])
    }

    @Test func hostileMessagesGetErrorsAndTheServerGoesOnAnswering() throws {
        let server = try server()
        let cases: [(String, Int)] = [
            ("not json at all", -32700),
            (#"{"jsonrpc":"2.0","id":1,"method":"#, -32700),
            (#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, -32600),
            ("\"a string\"", -32600),
            (#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#, -32600),
            (#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, -32600),
            (#"{"jsonrpc":"2.0","id":1,"method":7}"#, -32600),
            (#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#, -32601),
            (#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"summary"}"#, -32602),
            (#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"format_disk"}}"#, -32602),
            (#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"state","arguments":[]}}"#, -32602),
            (
                #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"state","arguments":{"trace":"x","step":1.5}}}"#,
                -32602
            ),
            (
                #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"state","arguments":{"trace":"x"}}}"#,
                -32602
            ),
            (
                #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"why","arguments":{"trace":"x","seq":-4}}}"#,
                -32602
            ),
        ]
        for (line, code) in cases {
            let response = try answer(server, line)
            #expect(errorCode(response) == code, "\(line)")
            #expect((response["error"]?["message"]?.stringValue?.count ?? 0) > 20, "\(line)")
        }
        #expect(try answer(server, #"{"jsonrpc":"2.0","id":9,"method":"ping"}"#)["result"] == .object([:]))
        // A line too long for the reader is answered as a parse error, never kept.
        let tooLong = try JSONParser.parse(try #require(server.handle(.tooLong(byteCount: 5 << 20))))
        #expect(errorCode(tooLong) == -32700)
    }

    @Test func readsNoFileOutsideTheAllowedFolders() throws {
        let folder = try TemporaryFolder()
        let inside = folder.path("inside")
        try FileManager.default.createDirectory(atPath: inside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: inside + "/link.jsonl", withDestinationPath: trace)
        try FileManager.default.copyItem(atPath: trace, toPath: inside + "/copy.jsonl")
        try FileManager.default.copyItem(atPath: trace, toPath: folder.path("outside.jsonl"))
        let server = try server(allowing: [inside])
        for path in ["/etc/passwd", inside + "/link.jsonl", inside + "/../outside.jsonl", "/dev/zero", inside] {
            let result = try call(server, "open_trace", #"{"path":\#(JSONPrinter.quoted(path))}"#)
            #expect(result["result"]?["isError"] == .bool(true), "\(path)")
        }
        let allowed = try call(server, "open_trace", #"{"path":\#(JSONPrinter.quoted(inside + "/copy.jsonl"))}"#)
        #expect(allowed["result"]?["isError"] == .bool(false))
        #expect(allowed["result"]?["structuredContent"]?["events"] == .number("9"))
    }

    /// A trace whose one store holds 3,000 items, one of them with a terminal escape and one
    /// redacted.
    func largeTrace(in folder: TemporaryFolder) throws -> String {
        var items = (0..<3000).map {
            #"{"id":\#($0),"name":"item \#($0)","note":"\#(String(repeating: "x", count: 40))"}"#
        }
        items[7] = #"{"id":7,"name":"\u001b]0;pwned\u0007\u009b31m","password":"<redacted>"}"#
        var lines = [#"{"type":"header","format":"rewind-trace","version":1,"app":"Big","machines":{}}"#]
        lines.append(#"{"type":"register","seq":1,"store":"Big","state":{"items":[\#(items.joined(separator: ","))]}}"#)
        for seq in 2...300 {
            lines.append(
                #"{"type":"transition","seq":\#(seq),"store":"Small","action":"tick","changed":true,"state":{"n":\#(seq)},"source":"Small.swift:\#(seq)"}"#
            )
        }
        let path = folder.path("big.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func everyAnswerIsBoundedAndLargeValuesFoldWithPathsToAskNext() throws {
        let folder = try TemporaryFolder()
        let path = try largeTrace(in: folder)
        let server = try server(allowing: [folder.url.path])
        let quoted = JSONPrinter.quoted(path)
        let whole = try #require(
            server.handle(
                Array(
                    #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"state","arguments":{"trace":\#(quoted),"step":5,"path":"Big.items"}}}"#
                        .utf8)))
        let result = try #require(try JSONParser.parse(whole)["result"]?["structuredContent"])
        #expect(AnswerBounds.size(result) <= AnswerBounds.answerBytes)
        #expect(result["folded"] == .bool(true))
        let next = try #require(result["next"]?.arrayValue)
        #expect(next.count == 100 && result["nextOffset"] == .number("100"))
        #expect(next[7]["path"] == .string("Big.items[7]"))
        // The path given next answers the item whole, its strings escaped and redaction kept.
        let item = try call(server, "state", #"{"trace":\#(quoted),"step":5,"path":"Big.items[7]"}"#)
        let line = try #require(
            server.handle(
                Array(
                    #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"state","arguments":{"trace":\#(quoted),"step":5,"path":"Big.items[7]"}}}"#
                        .utf8)))
        #expect(!line.utf8.contains(0x1B) && !line.unicodeScalars.contains("\u{9B}"))
        #expect(item["result"]?["structuredContent"]?["value"]?["password"] == .string("<redacted>"))
        #expect(item["result"]?["structuredContent"]?["folded"] == .bool(false))

        // Events page: each page continues where the last stopped, none repeated or skipped.
        var from = 1
        var seen: [Int] = []
        while true {
            let page = try call(server, "events", #"{"trace":\#(quoted),"from":\#(from),"limit":120}"#)
            let content = try #require(page["result"]?["structuredContent"])
            #expect(AnswerBounds.size(content) <= AnswerBounds.answerBytes)
            seen += content["events"]?.arrayValue?.compactMap { $0["step"]?.intValue } ?? []
            guard let next = content["nextFrom"]?.intValue else { break }
            from = next
        }
        #expect(seen == Array(1...300))
    }

    @Test func messagesLongerThanTheLimitAreSkippedAndTheNextIsRead() {
        var input = Array(String(repeating: "a", count: 300).utf8) + [10] + Array("{\"x\":1}\r\n{}".utf8)
        var reader = MCPMessageReader(limit: 100) { buffer in
            let count = min(buffer.count, 64, input.count)
            buffer.copyBytes(from: input[..<count])
            input.removeFirst(count)
            return count
        }
        #expect(reader.next() == .tooLong(byteCount: 300))
        #expect(reader.next() == .line(Array("{\"x\":1}".utf8)))
        #expect(reader.next() == .line(Array("{}".utf8)))
        #expect(reader.next() == nil)
    }
}
