import TraceJSON

/// One tool the MCP server offers: its name, what it does, the JSON Schema of its arguments,
/// and what answers a call. Listed in `MCPToolTable`.
struct MCPTool: Sendable {
    /// The name a `tools/call` gives.
    let name: String
    /// What it answers, for the agent choosing a tool.
    let description: String
    /// The JSON Schema of its `arguments` object.
    let inputSchema: JSONValue
    /// Answers a call: the structured result (an object), at most `AnswerBounds.answerBytes`.
    let call: @Sendable (MCPSession, MCPToolArguments) throws(MCPToolError) -> JSONObject

    /// The tool as `tools/list` lists it.
    var listing: JSONValue {
        .object(["name": .string(name), "description": .string(description), "inputSchema": inputSchema])
    }
}

/// Why a tool call has no answer. `invalidArguments` (arguments that do not match the tool's
/// schema) is a JSON-RPC error, -32602; `failed` (a trace that cannot be read, a step past the
/// end) is a result with `isError: true`, which the agent reads and can act on.
enum MCPToolError: Error, Equatable {
    case invalidArguments(String)
    case failed(String)
}

/// A tool's `arguments`, read by name with their types checked: a wrong type or a missing
/// argument is `MCPToolError.invalidArguments` with a message naming the argument.
struct MCPToolArguments {
    let tool: String
    let object: JSONObject

    /// A required string.
    func string(_ name: String) throws(MCPToolError) -> String {
        guard let value = try optionalString(name) else { throw missing(name, "a string") }
        return value
    }

    /// An optional string.
    func optionalString(_ name: String) throws(MCPToolError) -> String? {
        guard let value = present(name) else { return nil }
        guard let string = value.stringValue else { throw wrong(name, "a string", value) }
        return string
    }

    /// A required whole number, at least `minimum`.
    func int(_ name: String, atLeast minimum: Int = 0) throws(MCPToolError) -> Int {
        guard let value = try optionalInt(name, atLeast: minimum) else { throw missing(name, "a whole number") }
        return value
    }

    /// An optional whole number, at least `minimum`.
    func optionalInt(_ name: String, atLeast minimum: Int = 0) throws(MCPToolError) -> Int? {
        guard let value = present(name) else { return nil }
        // 3.0 is read as 3, as JSON Schema's "integer" allows.
        guard let double = value.doubleValue, double.rounded() == double else {
            throw wrong(name, "a whole number", value)
        }
        guard abs(double) <= Double(MCPSchema.largestInteger) else {
            throw .invalidArguments(
                "\(tool): \(MCPExcerpt.of(name)) is too large (\(MCPExcerpt.number(value))); give at most \(MCPSchema.largestInteger)"
            )
        }
        let number = value.intValue ?? Int(double)
        guard number >= minimum else {
            throw .invalidArguments("\(tool): \(MCPExcerpt.of(name)) must be at least \(minimum), not \(number)")
        }
        return number
    }

    /// An optional boolean, `fallback` when absent.
    func bool(_ name: String, default fallback: Bool = false) throws(MCPToolError) -> Bool {
        guard let value = present(name) else { return fallback }
        guard let bool = value.boolValue else { throw wrong(name, "true or false", value) }
        return bool
    }

    /// A required array of strings, not empty.
    func strings(_ name: String) throws(MCPToolError) -> [String] {
        guard let value = present(name) else { throw missing(name, "an array of strings") }
        guard let array = value.arrayValue, !array.isEmpty else { throw wrong(name, "an array of strings", value) }
        var strings: [String] = []
        for element in array {
            guard let string = element.stringValue else { throw wrong(name, "an array of strings", value) }
            strings.append(string)
        }
        return strings
    }

    /// The page asked for: `offset` (default 0) and `limit` (default `fallback`, at most `maximum`).
    func page(defaultLimit fallback: Int, maximum: Int) throws(MCPToolError) -> (offset: Int, limit: Int) {
        let offset = try optionalInt("offset") ?? 0
        let limit = try optionalInt("limit", atLeast: 1) ?? fallback
        return (offset, min(limit, maximum))
    }

    private func present(_ name: String) -> JSONValue? {
        guard let value = object[name], value != .null else { return nil }
        return value
    }

    private func missing(_ name: String, _ kind: String) -> MCPToolError {
        .invalidArguments(
            "\(tool): the argument \(MCPExcerpt.of(name)) is missing; give \(kind) (tools/list shows the schema)")
    }

