import Testing
import TraceJSON

@testable import Inspector

/// `inspector mcp`'s protocol revisions: `initialize` agrees on the client's revision when the
/// server has it and answers its latest handshake revision otherwise; 2026-07-28 clients ask
/// `server/discover` and name the revision in each request's `_meta`, and get what that
/// revision requires of a result.
@Suite struct MCPProtocolVersionTests {
    func initialize(_ driver: MCPDriver, asking version: String) throws -> JSONValue? {
        try driver.answer(
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"\#(version)","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
        )["result"]?["protocolVersion"]
    }

    @Test func initializeAnswersTheAskedRevisionWhenSupportedAndTheLatestOtherwise() throws {
        let driver = try MCPDriver()
        for version in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
            #expect(try initialize(driver, asking: version) == .string(version))
        }
        // Unknown, and 2026-07-28, which has no initialize: the latest revision that has one.
        #expect(try initialize(driver, asking: "2099-01-01") == .string("2025-11-25"))
        #expect(try initialize(driver, asking: "2026-07-28") == .string("2025-11-25"))
        #expect(MCPServer.supportedVersions.contains("2026-07-28"))
        #expect(MCP.help.contains("2026-07-28") && MCP.help.contains("2025-11-25") && MCP.help.contains("2025-06-18"))
    }

    @Test func discoverListsTheRevisionsAndEnvelopedResultsCarryWhat2026Requires() throws {
        let driver = try MCPDriver()
        let meta =
            #""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#
        let discovered = try #require(
            try driver.answer(#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{\#(meta)}}"#)["result"])
        #expect(
            discovered["supportedVersions"]
                == .array(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"].map(JSONValue.string)))
        #expect(discovered["resultType"] == .string("complete") && discovered["ttlMs"] == .number("0"))
        #expect(discovered["cacheScope"] == .string("public") && discovered["capabilities"]?["tools"] != nil)
        #expect(discovered["_meta"]?["io.modelcontextprotocol/serverInfo"]?["name"] == .string("rewind-inspector"))

        let listed = try #require(
            try driver.answer(#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{\#(meta)}}"#)["result"])
        #expect(listed["resultType"] == .string("complete") && listed["ttlMs"] != nil && listed["cacheScope"] != nil)
        let called = try driver.call("summary", #"{"trace":\#(JSONPrinter.quoted(MCPDriver.trace))}"#, meta: "," + meta)
        #expect(called["result"]?["resultType"] == .string("complete"))
        #expect(called["result"]?["structuredContent"]?["events"] == .number("9"))

        // Without `_meta`, as before 2026-07-28: no `resultType`.
        let plain = try #require(try driver.answer(#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#)["result"])
        #expect(plain["resultType"] == nil && plain["ttlMs"] == nil)
    }

    @Test func aRequestNamingAnUnsupportedRevisionGetsErrorMinus32022WithTheSupportedOnes() throws {
        let driver = try MCPDriver()
        let answer = try driver.answer(
            #"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2030-01-01"}}}"#
        )
        #expect(answer["id"] == .number("7"))
        #expect(answer["error"]?["code"] == .number("-32022"))
        #expect(answer["error"]?["data"]?["requested"] == .string("2030-01-01"))
        #expect(answer["error"]?["data"]?["supported"]?.arrayValue?.contains(.string("2026-07-28")) == true)
        // The server goes on answering.
        #expect(try driver.answer(#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#)["result"] == .object([:]))
    }
}
