import TraceJSON

/// A JSON-RPC 2.0 error object (`{"code":-32602,"message":"…"}`): the answer to a message the
/// server cannot act on. Each message says what was wrong and what to send instead.
struct JSONRPCError: Error, Equatable {
    /// The JSON-RPC error code.
    var code: Int
    /// What went wrong and what to do, for a person reading the client's log.
    var message: String
    /// What a client reads to recover (-32022's `requested` and `supported`), when there is any.
    var data: JSONValue?

    /// An error with `code` and `message`, and `data` when the code has it.
    init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// -32700: the line is not JSON.
    static func parseError(_ message: String) -> JSONRPCError { JSONRPCError(code: -32700, message: message) }
    /// -32600: JSON, but not a JSON-RPC 2.0 request or notification.
    static func invalidRequest(_ message: String) -> JSONRPCError { JSONRPCError(code: -32600, message: message) }
    /// -32601: a method this server does not have.
    static func methodNotFound(_ message: String) -> JSONRPCError { JSONRPCError(code: -32601, message: message) }
    /// -32602: the method exists but its params (a tool's arguments included) are wrong.
    static func invalidParams(_ message: String) -> JSONRPCError { JSONRPCError(code: -32602, message: message) }

    /// -32022 (MCP 2026-07-28): a request's `_meta` names a protocol revision this server does
    /// not speak; `data` lists the ones it does, for the client to choose from and retry.
    static func unsupportedVersion(_ requested: String, supported: [String]) -> JSONRPCError {
        JSONRPCError(
            code: -32022,
            message:
                "protocol revision \(MCPExcerpt.of(requested)) is not one this server speaks; give one of \(supported.joined(separator: ", "))",
            data: .object([
                "requested": .string(MCPExcerpt.cut(requested)),
                "supported": .array(supported.map(JSONValue.string)),
            ]))
    }

    /// The error object as JSON; its message bounded (`MCPExcerpt.message`).
    var json: JSONValue {
        var object: JSONObject = ["code": .number(String(code)), "message": .string(MCPExcerpt.message(message))]
        if let data { object.append(key: "data", value: data) }
        return .object(object)
    }
}