    private func wrong(_ name: String, _ kind: String, _ value: JSONValue) -> MCPToolError {
        .invalidArguments(
            "\(tool): \(MCPExcerpt.of(name)) must be \(kind), not \(value.kindName == "number" ? "the number \(MCPExcerpt.number(value))" : "a \(value.kindName)")"
        )
    }
}

/// JSON Schemas of tool arguments, written briefly.
enum MCPSchema {
    /// `{"type":"object","properties":…,"required":…,"additionalProperties":false}`.
    static func object(_ properties: [(String, JSONValue)], required: [String]) -> JSONValue {
        .object([
            "type": .string("object"),
            "properties": .object(JSONObject(properties.map { (key: $0.0, value: $0.1) })),
            "required": .array(required.map(JSONValue.string)),
            "additionalProperties": .bool(false),
        ])
    }

    static func string(_ description: String) -> JSONValue {
        .object(["type": .string("string"), "description": .string(description)])
    }

    /// The largest whole number an argument takes unless its schema says less: above it, a
    /// JSON number is no longer read exactly as a whole number.
    static let largestInteger = 999_999_999_999_999

    static func integer(_ description: String, minimum: Int = 0, maximum: Int = largestInteger) -> JSONValue {
        .object([
            "type": .string("integer"), "minimum": .number(String(minimum)), "maximum": .number(String(maximum)),
            "description": .string(description),
        ])
    }

    static func boolean(_ description: String) -> JSONValue {
        .object(["type": .string("boolean"), "description": .string(description)])
    }

    static func strings(_ description: String) -> JSONValue {
        .object([
            "type": .string("array"), "items": .object(["type": .string("string")]), "minItems": .number("1"),
            "description": .string(description),
        ])
    }

    /// The `trace` argument every trace tool takes.
    static let trace: (String, JSONValue) = (
        "trace",
        string("the trace file's path as given to open_trace (relative to the server's folder); opened on first use")
    )

    /// The paging arguments.
    static func paging(defaultLimit: Int, maximum: Int) -> [(String, JSONValue)] {
        [
            ("offset", integer("where the page starts: 0, or the nextOffset of the previous answer")),
            (
                "limit",
                integer(
                    "the most items on the page (default \(defaultLimit), at most \(maximum))", minimum: 1,
                    maximum: maximum)
            ),
        ]
    }
}

extension MCPSchema {
    /// The first way `arguments` break `schema` (a schema `object(_:required:)` made): an
    /// unknown or missing argument, a wrong type, a number below its minimum. Checked before a
    /// tool runs, so that wrong arguments are a JSON-RPC error whatever else is wrong.
    static func violation(of schema: JSONValue, by arguments: JSONObject, tool: String) -> String? {
        let properties = schema["properties"]?.objectValue ?? [:]
        for (name, value) in arguments {
            guard let property = properties[name] else {
                return
                    "\(tool) has no argument \(MCPExcerpt.of(name)); its arguments are \(properties.keys.sorted().joined(separator: ", "))"
            }
            if value == .null { continue }
            let type = property["type"]?.stringValue
            let fits: Bool =
                switch type {
                case "string": value.stringValue != nil
                case "boolean": value.boolValue != nil
                case "integer": value.doubleValue.map { $0.rounded() == $0 } ?? false
                case "array": value.arrayValue.map { !$0.isEmpty && $0.allSatisfy { $0.stringValue != nil } } ?? false
                default: true
                }
            guard fits else {
                let wanted =
                    switch type {
                    case "integer": "a whole number"
                    case "array": "an array of strings, not empty"
                    case "boolean": "true or false"
                    default: "a \(type ?? "value")"
                    }
                return
                    "\(tool): '\(name)' must be \(wanted), not \(value.kindName == "number" ? MCPExcerpt.number(value) : "a \(value.kindName)")"
            }
            if let minimum = property["minimum"]?.doubleValue, let number = value.doubleValue, number < minimum {
                return
                    "\(tool): '\(name)' must be at least \(JSONPrinter.compact(property["minimum"]!)), not \(MCPExcerpt.number(value))"
            }
            if let maximum = property["maximum"]?.doubleValue, let number = value.doubleValue, number > maximum {
                return
                    "\(tool): '\(name)' is too large (\(MCPExcerpt.number(value))); give at most \(JSONPrinter.compact(property["maximum"]!))"
            }
        }
        for required in schema["required"]?.arrayValue ?? [] {
            guard let name = required.stringValue else { continue }
            if arguments[name] == nil || arguments[name] == .null {
                return "\(tool): the argument '\(name)' is missing (tools/list shows the schema)"
            }
        }
        return nil
    }
}
