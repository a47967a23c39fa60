import Recorder
import Testing
import TimeTravel
import TraceQueries
import TraceReader

private final class Dial: Store<Int>, @unchecked Sendable {
    // @unchecked: adds nothing to Store.
    init(recorder: TraceRecorder?) {
        super.init(initialState: 0, name: "Dial", recorder: recorder)
    }

    func turn(_ by: Int) {
        send(args: ["by": by]) { $0 += by }
    }
}

/// `ReplayTable.restoring(with:)`: a trace's restores replayed as restores.
@Suite struct ReplayRestoreTests {
    @Test func restoresOfTheTraceAreReplayedThroughTheRestorer() throws {
        let sink = MemorySink()
        let dial = Dial(recorder: try TraceRecorder(sink: sink))
        dial.turn(3)
        let earlier = try TraceFile(bytes: sink.data, name: "earlier.jsonl")
        dial.turn(4)
        try Restorer([RestorableStore(dial)]).restore(from: earlier, atStep: earlier.lastStep)
        dial.turn(1)
        #expect(dial.state == 4)
        func replay(restores: Bool) throws -> ReplayOutcome {
            try TraceReplay(.bytes(sink.data, name: "t.jsonl")).run { recorder in
                let dial = Dial(recorder: recorder)
                var table = ReplayTable()
                table.on("Dial", "turn") { args in dial.turn(try args.int("by")) }
                if restores {
                    table.restoring(with: Restorer([RestorableStore(dial)]))
                } else {
                    table.onRestore { _ in }  // forgets to restore: the restore event is missing
                }
                return table
            }
        }
        let outcome = try replay(restores: true)
        #expect(outcome.isExact, "\(outcome.report())")
        #expect(outcome.restores == 1)
        let forgetful = try replay(restores: false)
        #expect(forgetful.difference?.first.event?.type == "restore")
    }
}
