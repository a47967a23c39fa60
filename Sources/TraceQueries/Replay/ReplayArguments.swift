import TraceJSON
import TraceReader

/// The recorded arguments of one action, as a ``ReplayTable`` call gets them: typed accessors
/// that throw a ``TraceReplayError`` naming the trace's line when an argument is missing, has
/// another type, or was redacted and the app supplied no value for it.
///
/// ```swift
/// table.on("CartStore", "add") { args in
///     cart.add(try args.string("sku"), quantity: try args.int("quantity"))
/// }
/// ```
public struct ReplayArguments: Sendable {
    /// The store the action ran on.
    public let store: String
    /// The action's name.
    public let action: String
    /// The line of the action's event in the trace.
    public let line: Int
    /// The `seq` of the action's event: its step.
    public let step: Int
    /// The recorded `args`, as written (redacted values included); empty when it had none.
    public let recorded: JSONObject
    /// The trace's path or name, for messages.
    let path: String
    /// The values the app supplied for redacted arguments, by `Store.action.argument`.
    let supplied: [String: JSONValue]

    init(event: TraceEvent, path: String, supplied: [String: JSONValue]) {
        store = event.store ?? ""
        action = event.action ?? ""
        line = event.line
        step = event.seq
        recorded = event.args ?? JSONObject()
        self.path = path
        self.supplied = supplied
    }

    /// The recorded value of `name`, or the value the app supplied when the trace holds it as
    /// `"<redacted>"` (anywhere inside it).
    /// - Throws: `.badArgument` when there is no such argument, `.redactedValue` when it is
    ///   redacted and no value was supplied.
    public func value(_ name: String) throws(TraceReplayError) -> JSONValue {
        guard let value = recorded[name] else {
            let known = recorded.keys.isEmpty ? "none" : recorded.keys.joined(separator: ", ")
            throw TraceReplayError(
                .badArgument, path: path, line: line,
                message:
                    "\(store).\(action) has no argument '\(name)' in the trace (its arguments: \(known)); was it recorded by another version of the app?"
            )
        }
        guard Self.isRedacted(value) else { return value }
        let key = "\(store).\(action).\(name)"
        guard let value = supplied[key] else {
            throw TraceReplayError(
                .redactedValue, path: path, line: line,
                message:
                    "the argument '\(name)' of \(store).\(action) (step \(step)) is <redacted> in the trace, so it cannot be sent again; supply it: TraceReplay(…, redactedValues: [\"\(key)\": …])"
            )
        }
        return value
    }

    /// The argument `name` as a string.
    public func string(_ name: String) throws(TraceReplayError) -> String {
        let found = try value(name)
        guard let text = found.stringValue else { throw mismatch(name, "a string", found) }
        return text
    }

    /// The argument `name` as an integer.
    public func int(_ name: String) throws(TraceReplayError) -> Int {
        let found = try value(name)
        guard let number = found.intValue else { throw mismatch(name, "an integer", found) }
        return number
    }

    /// The argument `name` as a floating-point number.
    public func double(_ name: String) throws(TraceReplayError) -> Double {
        let found = try value(name)
        guard let number = found.doubleValue else { throw mismatch(name, "a number", found) }
        return number
    }

    /// The argument `name` as a Boolean.
    public func bool(_ name: String) throws(TraceReplayError) -> Bool {
        let found = try value(name)
        guard let flag = found.boolValue else { throw mismatch(name, "a Boolean", found) }
        return flag
    }

    /// The argument `name` decoded as a `T`, as a recorded state is (`JSONValueDecoder`).
    public func decode<T: Decodable>(_ type: T.Type, _ name: String) throws(TraceReplayError) -> T {
        let found = try value(name)
        do {
            return try JSONValueDecoder().decode(T.self, from: found)
        } catch {
            throw mismatch(name, "a \(T.self)", found)
        }
    }

    /// The whole action decoded as a `Decodable` enum whose `Codable` conformance Swift
    /// synthesized: `{"<action>": <args>}` (`{"add": {"sku": "MUG"}}`), the shape in which
    /// `StoreRecording.record(action:state:)` records a case and its associated values.
    public func decodeAction<Action: Decodable>(_ type: Action.Type) throws(TraceReplayError) -> Action {
        var members = JSONObject()
        for name in recorded.keys { members.append(key: name, value: try value(name)) }
        do {
            return try JSONValueDecoder().decode(Action.self, from: .object([action: .object(members)]))
        } catch {
            throw TraceReplayError(
                .badArgument, path: path, line: line,
                message:
                    "\(store).\(action) with its recorded arguments is not a \(Action.self) (\(error)); record the action with StoreRecording.record(action:state:) and give \(Action.self) Swift's synthesized Codable conformance"
            )
        }
    }

    private func mismatch(_ name: String, _ expected: String, _ found: JSONValue) -> TraceReplayError {
        TraceReplayError(
            .badArgument, path: path, line: line,
            message:
                "the argument '\(name)' of \(store).\(action) is a JSON \(found.kindName) in the trace, not \(expected)"
        )
    }

    /// Whether `value` is, or holds, the string the recorder writes for a redacted value.
    static func isRedacted(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text): text == "<redacted>"
        case .array(let elements): elements.contains(where: isRedacted)
        case .object(let object): object.contains { isRedacted($0.value) }
        case .null, .bool, .number: false
        }
    }
}
