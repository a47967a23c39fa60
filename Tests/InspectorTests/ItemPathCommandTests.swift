import Foundation
import TestSupport
import Testing
import TraceReader

@testable import Inspector

/// Items, not positions (issue 20, item 7): on `MovingItemsTrace`, where A and B are removed
/// between two changes of MUG's quantity, `when`, `diff`, `who` and `w` name MUG by its id and
/// follow it, so who set its quantity is the quantity change, never a removal.
@Suite struct ItemPathCommandTests {
    static func trace() throws -> QueryTraceFile { try QueryTraceFile(MovingItemsTrace.lines) }

    @Test func whenFollowsAnItemNamedByID() throws {
        let file = try Self.trace()
        let result = inspector(["when", file.path, #"CartStore.lines[id: "MUG"].quantity"#])
        #expect(result.status == 0)
        #expect(
            result.out == """
                step 1  CartStore (register)
                    CartStore.lines[id: "MUG"].quantity: added 1
                step 2  CartStore.setQuantity  (Cart.swift:20)
                    CartStore.lines[id: "MUG"].quantity: 1 → 2
                step 5  CartStore.setQuantity  (Cart.swift:50)
                    CartStore.lines[id: "MUG"].quantity: 2 → 3

                """)
    }

    @Test func whenBeforeAStepFollowsTheItemAtAPositionThere() throws {
        let file = try Self.trace()
        // lines[1] at step 4 is MUG: its quantity was set at step 2, not by the removal at 4.
        let result = inspector(["when", file.path, "CartStore.lines[1].quantity", "--before", "5"])
        #expect(result.status == 0)
        #expect(
            result.out == """
                step 2  CartStore.setQuantity  (Cart.swift:20)
                    CartStore.lines[id: "MUG"].quantity: 1 → 2

                """)
        // Without --before, a position is a position.
        let all = inspector(["when", file.path, "CartStore.lines[1].quantity"])
        #expect(all.out.contains("step 4  CartStore.remove"))
    }

    @Test func diffNamesItemsByID() throws {
        let file = try Self.trace()
        #expect(
            inspector(["diff", file.path, "5", "--format", "paths"]).out
                == "CartStore.lines[id: \"MUG\"].quantity: 2 → 3\n")
        #expect(
            inspector(["diff", file.path, "3", "--format", "paths"]).out
                == "CartStore.lines[id: \"A\"]: removed {\"id\": \"A\", \"quantity\": 1}\n")
        let tree = inspector(["diff", file.path, "5"]).out
        #expect(tree.contains("      [id: \"MUG\"]: {\n"))
        #expect(!tree.contains("[1]"))
    }

    @Test func whoInTheLineModeFollowsTheItem() throws {
        let file = try Self.trace()
        let input = "goto 5\nwho\ngoto 5\nwho CartStore.lines.1.quantity\n"
        let lines = inspector(["step", file.path], input: input).out.split(separator: "\n").map(String.init)
        let headers = lines.filter { $0.hasPrefix("step ") }.map { String($0.prefix(11)) }
        #expect(headers == ["step 0 of 5", "step 5 of 5", "step 2 of 5", "step 5 of 5", "step 2 of 5"])
        #expect(
            lines.filter { $0 == #"CartStore.lines[id: "MUG"].quantity was last changed before step 5 at step 2:"# }
                .count == 2)
    }

    /// The bug the item is about: `w` on MUG's quantity after A and B were removed.
    @Test func wOnTheStepViewBlamesTheQuantityChangeNotTheRemovals() throws {
        let file = try Self.trace()
        var session = StepSession(trace: try TraceFile(path: file.path), problems: [:])
        _ = session.go(toStep: 5)
        #expect(session.changedPaths.map(\.description) == [#"CartStore.lines[id: "MUG"].quantity"#])
        var view = StepView(session: session, style: Style(enabled: false))
        _ = view.render(columns: 80, rows: 24)
        (view, _) = StepView.update(view, with: .character("w"))
        #expect(view.session.step == 2)
        #expect(view.session.event?.action == "setQuantity")
        #expect(
            view.screen.message?.hasPrefix(#"CartStore.lines[id: "MUG"].quantity was last changed before step 5"#)
                == true)
    }
}
