import TestSupport
import Testing

@testable import TraceJSON
@testable import TraceQueries

/// `ValueHistory` on a path that names an item by id follows the item, in whole states and in
/// version 2 patches (issue 20, item 7).
@Suite struct ValueHistoryItemTests {
    /// `MovingItemsTrace` with every transition written as a patch (version 2).
    static var patchedLines: [String] {
        var lines = [#"{"type":"header","format":"rewind-trace","version":2,"machines":{}}"#]
        lines.append(MovingItemsTrace.lines[1])
        let states = MovingItemsTrace.states.map { try! JSONParser.parse($0) }
        for (offset, action) in MovingItemsTrace.actions.enumerated() {
            let seq = offset + 2
            let patch = JSONPrinter.compact(JSONPatch.make(from: states[seq - 2], to: states[seq - 1]))
            lines.append(
                #"{"type":"transition","seq":\#(seq),"store":"CartStore","action":"\#(action)","changed":true,"patch":\#(patch)}"#
            )
        }
        return lines
    }

    @Test(arguments: [false, true])
    func anItemIsFollowedWhereverItMoves(patched: Bool) throws {
        let trace = try ReaderFixture.open(patched ? Self.patchedLines : MovingItemsTrace.lines)
        let mug = try ValueHistory(trace: trace, path: StatePath(parsing: #"CartStore.lines[id: "MUG"].quantity"#))
        #expect(mug.changes().map(\.step) == [1, 2, 5])
        #expect(mug.changes().map(\.after) == [.number("1"), .number("2"), .number("3")])
        #expect(mug.changes().last?.changes.map(\.path.description) == [#"CartStore.lines[id: "MUG"].quantity"#])
        let who = try #require(mug.lastChange(before: 5))
        #expect(who.step == 2)
        #expect(who.event.action == "setQuantity")
        // By position, the same question blames the removal of B.
        let byPosition = try ValueHistory(trace: trace, path: StatePath(parsing: "CartStore.lines[1].quantity"))
        #expect(byPosition.lastChange(before: 5)?.event.action == "remove")
        // A removed item's value goes.
        let a = try ValueHistory(trace: trace, path: StatePath(parsing: #"CartStore.lines[id: "A"]"#))
        #expect(a.changes().map(\.step) == [1, 3])
        #expect(a.changes().last?.after == nil)
    }

    @Test func aPatchIntoTheArrayMayChangeAnItemNamedByID() throws {
        func touches(_ path: String, _ patch: String) throws -> Bool {
            let operations = try #require(try JSONParser.parse(patch).arrayValue)
            return PatchTouch.mayChange(try StatePath(parsing: path).components[...], operations: operations)
        }
        #expect(try touches(#"lines[id: "MUG"].quantity"#, #"[{"op":"remove","path":"/lines/0"}]"#))
        #expect(try touches(#"lines[id: "MUG"].quantity"#, #"[{"op":"replace","path":"/lines/3/quantity","value":1}]"#))
        #expect(try touches(#"lines[id: "MUG"].quantity"#, #"[{"op":"replace","path":"/lines","value":[]}]"#))
        #expect(try !touches(#"lines[id: "MUG"].quantity"#, #"[{"op":"replace","path":"/total","value":1}]"#))
    }
}
