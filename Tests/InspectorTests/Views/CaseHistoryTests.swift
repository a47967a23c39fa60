import Foundation
import Testing
import TraceReader

@testable import Inspector

/// "How did we get here?" (issue 20, item 1): on a problem step the view shows how the store got
/// into the case it left, `b` walks back along the store's steps, and `w` on a step that changed
/// nothing goes to the step that set the store's case.
@Suite struct CaseHistoryTests {
    /// S: register a (1), go a → b (2), poke b → b caused by 2 (3), poke b → b (4), T's step (5),
    /// go b → a (6).
    static func trace(in folder: HostileFolder) throws -> String {
        let lines = [
            #"{"type":"header","format":"rewind-trace","version":1,"app":"H","machines":{"S":{"initial":"a","transitions":{"a":["b"],"b":["a","b"]}}}}"#,
            #"{"type":"register","seq":1,"store":"S","case":"a","state":{"n":0}}"#,
            #"{"type":"transition","seq":2,"store":"S","action":"go","from":"a","to":"b","changed":true,"state":{"n":1},"source":"S.swift:2"}"#,
            #"{"type":"transition","seq":3,"store":"S","action":"poke","from":"b","to":"b","changed":true,"state":{"n":2},"cause":2}"#,
            #"{"type":"transition","seq":4,"store":"S","action":"poke","from":"b","to":"b","changed":true,"state":{"n":3}}"#,
            #"{"type":"register","seq":5,"store":"T","state":{}}"#,
            #"{"type":"transition","seq":6,"store":"S","action":"go","from":"b","to":"a","changed":true,"state":{"n":4}}"#,
        ]
        let path = folder.path("history.jsonl")
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theHistoryGoesBackToTheStepThatEnteredTheCase() throws {
        let folder = try HostileFolder()
        let file = try TraceFile(path: try Self.trace(in: folder))
        let event = try #require(file.event(at: 5))
        let history = try #require(CaseHistory(before: event, in: file))
        #expect(history.caseName == "b")
        #expect(history.events.map(\.seq) == [4, 3, 2])
        #expect(history.entry?.seq == 2)
        let lines = history.lines(store: "S", in: file, style: Style(enabled: false))
        #expect(lines[0].hasPrefix("How S got to b"))
        #expect(lines[1] == "  step 4  poke  b → b")
        #expect(lines[2] == "  step 3  poke  b → b  caused by seq 2 S.go")
        #expect(lines[3] == "  step 2  go  a → b  S.swift:2")

        let short = try #require(CaseHistory(before: event, in: file, limit: 2))
        #expect(short.events.map(\.seq) == [4, 3] && short.entry == nil)
        #expect(
            short.lines(store: "S", in: file, style: Style(enabled: false)).last == "  … earlier steps in b not shown")
        // A register has no case before it.
        #expect(CaseHistory(before: try #require(file.event(at: 0)), in: file) == nil)
    }

    @Test func aProblemStepShowsHowItsStoreGotThere() throws {
        let view = try StepViewTests.view(RecordedTrace(), at: 4)
        let lines = view.screen.lines(for: view.session, columns: 100, rows: 30)
        let start = try #require(lines.firstIndex { $0.hasPrefix("How CatalogStore got to loading") })
        #expect(lines[start + 1].hasPrefix("  step 3  toLoading  idle → loading  InspectorTests/Fixtures.swift:"))
        // Not on a step without a problem.
        let fine = try StepViewTests.view(RecordedTrace(), at: 5)
        #expect(!fine.screen.lines(for: fine.session, columns: 100, rows: 30).contains { $0.hasPrefix("How ") })
    }

    @Test func wOnAStepThatChangedNothingGoesToTheStepThatSetTheCase() throws {
        var view = try StepViewTests.view(RecordedTrace(), at: 4)
        StepViewTests.press(&view, .character("w"))
        #expect(view.session.step == 3)
        #expect(view.screen.message == "CatalogStore entered loading here (step 4 changed nothing), by toLoading")
    }

    @Test func bWalksBackAlongTheStore() throws {
        var view = try StepViewTests.view(RecordedTrace(), at: 5)
        var steps: [Int] = []
        for _ in 0..<4 {
            StepViewTests.press(&view, .character("b"))
            steps.append(view.session.step)
        }
        #expect(steps == [4, 3, 1, 1])
        #expect(view.screen.message == "this is the first step of its store")
        var start = try StepViewTests.view(RecordedTrace())
        StepViewTests.press(&start, .character("b"))
        #expect(start.screen.message == "step 0 has no store")
        var cart = try StepViewTests.view(RecordedTrace(), at: 7)
        StepViewTests.press(&cart, .character("b"))
        #expect(cart.session.step == 6)
    }

    @Test func eventIndexBeforeFollowsOneStore() throws {
        let folder = try HostileFolder()
        let file = try TraceFile(path: try Self.trace(in: folder))
        #expect(file.eventIndex(of: "S", before: 5) == 3)
        #expect(file.eventIndex(of: "S", before: 0) == nil)
        #expect(file.eventIndex(of: "T", before: 4) == nil)
        #expect(file.eventIndex(of: "T", before: 99) == 4)
        #expect(file.eventIndex(of: "nobody", before: 5) == nil)
    }
}
