import Recorder
import TraceJSON

/// The states a trace records, rebuilt as a reader rebuilds them (shared/TRACE_FORMAT.md, "The
/// app state at step N"): a `state` replaces the store's state, a version 2 `patch` is applied to
/// it with TraceReader's `JSONPatch.apply`.
struct RebuiltStates {
    struct Event {
        var seq: Int
        var type: String
        var store: String
        /// The store's state after the event.
        var value: JSONValue
        /// The event's patch, when it carried one instead of a state.
        var patch: JSONValue?
        /// The size of its whole state or patch, in bytes, as written.
        var bytes: Int

        /// The store's state after the event, printed compactly.
        var state: String { JSONPrinter.compact(value) }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var version = 0
    var events: [Event] = []

    /// Replays the trace in `bytes`.
    init(_ bytes: [UInt8]) throws {
        var current: [String: JSONValue] = [:]
        let lines = bytes.split(separator: UInt8(ascii: "\n"))
        guard let headerLine = lines.first else { throw Failure(description: "an empty trace") }
        version = try JSONParser.parse(headerLine)["version"]?.intValue ?? 0
        for line in lines.dropFirst() {
            let event = try JSONParser.parse(line)
            guard let store = event["store"]?.stringValue, let seq = event["seq"]?.intValue,
                let type = event["type"]?.stringValue
            else { continue }
            if let state = event["state"] {
                current[store] = state
                events.append(Event(seq: seq, type: type, store: store, value: state, bytes: Self.size(state)))
            } else if let patch = event["patch"] {
                guard let before = current[store] else {
                    throw Failure(description: "seq \(seq): a patch for \(store), whose state is unknown")
                }
                let after = try JSONPatch.apply(patch, to: before)
                current[store] = after
                events.append(
                    Event(
                        seq: seq, type: type, store: store, value: after, patch: patch,
                        bytes: Self.size(patch)))
            } else {
                throw Failure(description: "seq \(seq): neither state nor patch")
            }
        }
    }

    /// How many events a trace holds: its lines but the header.
    static func lineCount(_ bytes: [UInt8]) -> Int {
        bytes.count { $0 == UInt8(ascii: "\n") } - 1
    }

    /// The patches' share: how many transitions carried one.
    var patchCount: Int { events.count { $0.patch != nil } }

    private static func size(_ value: JSONValue) -> Int {
        JSONPrinter.compact(value).utf8.count
    }
}
