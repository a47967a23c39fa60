@_spi(RewindInternals) internal import RewindSupport
import TraceJSON

/// One event of a trace (shared/TRACE_FORMAT.md, "Events"), decoded from its line.
///
/// `TraceFile.event(at:)` makes one on demand. Keys the format defines are fields; a key that is
/// absent is nil. Only `type` and `seq` are present on every event; `register`, `restore` and
/// `transition` events always have `store` and `state` (a version 2 transition `patch` instead of
/// `state`), and a transition `action` and `changed`.
public struct TraceEvent: Sendable, Equatable {
    /// The event's position among the trace's events, from 0, in file order.
    public var index: Int
    /// The 1-based line of the file that holds the event (the header is line 1).
    public var line: Int
    /// The event's `seq`.
    public var seq: Int
    /// `"register"`, `"transition"`, or a type this library does not know.
    public var type: String
    /// The store the event is about.
    public var store: String?
    /// The action (command) that ran, for a transition.
    public var action: String?
    /// The machine's case, for a register event (`case` in the trace).
    public var caseName: String?
    /// The machine's case before the action.
    public var from: String?
    /// The machine's case after the action.
    public var to: String?
    /// Whether the action changed the state.
    public var changed: Bool?
    /// Seconds since the trace started, from a monotonic clock.
    public var elapsed: Double?
    /// Where the action was sent from: `File.swift:LINE` or `Module/File.swift:LINE`.
    public var source: String?
    /// The call stack that sent the action, innermost frame first (`function (File.swift:LINE)`
    /// where known); nil when the event has none (a recorder writes it for an illegal transition).
    public var stack: [String]?
    /// The `seq` of the event being handled when this one happened.
    public var cause: Int?
    /// The action's arguments.
    public var args: JSONObject?
    /// The store's full state after the event; nil for a version 2 transition that carries a
    /// `patch` instead (its store's state there is `TraceFile.state(of:atStep:)`).
    public var state: JSONValue?
    /// Version 2: the RFC 6902 JSON Patch a transition carries instead of its `state`, which
    /// turns its store's state before it into its state after it.
    public var patch: JSONValue?
    /// A `restore`'s `step`: the step of the recorded trace its state was taken from; nil for
    /// other events and a restore without it.
    public var restoredStep: Int?

    /// Whether the event is a `register`, `transition` or `restore`: one that sets a store's
    /// state, with its whole `state` or (a version 2 transition) a `patch`.
    public var setsState: Bool {
        type == "register" || type == "transition" || type == "restore"
    }

    /// Creates an event from its parts.
    public init(
        index: Int, line: Int, seq: Int, type: String, store: String? = nil, action: String? = nil,
        caseName: String? = nil, from: String? = nil, to: String? = nil, changed: Bool? = nil,
        elapsed: Double? = nil, source: String? = nil, cause: Int? = nil, args: JSONObject? = nil,
        state: JSONValue? = nil, patch: JSONValue? = nil, stack: [String]? = nil
    ) {
        self.index = index
        self.line = line
        self.seq = seq
        self.type = type
        self.store = store
        self.action = action
        self.caseName = caseName
        self.from = from
        self.to = to
        self.changed = changed
        self.elapsed = elapsed
        self.source = source
        self.cause = cause
        self.args = args
        self.state = state
        self.patch = patch
        self.stack = stack
    }

    /// The event in `object`, one parsed event line, or nil when it lacks `type` or `seq`.
    package init?(index: Int, line: Int, object: JSONObject) {
        guard let type = object["type"]?.stringValue, let seq = object["seq"]?.intValue else { return nil }
        self.init(
            index: index, line: line, seq: seq, type: type,
            store: object["store"]?.stringValue,
            action: object["action"]?.stringValue,
            caseName: object["case"]?.stringValue,
            from: object["from"]?.stringValue,
            to: object["to"]?.stringValue,
            changed: object["changed"]?.boolValue,
            elapsed: object["elapsed"]?.doubleValue,
            source: object["source"]?.stringValue,
            cause: object["cause"]?.intValue,
            args: object["args"]?.objectValue,
            state: object["state"],
            patch: object["patch"],
            stack: Self.stack(object["stack"]))
        if type == "restore" { restoredStep = object["step"]?.intValue }
    }

    /// The frames of a `stack` value: nil unless it is an array of strings, as the format has it.
    static func stack(_ value: JSONValue?) -> [String]? {
        guard let frames = value?.arrayValue else { return nil }
        let texts = frames.compactMap(\.stringValue)
        return texts.count == frames.count ? texts : nil
    }

    /// The `stack` of an event's line, parsed again: the scan only notes that it is there. Only
    /// an illegal transition has one, unless the recorder records every stack.
    static func stack(in line: ByteView) -> [String]? {
        stack((try? JSONParser.parse(line))?["stack"])
    }
}
