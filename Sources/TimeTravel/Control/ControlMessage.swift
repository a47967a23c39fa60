import TraceJSON

// The control channel's protocol: JSON objects, one per line (`\n`), at most
// `ControlChannel.Limits.maximumMessageBytes` each, in both directions.
//
//   app → inspector, on connecting:  {"type":"hello","protocol":1,"trace":"/abs/run.jsonl","pid":123}
//   inspector → app:                 {"type":"restore","step":5}      {"type":"present"}
//   app → inspector, one per request: {"type":"restored","step":5,"present":false,"stores":[…],
//                                      "absent":[…],"kept":["Session.token"]}
//                                     {"type":"error","message":"…"}

/// What the inspector asks of the app.
package enum ControlRequest: Equatable, Sendable {
    /// Set the app to step `step` of its trace.
    case restore(step: Int)
    /// Set the app back to its present: the last recorded state before the first restore.
    case present

    /// The request's line, without its `\n`.
    package var line: String {
        switch self {
        case .restore(let step): "{\"type\":\"restore\",\"step\":\(step)}"
        case .present: "{\"type\":\"present\"}"
        }
    }

    /// Reads a request line; throws a sentence for the error reply.
    package static func parse(_ line: some Collection<UInt8>) throws(ControlChannelError) -> ControlRequest {
        let object = try ControlMessageParsing.object(line)
        switch object["type"]?.stringValue {
        case "restore":
            guard let step = object["step"]?.intValue, step >= 0 else {
                throw ControlChannelError(
                    "a restore needs a step, a whole number from 0: {\"type\":\"restore\",\"step\":5}")
            }
            return .restore(step: step)
        case "present":
            return .present
        case let other:
            let name = other.map { "'\(JSONPrinter.quoted($0, terminalSafe: true))'" } ?? "none"
            throw ControlChannelError(
                "unknown message type \(name); the app understands restore and present, one JSON object per line")
        }
    }
}

/// What the app tells the inspector.
package enum ControlReply: Equatable, Sendable {
    /// The first message on a connection: the app's trace (an absolute path) and process id.
    case hello(trace: String, pid: Int)
    /// A restore was done: the step the app is at now, whether it is its present, and the
    /// report's stores and kept paths.
    case restored(step: Int, present: Bool, stores: [String], absent: [String], kept: [String])
    /// A request failed, or the connection is refused: why.
    case error(String)

    /// The protocol's version, in the hello.
    package static let version = 1

    /// The reply's line, without its `\n`.
    package var line: String {
        func list(_ items: [String]) -> String {
            "[" + items.map { JSONPrinter.quoted($0) }.joined(separator: ",") + "]"
        }
        switch self {
        case .hello(let trace, let pid):
            return
                "{\"type\":\"hello\",\"protocol\":\(Self.version),\"trace\":\(JSONPrinter.quoted(trace)),\"pid\":\(pid)}"
        case .restored(let step, let present, let stores, let absent, let kept):
            return
                "{\"type\":\"restored\",\"step\":\(step),\"present\":\(present),\"stores\":\(list(stores)),\"absent\":\(list(absent)),\"kept\":\(list(kept))}"
        case .error(let message):
            return "{\"type\":\"error\",\"message\":\(JSONPrinter.quoted(message))}"
        }
    }

    /// Reads a reply line.
    package static func parse(_ line: some Collection<UInt8>) throws(ControlChannelError) -> ControlReply {
        let object = try ControlMessageParsing.object(line)
        func strings(_ key: String) -> [String] {
            (object[key]?.arrayValue ?? []).compactMap(\.stringValue)
        }
        switch object["type"]?.stringValue {
        case "hello":
            guard let trace = object["trace"]?.stringValue else {
                throw ControlChannelError("the app's hello names no trace")
            }
            if let theirs = object["protocol"]?.intValue, theirs != version {
                throw ControlChannelError(
                    "the app speaks control protocol \(theirs), this inspector \(version): use the inspector of the app's Rewind version"
                )
            }
            return .hello(trace: trace, pid: object["pid"]?.intValue ?? 0)
        case "restored":
            guard let step = object["step"]?.intValue else {
                throw ControlChannelError("a restored reply without step")
            }
            return .restored(
                step: step, present: object["present"]?.boolValue ?? false, stores: strings("stores"),
                absent: strings("absent"), kept: strings("kept"))
        case "error":
            return .error(object["message"]?.stringValue ?? "the app reported an error without a message")
        default:
            throw ControlChannelError("the app sent a message this inspector does not know")
        }
    }
}

/// Parsing one message line as a JSON object.
enum ControlMessageParsing {
    static func object(_ line: some Collection<UInt8>) throws(ControlChannelError) -> JSONObject {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw ControlChannelError("not a JSON object (\(error)); send one JSON object per line")
        }
        guard case .object(let object) = value else {
            throw ControlChannelError("not a JSON object but \(value.kindName); send one JSON object per line")
        }
        return object
    }
}
