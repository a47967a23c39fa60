import Foundation
import TestSupport

@testable import TraceJSON
@testable import TraceReader

/// Trace lines and files for the trace reader's tests (`TraceFile`).
enum ReaderFixture {
    /// The catalog's machine, as a header writes it.
    static let catalogMachine =
        #"{"CatalogStore":{"initial":"idle","transitions":{"idle":["loading"],"loading":["loaded","failed"],"loaded":["loading"],"failed":["loading"]}}}"#

    /// A header line, with the catalog's machine unless told otherwise.
    static func header(machines: String = catalogMachine) -> String {
        #"{"type":"header","format":"rewind-trace","version":1,"app":"Shop","started":"2026-11-22T10:15:00.123Z","machines":"#
            + machines + "}"
    }

    static func register(_ seq: Int, _ store: String, state: String, caseName: String? = nil) -> String {
        let casePart = caseName.map { #","case":"\#($0)""# } ?? ""
        return #"{"type":"register","seq":\#(seq),"elapsed":0.5,"store":"\#(store)"\#(casePart),"state":\#(state)}"#
    }

    static func transition(
        _ seq: Int, _ store: String, action: String = "act", state: String, from: String? = nil, to: String? = nil,
        changed: Bool = true, extra: String = ""
    ) -> String {
        let cases = from.map { f in to.map { #","from":"\#(f)","to":"\#($0)""# } ?? "" } ?? ""
        return
            #"{"type":"transition","seq":\#(seq),"elapsed":1.25,"store":"\#(store)","action":"\#(action)"\#(cases),"changed":\#(changed),"state":\#(state)\#(extra)}"#
    }

    /// A trace of `lines`, each ending in `\n`.
    static func text(_ lines: [String]) -> String {
        lines.map { $0 + "\n" }.joined()
    }

    /// Opens `lines` (each ending in `\n`) from memory.
    static func open(_ lines: [String]) throws -> TraceFile {
        try TraceFile(bytes: Array(text(lines).utf8))
    }

    /// The app state at every step from 0 to `last`, computed the slow and obvious way the format
    /// page defines it: for each step, every register or transition line with `seq` ≤ step, in
    /// file order, sets its store's state. Lines that are not objects are passed over.
    static func replay(_ lines: [String], through last: Int) -> [JSONObject] {
        let events = parsedEvents(lines)
        return (0...last).map { replay(events, atStep: $0) }
    }

    /// The app state at `step`, computed as `replay(_:through:)` does.
    static func replay(_ lines: [String], atStep step: Int) -> JSONObject {
        replay(parsedEvents(lines), atStep: step)
    }

    private static func parsedEvents(_ lines: [String]) -> [JSONObject] {
        lines.dropFirst().compactMap { line -> JSONObject? in
            guard case .object(let object)? = try? JSONParser.parse(line) else { return nil }
            return object
        }
    }

    private static func replay(_ events: [JSONObject], atStep step: Int) -> JSONObject {
        var state = JSONObject()
        for event in events {
            guard let type = event["type"]?.stringValue, type == "register" || type == "transition",
                let seq = event["seq"]?.intValue, seq <= step,
                let store = event["store"]?.stringValue, let value = event["state"]
            else { continue }
            state.set(value, forKey: store)
        }
        return state
    }

    /// Writes `bytes` to a new file in `folder`.
    static func write(_ bytes: [UInt8], named name: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A trace of `count` events over three stores with machine-free states that grow with the
    /// step, as the recorder writes it.
    static func generated(events count: Int) -> [String] {
        var lines = [header(machines: "{}")]
        let stores = ["Cart", "Session", "Search"]
        for seq in 1...max(1, count) {
            let store = stores[seq % stores.count]
            let state = #"{"step":\#(seq),"items":["a","b"],"label":"é \#(seq)"}"#
            lines.append(
                seq <= stores.count ? register(seq, store, state: state) : transition(seq, store, state: state))
        }
        return lines
    }
}
