import TraceJSON

/// The Model Context Protocol server of `inspector mcp`: reads one JSON-RPC 2.0 message per
/// line and answers requests with one line each.
///
/// Protocol revisions (`supportedVersions`): 2026-07-28, whose client asks `server/discover`
/// and then names the revision in each request's `_meta`
/// (`io.modelcontextprotocol/protocolVersion`), and every revision a client agrees on with
/// `initialize`, 2025-11-25 the latest of them. `initialize` answers the revision the client
/// asked for when it is one of those, and otherwise 2025-11-25, the latest that has an
/// `initialize` (2026-07-28 has none); a request whose `_meta` names a revision this server does
/// not speak gets error -32022 with the ones it does. What this server uses is the same in
/// every revision but for what 2026-07-28 made required: its results carry `resultType`, and
/// `tools/list`'s (a cacheable result) `ttlMs` and `cacheScope`.
///
/// It answers `initialize`, `server/discover`, `ping`, `tools/list` and `tools/call`;
/// notifications (`notifications/initialized`, `notifications/cancelled`, …) get no answer, as
/// JSON-RPC says. What is not a request it can answer gets a JSON-RPC error whose message says
/// what to send instead: -32700 for a line that is not JSON (or longer than the reader's limit),
/// -32600 for JSON that is not a request (a batch included: MCP has none), -32601 for an
/// unknown method, -32602 for wrong params or tool arguments. A tool that cannot answer (a file
/// outside the allowed folders, a step past the end) gives a result with `isError: true` and a
/// message. What an error repeats of the client's input is a short excerpt (`MCPExcerpt`), so
/// that an error is small whatever it answers. No message stops the server: only the end of
/// its input does.
///
/// `handle(_:)` takes one line and gives the line to write back, so tests drive it directly.
final class MCPServer {
    /// The newest protocol revision this server implements.
    static let protocolVersion = "2026-07-28"
    /// The revisions a client agrees on with `initialize`, oldest first (the tools are the same;
    /// `structuredContent` is extra for the two before 2025-06-18).
    static let handshakeVersions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
    /// The revisions without `initialize`, whose requests name the revision in `_meta`.
    static let envelopeVersions = ["2026-07-28"]
    /// Every revision this server speaks, oldest first.
    static let supportedVersions = handshakeVersions + envelopeVersions
    /// The `_meta` key in which a 2026-07-28 request names its revision.
    static let versionMetaKey = "io.modelcontextprotocol/protocolVersion"
    /// The longest request `id` answered (a string's bytes): a response repeats its id whole.
    static let idBytes = 256

    let session: MCPSession
    private let tools: [MCPTool]

    init(session: MCPSession, tools: [MCPTool] = MCPToolTable.tools) {
        self.session = session
        self.tools = tools
    }

    /// The answer to one message read by `MCPMessageReader`, or nil when none is due.
    func handle(_ message: MCPMessageReader.Message) -> String? {
        switch message {
        case .line(let bytes): return handle(bytes)
        case .tooLong(let count):
            return Self.line(
                id: .null,
                error: .parseError(
                    "a message of \(count) bytes is longer than this server reads (\(MCPMessageReader.defaultLimit >> 20) MiB); it was skipped"
                ))
        }
    }

