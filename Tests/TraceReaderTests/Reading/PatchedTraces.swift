import TestSupport

@testable import TraceJSON

/// Random version 2 traces for the reader's tests: the same run written with whole states
/// (version 1) and with patches (version 2), and the app state at every step replayed the slow
/// and obvious way, by applying each patch with `JSONPatch.apply` in file order.
struct PatchedTrace {
    /// The run with every state whole, as version 1 lines (header first).
    var whole: [String]
    /// The same run where most transitions carry a `patch` (`JSONPatch.make`), as version 2 lines.
    var patched: [String]
    /// How many transitions of `patched` carry a patch.
    var patchCount: Int

    static let stores = ["CartStore", "CatalogStore", "Panel"]

    /// A run of `events` events over three stores, on a generator seeded with `seed`: registers,
    /// transitions (changing the state or not), a restore now and then, a store registered again,
    /// and an event of an unknown type; `patchChance` of the transitions carry a patch.
    static func make(seed: UInt64, events: Int, patchChance: Double = 0.8) -> PatchedTrace {
        var generator = DiffStateGenerator(seed: seed)
        var states: [String: JSONValue] = [:]
        var trace = PatchedTrace(
            whole: [header(version: 1)], patched: [header(version: 2)], patchCount: 0)
        for seq in 1...max(1, events) {
            let store = generator.random.pick(stores)
            let roll = Double.random(in: 0..<1, using: &generator.random)
            guard let before = states[store], roll > 0.03 else {
                let state = generator.value(depth: 3)
                states[store] = state
                let line = event("register", seq, store, #""state":\#(JSONPrinter.compact(state))"#)
                trace.whole.append(line)
                trace.patched.append(line)
                continue
            }
            if roll < 0.06 {
                trace.whole.append(#"{"type":"note","seq":\#(seq),"patch":[1]}"#)
                trace.patched.append(#"{"type":"note","seq":\#(seq),"patch":[{"op":"x","path":"/"}]}"#)
                continue
            }
            let type = roll < 0.09 ? "restore" : "transition"
            let after = roll < 0.2 ? before : generator.edit(before, depth: 4)
            states[store] = after
            let whole = #""state":\#(JSONPrinter.compact(after))"#
            trace.whole.append(event(type, seq, store, whole))
            if type == "transition" && Double.random(in: 0..<1, using: &generator.random) < patchChance {
                let patch = JSONPatch.make(from: before, to: after)
                trace.patched.append(event(type, seq, store, #""patch":\#(JSONPrinter.compact(patch))"#))
                trace.patchCount += 1
            } else {
                trace.patched.append(event(type, seq, store, whole))
            }
        }
        return trace
    }

    private static func header(version: Int) -> String {
        #"{"type":"header","format":"rewind-trace","version":\#(version),"machines":{}}"#
    }

    private static func event(_ type: String, _ seq: Int, _ store: String, _ body: String) -> String {
        let action = type == "transition" ? #","action":"act\#(seq % 5)","changed":true"# : ""
        return #"{"type":"\#(type)","seq":\#(seq),"store":"\#(store)"\#(action),\#(body),"source":"S.swift:\#(seq)"}"#
    }

    /// The app state at every step from 0 to the last of version 2 `lines`, replayed event by
    /// event: a `state` sets its store's state, a transition's `patch` is applied to it with
    /// `JSONPatch.apply`. A store whose patch does not apply (or that has no state yet) is left
    /// out until its next whole state.
    static func replay(_ lines: [String]) -> [JSONObject] {
        var current = JSONObject()
        var steps = [current]
        for line in lines.dropFirst() {
            guard case .object(let event)? = try? JSONParser.parse(line), let type = event["type"]?.stringValue
            else { continue }
            if type == "register" || type == "transition" || type == "restore", let store = event["store"]?.stringValue
            {
                if type != "transition" || event["patch"] == nil {
                    current.set(event["state"], forKey: store)
                } else if let patch = event["patch"], let state = current[store] {
                    current.set(try? JSONPatch.apply(patch, to: state), forKey: store)
                }
            }
            steps.append(current)
        }
        return steps
    }
}
