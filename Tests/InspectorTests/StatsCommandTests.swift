import Foundation
import Testing
import TraceJSON

@testable import Inspector

@Suite struct StatsCommandTests {
    @Test func printsStoresActionsIntervalsAndNoChangeSteps() throws {
        let file = try QueryTraceFile.cart()
        let result = inspector(["stats", file.path])
        #expect(result.status == 0)
        #expect(
            result.out == """
                \(file.path): 6 events, 2 stores, 3 actions, 4.0s recorded

                Busiest stores
                  CartStore     4  66.7%               peak 1/s
                  CatalogStore  2  33.3%  1 no change  peak 1/s

                Events per action
                  CartStore.setQuantity  2  33.3%
                  CartStore.add          1  16.7%
                  CatalogStore.refresh   1  16.7%  1 no change

                Time between events
                  min 0.5s  median 0.5s  p99 2.0s  max 2.0s  (5 intervals)

                Steps where nothing changed
                  1 action (16.7% of events) left the state as it was: steps 4
                  see one with 'inspector step \(file.path) --at 4'

                """, "\(result.out)")
    }

    @Test func jsonHasEveryCountForScripts() throws {
        let file = try QueryTraceFile.cart()
        let result = inspector(["stats", file.path, "--format", "json"])
        #expect(result.status == 0)
        let json = try JSONParser.parse(result.out)
        #expect(json["events"]?.intValue == 6)
        #expect(json["stores"]?[0]?["name"]?.stringValue == "CartStore")
        #expect(json["actions"]?.arrayValue?.count == 3)
        #expect(json["intervals"]?["count"]?.intValue == 5)
        #expect(json["unchangedSteps"] == .array([.number("4")]))
    }

    @Test func topLimitsTheLists() throws {
        let file = try QueryTraceFile.cart()
        let result = inspector(["stats", file.path, "--top", "1"])
        #expect(result.out.contains("Busiest stores (top 1 of 2)"))
        #expect(!result.out.contains("CatalogStore  2"))
    }

    /// Each on a trace that exists, so that only the fault named can give the status and message.
    @Test func badCommandLinesExitTwoWithAMessage() throws {
        let file = try QueryTraceFile.cart()
        let missing = inspector(["stats"])
        #expect(missing.status == 2 && missing.err.contains("missing TRACE"), "\(missing.err)")
        let format = inspector(["stats", file.path, "--format", "xml"])
        #expect(format.status == 2 && format.err.contains("--format must be one of"), "\(format.err)")
        #expect(format.out.isEmpty)
        let top = inspector(["stats", file.path, "--top", "-1"])
        #expect(top.status == 2 && top.err.contains("--top"), "\(top.err)")
        let absent = inspector(["stats", "/nonexistent.jsonl"])
        #expect(absent.status == 2 && absent.err.contains("/nonexistent.jsonl: no such file"), "\(absent.err)")
    }
}