    /// The answer to one line (without its newline), or nil when none is due: a notification,
    /// a response, or a blank line.
    func handle(_ bytes: [UInt8]) -> String? {
        guard bytes.contains(where: { $0 != 32 && $0 != 9 && $0 != 13 }) else { return nil }
        let parsed: JSONValue
        do {
            parsed = try JSONParser.parse(bytes)
        } catch {
            return Self.line(
                id: .null,
                error: .parseError(
                    "the message is not JSON (\(error)); send one JSON-RPC 2.0 object per line, without newlines inside it"
                ))
        }
        guard case .object(let message) = parsed else {
            if case .array = parsed {
                return Self.line(
                    id: .null,
                    error: .invalidRequest(
                        "batches (arrays of messages) are not part of MCP; send each message on its own line"
                    ))
            }
            return Self.line(
                id: .null,
                error: .invalidRequest(
                    "the message is a JSON \(parsed.kindName), not a JSON-RPC request; send {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":…}"
                ))
        }
        let id = message["id"]
        if let id {
            switch id {
            case .string(let text) where text.utf8.count > Self.idBytes:
                return Self.line(
                    id: .null,
                    error: .invalidRequest(
                        "the request's \"id\" is a string of \(text.utf8.count) bytes; give a number or a string of at most \(Self.idBytes) bytes"
                    ))
            case .number(let text) where text.utf8.count > Self.idBytes:
                return Self.line(
                    id: .null,
                    error: .invalidRequest(
                        "the request's \"id\" is a number of \(text.utf8.count) digits; give a shorter one"))
            case .string, .number: break
            default:
                return Self.line(
                    id: .null,
                    error: .invalidRequest("the request's \"id\" is a \(id.kindName); give a string or a number"))
            }
        }
        guard message["jsonrpc"] == .string("2.0") else {
            return Self.line(
                id: id ?? .null,
                error: .invalidRequest("the message lacks \"jsonrpc\":\"2.0\"; this server speaks JSON-RPC 2.0"))
        }
        guard let methodValue = message["method"] else {
            // A response to a request this server never sends: nothing to answer.
            if id != nil && (message["result"] != nil || message["error"] != nil) { return nil }
            return Self.line(
                id: id ?? .null,
                error: .invalidRequest("the message has no \"method\"; give one, such as \"tools/list\""))
        }
        guard let method = methodValue.stringValue else {
            return Self.line(
                id: id ?? .null, error: .invalidRequest("\"method\" is a \(methodValue.kindName); give a string"))
        }
        let params = message["params"]
        if let params, params != .null, params.objectValue == nil {
            guard let id else { return nil }
            return Self.line(
                id: id,
                error: .invalidParams(
                    "\"params\" of \(MCPExcerpt.of(method)) must be an object, not a \(params.kindName)"))
        }
        // A notification: never answered, even when unknown.
        guard let id else { return nil }
        let object = params?.objectValue ?? [:]
        // A 2026-07-28 request names its revision in `_meta`; one this server does not speak is
        // refused before anything is done.
        var envelope: String?
        if let asked = object["_meta"]?[Self.versionMetaKey] {
            guard let version = asked.stringValue, Self.supportedVersions.contains(version) else {
                let text = asked.stringValue ?? JSONPrinter.compact(asked)
                return Self.line(id: id, error: .unsupportedVersion(text, supported: Self.supportedVersions))
            }
            envelope = version
        }
        let result: Result<JSONValue, JSONRPCError> = answer(method, params: object)
        switch result {
        case .success(let value):
            guard let envelope, Self.envelopeVersions.contains(envelope) else {
                return Self.line(id: id, result: value)
            }
            return Self.line(id: id, result: Self.enveloped(value, method: method))
        case .failure(let error): return Self.line(id: id, error: error)
        }
    }

    /// `result` with what 2026-07-28 requires of it: `resultType` (every result here is
    /// complete), and for `tools/list`, a cacheable result, how long it may be cached and by
    /// whom (the tools never change while the server runs, and hold nothing of a user's).
    static func enveloped(_ result: JSONValue, method: String) -> JSONValue {
        guard var object = result.objectValue else { return result }
        if object["resultType"] == nil { object.append(key: "resultType", value: .string("complete")) }
        if method == "tools/list" {
            object.append(key: "ttlMs", value: .number("0"))
            object.append(key: "cacheScope", value: .string("public"))
        }
        return .object(object)
    }

    /// The result of request `method`, or its error.
    private func answer(_ method: String, params: JSONObject) -> Result<JSONValue, JSONRPCError> {
        switch method {
        case "initialize":
            let asked = params["protocolVersion"]?.stringValue
            return .success(
                .object([
                    "protocolVersion": .string(Self.negotiatedVersion(asked)),
                    "capabilities": Self.capabilities,
                    "serverInfo": Self.serverInfo,
                    "instructions": .string(Self.instructions),
                ]))
        case "server/discover":
            return .success(
                .object([
                    "_meta": .object(["io.modelcontextprotocol/serverInfo": Self.serverInfo]),
                    "supportedVersions": .array(Self.supportedVersions.map(JSONValue.string)),
                    "capabilities": Self.capabilities,
                    "instructions": .string(Self.instructions),
                    "resultType": .string("complete"),
                    "ttlMs": .number("0"),
                    "cacheScope": .string("public"),
                ]))
        case "ping":
            return .success(.object([:]))
        case "tools/list":
            return .success(.object(["tools": .array(tools.map(\.listing))]))
        case "tools/call":
            return call(params)
        default:
            return .failure(
                .methodNotFound(
                    "no method \(MCPExcerpt.of(method)); this server answers initialize, server/discover, ping, tools/list and tools/call"
                ))
        }
    }

    /// The revision `initialize` answers when the client asks for `asked`: that one when the
    /// handshake has it, otherwise the latest the handshake has.
    static func negotiatedVersion(_ asked: String?) -> String {
        if let asked, handshakeVersions.contains(asked) { return asked }
        return handshakeVersions[handshakeVersions.count - 1]
    }

    /// What the server offers: tools, whose list never changes.
    static let capabilities: JSONValue = .object(["tools": .object(["listChanged": .bool(false)])])

    /// The server's name, title and version.
    static let serverInfo: JSONValue = .object([
        "name": .string("rewind-inspector"), "title": .string("Rewind trace inspector"),
        "version": .string(Inspector.version),
    ])

    /// The result of `tools/call`.
    private func call(_ params: JSONObject) -> Result<JSONValue, JSONRPCError> {
        guard let name = params["name"]?.stringValue else {
            return .failure(
                .invalidParams(
                    "tools/call needs \"name\", a string: one of \(tools.map(\.name).joined(separator: ", "))"))
        }
        guard let tool = tools.first(where: { $0.name == name }) else {
            return .failure(
                .invalidParams(
                    "no tool named \(MCPExcerpt.of(name)); the tools are \(tools.map(\.name).joined(separator: ", "))"))
        }
        var arguments = JSONObject()
        if let given = params["arguments"], given != .null {
            guard let object = given.objectValue else {
                return .failure(.invalidParams("\(name): \"arguments\" must be an object, not a \(given.kindName)"))
            }
            arguments = object
        }
        if let violation = MCPSchema.violation(of: tool.inputSchema, by: arguments, tool: name) {
            return .failure(.invalidParams(violation))
        }
        do {
            let structured = try tool.call(session, MCPToolArguments(tool: name, object: arguments))
            let text = JSONPrinter.compact(.object(structured), terminalSafe: true)
            return .success(
                .object([
                    "content": .array([.object(["type": .string("text"), "text": .string(text)])]),
                    "structuredContent": .object(structured),
                    "isError": .bool(false),
                ]))
        } catch {
            switch error {
            case .invalidArguments(let message): return .failure(.invalidParams(message))
            case .failed(let message):
                return .success(
                    .object([
                        "content": .array([
                            .object(["type": .string("text"), "text": .string(MCPExcerpt.message(message))])
                        ]),
                        "isError": .bool(true),
                    ]))
            }
        }
    }

    /// What `initialize` tells the agent about using the tools.
    static let instructions = """
        Rewind traces record every state transition of a Swift app's stores. Open a trace with \
        open_trace (paths relative to the server's folder), then ask: summary (problems counted), \
        problems (each with its seq), events (a range, filtered), why (an event's causes and \
        source line), state and diff (at a step), when (who changed a value). Answers are at \
        most \(AnswerBounds.answerBytes >> 10) KiB: lists are paged (nextOffset, nextFrom, \
        nextAfter) and large values folded, with the paths to ask for next.
        """

    /// A response line.
    static func line(id: JSONValue, result: JSONValue) -> String {
        JSONPrinter.compact(.object(["jsonrpc": .string("2.0"), "id": id, "result": result]), terminalSafe: true)
    }

    /// An error response line.
    static func line(id: JSONValue, error: JSONRPCError) -> String {
        JSONPrinter.compact(.object(["jsonrpc": .string("2.0"), "id": id, "error": error.json]), terminalSafe: true)
    }
}
