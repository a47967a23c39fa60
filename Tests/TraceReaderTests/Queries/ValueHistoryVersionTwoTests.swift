import TestSupport
import Testing

@testable import TraceJSON
@testable import TraceQueries
@testable import TraceReader

/// `ValueHistory` (`inspector when`) on version 2 traces: the same changes as on the same run
/// written with whole states, found from the patches' paths, with states rebuilt only where a
/// patch may change the value.
@Suite struct ValueHistoryVersionTwoTests {
    typealias F = ReaderFixture

    /// Every path into `value`, up to `depth` components, and a few that lead nowhere.
    static func paths(in value: JSONValue, depth: Int) -> [[StatePath.Component]] {
        var found: [[StatePath.Component]] = [[]]
        guard depth > 0 else { return found }
        switch value {
        case .object(let object):
            for name in Set(object.keys) {
                found += paths(in: object[name] ?? .null, depth: depth - 1).map { [.key(name)] + $0 }
            }
            found.append([.key("missing")])
        case .array(let elements):
            for (index, element) in elements.enumerated().prefix(4) {
                let component: StatePath.Component = index % 2 == 0 ? .index(index) : .key(String(index))
                found += paths(in: element, depth: depth - 1).map { [component] + $0 }
            }
            found.append([.index(elements.count)])
        default:
            break
        }
        return found
    }

    @Test func theChangesAreThoseOfTheSameRunWithWholeStates() throws {
        for seed in UInt64(100)..<130 {
            let run = PatchedTrace.make(seed: seed, events: 80)
            let whole = try F.open(run.whole)
            let patched = try F.open(run.patched)
            var random = SeededGenerator(seed: seed)
            for store in PatchedTrace.stores where whole.storeNames.contains(store) {
                // Paths from the store's states at a few steps.
                var tails: Set<[StatePath.Component]> = []
                for step in [1, whole.lastStep / 3, whole.lastStep * 2 / 3, whole.lastStep] {
                    if let state = whole.state(of: store, atStep: step) {
                        tails.formUnion(Self.paths(in: state, depth: 3))
                    }
                }
                for tail in tails.shuffled(using: &random).prefix(12) {
                    let path = StatePath([.key(store)] + tail)
                    let expected = try ValueHistory(trace: whole, path: path)
                    let history = try ValueHistory(trace: patched, path: path)
                    let got = history.changes()
                    let wanted = expected.changes()
                    #expect(got.map(\.step) == wanted.map(\.step), "seed \(seed), \(path)")
                    for (change, want) in zip(got, wanted) {
                        #expect(Self.same(change.before, want.before), "seed \(seed), \(path) at \(change.step)")
                        #expect(Self.same(change.after, want.after), "seed \(seed), \(path) at \(change.step)")
                        #expect(change.path == want.path)
                        #expect(change.event.action == want.event.action)
                    }
                    let step = Int.random(in: 0...whole.lastStep + 1, using: &random)
                    #expect(history.lastChange(before: step)?.step == expected.lastChange(before: step)?.step)
                    let after = Int.random(in: 0...whole.lastStep, using: &random)
                    #expect(history.changes(after: after).map(\.step) == expected.changes(after: after).map(\.step))
                }
            }
        }
    }

    static func same(_ first: JSONValue?, _ second: JSONValue?) -> Bool {
        switch (first, second) {
        case (nil, nil): true
        case (let a?, let b?): a.isEquivalent(to: b)
        default: false
        }
    }

    static let header = #"{"type":"header","format":"rewind-trace","version":2,"machines":{}}"#

    /// A transition of `Cart` whose `patch` is `patch`.
    static func patched(_ seq: Int, _ patch: String) -> String {
        #"{"type":"transition","seq":\#(seq),"store":"Cart","action":"a\#(seq)","changed":true,"patch":\#(patch)}"#
    }

    @Test func aPatchThatTouchesNothingAtThePathRebuildsNothing() throws {
        let lines = [
            Self.header,
            F.register(1, "Cart", state: #"{"total":0,"items":[]}"#),
            Self.patched(2, #"[{"op":"add","path":"/items/-","value":"dune"}]"#),
            // A patch that does not apply, but not at the path asked about: never rebuilt.
            Self.patched(3, #"[{"op":"remove","path":"/items/9"}]"#),
            F.transition(4, "Cart", state: #"{"total":5,"items":["dune"]}"#),
            Self.patched(5, #"[{"op":"replace","path":"/total","value":7}]"#),
        ]
        let trace = try F.open(lines)
        let total = try ValueHistory(trace: trace, path: StatePath(parsing: "Cart.total"))
        // Steps 2 and 3 do not touch the total: nothing was rebuilt (the cache is empty).
        #expect(total.changes(before: 4).map(\.step) == [1])
        #expect(trace.rebuiltStates.take(store: 0, in: 0...10) == nil)
        #expect(total.lastChange(before: 4)?.step == 1)
        #expect(trace.rebuiltStates.take(store: 0, in: 0...10) == nil)
        #expect(total.changes().map(\.step) == [1, 4, 5])
        #expect(total.changes().last?.before == .number("5"))
        #expect(total.changes().last?.after == .number("7"))
        // Step 3's patch touches the items and does not apply: its state is not known, so it is
        // passed over, and step 4's whole state shows the same items as step 2.
        let items = try ValueHistory(trace: trace, path: StatePath(parsing: "Cart.items"))
        #expect(items.changes().map(\.step) == [1, 2])
        #expect(try ValueHistory(trace: trace, path: StatePath(parsing: "Cart.items.0")).changes().map(\.step) == [2])
        // The walks that never rebuilt step 3 passed nothing over; the one that did names it.
        #expect(total.passedOver.isEmpty)
        #expect(items.passedOver.map(\.line) == [4])
        #expect(items.passedOver.map(\.kind) == [.badPatch])
    }

    @Test func everyWayOfAskingNamesTheEventsItPassedOver() throws {
        let lines = [
            Self.header,
            F.register(1, "Cart", state: #"{"count":0}"#),
            Self.patched(2, #"[{"op":"remove","path":"/missing"}]"#),
            Self.patched(3, #"[{"op":"replace","path":"/count","value":3}]"#),
            F.transition(4, "Cart", state: #"{"count":4}"#),
        ]
        let trace = try F.open(lines)
        let path = try StatePath(parsing: "Cart.count")
        // Step 2's patch does not touch the count, so it is not rebuilt; step 3's is, onto a
        // state step 2 broke: it is passed over, named by the line that does not apply (line 3,
        // step 2's), and the value is compared across it, from 0 at step 1 to 4 at step 4.
        let forward = try ValueHistory(trace: trace, path: path)
        #expect(forward.changes().map(\.step) == [1, 4])
        #expect(forward.passedOver.map(\.line) == [3])
        let backward = try ValueHistory(trace: trace, path: path)
        #expect(backward.passedOver.isEmpty)
        #expect(backward.lastChange(before: 5)?.step == 4)
        #expect(backward.lastChange(before: 4)?.step == 1)
        #expect(!backward.passedOver.isEmpty)
        #expect(backward.passedOver.allSatisfy { $0.path == trace.path && $0.line >= 3 })
    }
}
