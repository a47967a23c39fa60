import Foundation
import Testing
import TraceReader

@testable import Inspector

/// Filtering the step view's list and finding in both directions (issue 20, item 5). The trace
/// is `RecordedTrace`'s: 1-2 registers, 3-4 toLoading (4 illegal, no change), 5 load, 6-7 add.
@Suite struct EventFilterTests {
    static func steps(_ view: inout StepView, key: Key = .right) -> [Int] {
        var steps: [Int] = []
        for _ in 0..<10 {
            let before = view.session.step
            StepViewTests.press(&view, key)
            if view.session.step == before { break }
            steps.append(view.session.step)
        }
        return steps
    }

    @Test func sCyclesThroughTheStoresAndTheListShowsOnlyThatStore() throws {
        var view = try StepViewTests.view(RecordedTrace())
        let stores = view.session.trace.storeNames
        StepViewTests.press(&view, .character("s"))
        #expect(view.session.filter.store == stores[0])
        let cart = try #require(stores.firstIndex(of: "CartStore"))
        for _ in 0..<cart { StepViewTests.press(&view, .character("s")) }
        #expect(view.session.filter.store == "CartStore")
        #expect(Self.steps(&view) == [2, 6, 7])
        let lines = view.render(columns: 100, rows: 30)
        let listed = lines.dropFirst().prefix { !$0.hasPrefix("──") }.filter { $0.contains("Store") }
        #expect(listed.count == 3 && listed.allSatisfy { $0.contains("CartStore") })
        #expect(lines[28].contains("filter: CartStore"))
        // Again after the last store: every event.
        for _ in cart..<stores.count { StepViewTests.press(&view, .character("s")) }
        #expect(view.session.filter.isEmpty)
    }

    @Test func cKeepsTheStepsThatChangedSomething() throws {
        var view = try StepViewTests.view(RecordedTrace(), at: 2)
        StepViewTests.press(&view, .character("c"))
        #expect(Self.steps(&view) == [3, 5, 6, 7])
        #expect(Self.steps(&view, key: .left) == [6, 5, 3, 2, 1, 0])
    }

    @Test func bangKeepsTheStepsWithAProblem() throws {
        var view = try StepViewTests.view(RecordedTrace())
        StepViewTests.press(&view, .character("!"))
        #expect(Self.steps(&view) == [4])
        #expect(view.screen.message == "this is the last step")
        #expect(view.render(columns: 100, rows: 30)[28].contains("filter: with problems"))
    }

    @Test func aKeepsThisStepsActionAndFShowsEverythingAgain() throws {
        var view = try StepViewTests.view(RecordedTrace(), at: 3)
        StepViewTests.press(&view, .character("a"))
        #expect(view.session.filter.action == "toLoading")
        StepViewTests.press(&view, .home)
        #expect(Self.steps(&view) == [3, 4])
        StepViewTests.press(&view, .character("c"), .home)
        #expect(Self.steps(&view) == [3])
        StepViewTests.press(&view, .character("F"))
        #expect(view.session.filter.isEmpty && view.screen.message == "showing every event")
        #expect(Self.steps(&view) == [4, 5, 6, 7])
        var start = try StepViewTests.view(RecordedTrace())
        StepViewTests.press(&start, .character("a"))
        #expect(start.session.filter.isEmpty && start.screen.message == "step 0 has no action: step to an event first")
    }

    @Test func nFindsBackward() throws {
        var view = try StepViewTests.view(RecordedTrace())
        StepViewTests.press(&view, .character("N"))
        #expect(view.screen.message == "nothing to find again: / TEXT Enter first")
        StepViewTests.press(&view, .character("/"))
        StepViewTests.type(&view, "toLoading")
        StepViewTests.press(&view, .enter)
        #expect(view.session.step == 3)
        StepViewTests.press(&view, .character("/"), .enter)
        #expect(view.session.step == 4)
        StepViewTests.press(&view, .character("N"))
        #expect(view.session.step == 3)
        // Backward from the first match wraps around to the last.
        StepViewTests.press(&view, .character("N"))
        #expect(view.session.step == 4)
    }

    @Test(arguments: [
        ("CatalogStore.load", 0, 5), ("catalogstore.TOLOADING", 0, 3),
        // A state value, where it first appears in the store's state: the catalog loaded it at 5.
        ("Ulysses", 0, 5),
        // "Dune" is in the cart's state at 7 too, but already was at 6: not new there.
        ("Dune", 6, 5),
        (#"title: "Emma""#, 0, 7),
    ])
    func findAcceptsStoreDotActionArgumentsAndNewStateValues(text: String, from: Int, expected: Int) throws {
        var view = try StepViewTests.view(RecordedTrace(), at: from)
        StepViewTests.press(&view, .character("/"))
        StepViewTests.type(&view, text)
        StepViewTests.press(&view, .enter)
        #expect(view.session.step == expected)
    }

    @Test func findOnlyLooksAtWhatTheFilterLets() throws {
        var view = try StepViewTests.view(RecordedTrace())
        StepViewTests.press(&view, .character("!"), .character("/"))
        StepViewTests.type(&view, "Dune")
        StepViewTests.press(&view, .enter)
        #expect(view.session.step == 0)
        #expect(view.screen.message?.hasPrefix("no store, action, argument or new state value matches") == true)
    }

    @Test func logActionMatchesExactlyUnlessAskedToContain() throws {
        let trace = try RecordedTrace()
        func count(_ arguments: String...) -> Int {
            inspector(["log", trace.path] + arguments).out.split(separator: "\n").count
        }
        #expect(count("--action", "load") == 1)
        #expect(count("--action", "Load") == 0)
        #expect(count("--action", "toLoading") == 2)
        #expect(count("--action", "CatalogStore.toLoading") == 2)
        #expect(count("--action", "CartStore.toLoading") == 0)
        #expect(count("--action", "register") == 2)
        #expect(count("--action-contains", "oad") == 3)
        #expect(count("--action-contains", "Load") == 2)
    }
}
