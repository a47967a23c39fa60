import Foundation
import Testing
import TraceJSON
import TraceReader

@testable import Inspector

@Suite struct StepCommandTests {
    @Test func printsTheFirstStepThenFollowsCommands() throws {
        let trace = try RecordedTrace()
        let result = inspector(["step", trace.path], input: "next\nnext\nprev\nquit\nnext\n")
        #expect(result.status == 0)
        let headers = result.out.split(separator: "\n").filter { $0.hasPrefix("step ") }
        #expect(headers.map { $0.prefix(11) } == ["step 0 of 7", "step 1 of 7", "step 2 of 7", "step 1 of 7"])
    }

    @Test func startsAtTheGivenStep() throws {
        let trace = try RecordedTrace()
        let result = inspector(["step", trace.path, "--at", "5"], input: "")
        #expect(result.out.hasPrefix("step 5 of 7:"))
        #expect(result.out.contains("load"))
        #expect(result.out.contains("loading → loaded"))
    }

    @Test func gotoFindAndTheEnds() throws {
        let trace = try RecordedTrace()
        let input = "goto 6\nfind toLoading\nfind\nlast\nnext\nfirst\nprev\ngoto 99\nfind nothing-like-this\n"
        let lines = inspector(["step", trace.path], input: input).out.split(separator: "\n").map(String.init)
        let headers = lines.filter { $0.hasPrefix("step ") }.map { String($0.prefix(11)) }
        #expect(headers == ["step 0 of 7", "step 6 of 7", "step 3 of 7", "step 4 of 7", "step 7 of 7", "step 0 of 7"])
        #expect(lines.contains("at the last step (7)"))
        #expect(lines.contains("at step 0"))
        #expect(lines.contains { $0.hasPrefix("goto needs a step from 0 to 7") })
        #expect(lines.contains("no store, action, argument or new state value matches \"nothing-like-this\""))
    }

    @Test func theIllegalStepShowsItsProblem() throws {
        let trace = try RecordedTrace()
        let output = inspector(["step", trace.path, "--at", "4"], input: "problems\n").out
        #expect(output.contains("✖ illegal"))
        #expect(output.contains("error: illegal transition loading → loading"))
    }

    @Test func stateAndDiffCommands() throws {
        let trace = try RecordedTrace()
        let output = inspector(["step", trace.path, "--at", "7"], input: "state\ndiff\n").out
        #expect(output.contains("\"CartStore\": {"))
        #expect(output.contains("\"Emma\""))
    }

    @Test func unknownCommandsAreExplainedAndTheSessionGoesOn() throws {
        let trace = try RecordedTrace()
        let output = inspector(["step", trace.path], input: "jump\nnext\n").out
        #expect(output.contains("unknown command 'jump'"))
        #expect(output.contains("step 1 of 7"))
    }

    @Test func theSessionModelMovesByStepsAndProblems() throws {
        let recorded = try RecordedTrace()
        let trace = try TraceFile(path: recorded.path)
        var session = StepSession(trace: trace, problems: try TraceOpening.problemMarks(of: trace))
        #expect(session.step == 0)
        #expect(session.problemEvents == [3])
        var moved = session.nextProblem()
        #expect(moved && session.step == 4)
        moved = session.nextProblem()
        #expect(!moved)
        moved = session.nextProblem(forward: false)
        #expect(!moved)
        session.last()
        moved = session.nextProblem(forward: false)
        #expect(moved && session.step == 4)
        #expect((try session.readDiff()).isEmpty)  // loading → loading changed nothing
        moved = session.go(toStep: 7)
        #expect(moved)
        #expect((try session.readDiff()).changes.count == 1)
    }

    @Test func theScreenFitsTheTerminalAndMarksTheCurrentStep() throws {
        let recorded = try RecordedTrace()
        let trace = try TraceFile(path: recorded.path)
        var session = StepSession(trace: trace, problems: try TraceOpening.problemMarks(of: trace))
        let moved = session.go(toStep: 4)
        #expect(moved)
        let lines = StepScreen(style: Style(enabled: false)).lines(for: session, columns: 100, rows: 30)
        #expect(lines.count == 30)
        #expect(lines.allSatisfy { ScreenText.width($0) <= 100 })
        #expect(lines.contains { $0.hasPrefix("▶✖") && $0.contains("toLoading") })
        #expect(
            lines.contains {
                $0.hasPrefix("✖ error: illegal transition loading → loading by toLoading in CatalogStore")
            })
        #expect(lines.dropLast().last?.contains("step 4 of 7") == true)
        #expect(lines.last?.contains("? help") == true)
    }

    @Test func whoJumpsToTheStepThatLastChangedAValue() throws {
        let trace = try RecordedTrace()
        let input = "goto 7\nwho CartStore.items\nwho CartStore.items\nwho\nwho CartStore.items[\n"
        let lines = inspector(["step", trace.path], input: input).out.split(separator: "\n").map(String.init)
        let headers = lines.filter { $0.hasPrefix("step ") }.map { String($0.prefix(11)) }
        // 7 added "Emma" to the items that 6 set; 6 added "Dune" to the empty list of the register at 2.
        #expect(headers == ["step 0 of 7", "step 7 of 7", "step 6 of 7", "step 2 of 7"])
        #expect(lines.contains("CartStore.items was last changed before step 7 at step 6:"))
        #expect(lines.contains("CartStore.items was last changed before step 6 at step 2:"))
        // With no path, the first value the step changed: the register's whole CartStore.
        #expect(lines.contains("no step before 2 changed CartStore"))
        #expect(lines.contains { $0.hasPrefix("invalid path") })
    }

    @Test func theStepViewPicksAChangedValueAndJumpsToItsLastChange() throws {
        let recorded = try RecordedTrace()
        let trace = try TraceFile(path: recorded.path)
        var session = StepSession(trace: trace, problems: [:])
        let moved = session.go(toStep: 7)
        #expect(moved)
        var screen = StepScreen(style: Style(enabled: false))
        #expect(session.changedPaths.map(\.description) == ["CartStore.items[1]"])
        let picked = screen.selectNextValue(in: session)
        #expect(picked?.description == "CartStore.items[1]")
        #expect(screen.selectedPath(in: session)?.description == "CartStore.items[1]")
        // items[1] did not exist before step 7: nothing earlier changed it, and the view stays.
        let none = session.goToLastChange(of: try StatePath(parsing: "CartStore.items[1]"))
        #expect(none == nil)
        #expect(session.step == 7)
        let change = try #require(session.goToLastChange(of: try StatePath(parsing: "CartStore.items")))
        #expect(change.step == 6 && session.step == 6)
        #expect(change.after == .array([.string("Dune")]))
        // Another step forgets the pick.
        #expect(screen.selectedPath(in: session)?.description == "CartStore.items[0]")
        #expect(screen.lines(for: session, columns: 160, rows: 20).last?.contains("v w who set") == true)
    }
}
