import Foundation
import TestSupport
import Testing
import TraceJSON

@testable import Inspector

/// What an `inspector mcp` error repeats of a hostile request is a short excerpt, escaped:
/// a 3 MB method, tool name, argument name, path or trace name gives an error of a few hundred
/// bytes that names the input's size.
@Suite struct MCPBoundedErrorTests {
    /// 3 MB of text that starts with a terminal escape.
    static let huge = "\u{1B}]0;pwned\u{07}" + String(repeating: "é", count: 3 << 19)
    static let hugeBytes = huge.utf8.count
    static let quotedHuge = JSONPrinter.quoted(huge)

    /// Checks that `line`, an answer, is short, names the input's size and has no raw escape.
    func expectBounded(_ line: String, _ comment: Comment) {
        #expect(line.utf8.count < 2048, comment)
        #expect(line.contains("(\(Self.hugeBytes) bytes)"), comment)
        #expect(!line.utf8.contains(0x1B) && !line.utf8.contains(0x07), comment)
    }

    @Test func jsonRPCErrorsRepeatAnExcerptOfAHugeMethodToolOrArgumentName() throws {
        let driver = try MCPDriver()
        let cases: [(String, Int)] = [
            (#"{"jsonrpc":"2.0","id":1,"method":\#(Self.quotedHuge)}"#, -32601),
            (#"{"jsonrpc":"2.0","id":1,"method":\#(Self.quotedHuge),"params":[1]}"#, -32602),
            (#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":\#(Self.quotedHuge)}}"#, -32602),
            (
                #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"summary","arguments":{\#(Self.quotedHuge):1}}}"#,
                -32602
            ),
            (
                #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"state","arguments":{"trace":\#(JSONPrinter.quoted(MCPDriver.trace)),"step":1,"path":\#(Self.quotedHuge)}}}"#,
                -32602
            ),
        ]
        for (request, code) in cases {
            let line = try driver.line(request)
            #expect(try JSONParser.parse(line)["error"]?["code"] == .number(String(code)))
            expectBounded(line, "\(line.prefix(300))")
        }
        // The excerpt is the input's beginning, escaped as JSON escapes it.
        let line = try driver.line(#"{"jsonrpc":"2.0","id":1,"method":\#(Self.quotedHuge)}"#)
        let message = try #require(try JSONParser.parse(line)["error"]?["message"]?.stringValue)
        #expect(message.contains(#""\u001b]0;pwned\u0007éé"#))
    }

    @Test func toolErrorsRepeatAnExcerptOfAHugePathOrTraceName() throws {
        let driver = try MCPDriver()
        for (tool, argument) in [("open_trace", "path"), ("summary", "trace"), ("events", "trace")] {
            let line = try driver.line(
                #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"\#(tool)","arguments":{"\#(argument)":\#(Self.quotedHuge)}}}"#
            )
            #expect(try JSONParser.parse(line)["result"]?["isError"] == .bool(true))
            expectBounded(line, "\(tool)")
        }
        let trace = JSONPrinter.quoted(MCPDriver.trace)
        let store = try driver.line(
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"events","arguments":{"trace":\#(trace),"store":\#(Self.quotedHuge)}}}"#
        )
        expectBounded(store, "store")
    }

    @Test func aHugeIdIsRefusedRatherThanRepeated() throws {
        let driver = try MCPDriver()
        let line = try driver.line(#"{"jsonrpc":"2.0","id":\#(Self.quotedHuge),"method":"ping"}"#)
        #expect(line.utf8.count < 1024)
        #expect(try JSONParser.parse(line)["error"]?["code"] == .number("-32600"))
    }

    @Test func aNumberTooLargeIsSaidToBeTooLargeWithTheMaximum() throws {
        let driver = try MCPDriver()
        let trace = JSONPrinter.quoted(MCPDriver.trace)
        let limit = try driver.call("events", #"{"trace":\#(trace),"limit":1e15}"#)
        #expect(limit["error"]?["code"] == .number("-32602"))
        let message = try #require(limit["error"]?["message"]?.stringValue)
        #expect(message.contains("too large") && message.contains("at most 500"), "\(message)")
        let step = try driver.call("state", #"{"trace":\#(trace),"step":1e300}"#)
        let stepMessage = try #require(step["error"]?["message"]?.stringValue)
        #expect(stepMessage.contains("too large") && stepMessage.contains("999999999999999"), "\(stepMessage)")
        let digits = try driver.line(
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"state","arguments":{"trace":\#(trace),"step":\#(String(repeating: "9", count: 100_000))}}}"#
        )
        #expect(digits.utf8.count < 1024 && digits.contains("(100000 bytes)"))
    }
}
