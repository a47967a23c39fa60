import TraceJSON

/// A JSON-RPC 2.0 error object (`{"code":-32602,"message":"…"}`): the answer to a message the
/// server cannot act on. Each message says what was wrong and what to send instead.
struct JSONRPCError: Error, Equatable {
    /// The JSON-RPC error code.
    var code: Int
    /// What went wrong and what to do, for a person reading the client's log.
    var message: String

    /// -32700: the line is not JSON.
    static func parseError(_ message: String) -> JSONRPCError { JSONRPCError(code: -32700, message: message) }
    /// -32600: JSON, but not a JSON-RPC 2.0 request or notification.
    static func invalidRequest(_ message: String) -> JSONRPCError { JSONRPCError(code: -32600, message: message) }
    /// -32601: a method this server does not have.
    static func methodNotFound(_ message: String) -> JSONRPCError { JSONRPCError(code: -32601, message: message) }
    /// -32602: the method exists but its params (a tool's arguments included) are wrong.
    static func invalidParams(_ message: String) -> JSONRPCError { JSONRPCError(code: -32602, message: message) }

    /// The error object as JSON.
    var json: JSONValue {
        .object(["code": .number(String(code)), "message": .string(message)])
    }
}
