import Foundation
import Testing
import TraceJSON
import TraceQueries

@testable import Inspector

/// A change of enum case shown in Swift terms, with the payload's diff beneath (issue 20, item 8).
@Suite struct EnumCaseChangeTests {
    static func value(_ json: String) throws -> JSONValue {
        try JSONParser.parse(Array(json.utf8))
    }

    @Test func aCaseChangeWithPayloadsShowsTheCasesThenThePayloadDiff() throws {
        let before = try Self.value(#"{"paying":{"totals":{"sum":12,"items":3}}}"#)
        let after = try Self.value(#"{"failed":{"totals":{"sum":12,"items":3},"reason":"card declined"}}"#)
        let change = try #require(EnumCaseChange(before: before, after: after))
        let lines = change.lines(
            store: "CheckoutStore", printer: StateDiffPrinter(width: 78), style: Style(enabled: false))
        #expect(lines[0] == "CheckoutStore: .paying → .failed")
        #expect(lines[1] == "  payload:")
        #expect(
            lines.contains {
                $0.contains(#"+   reason: "card declined""#) || $0.contains(#"+ reason: "card declined""#)
            })
        // The totals did not change: not shown as removed and added.
        #expect(!lines.contains { $0.hasPrefix("  -") })
    }

    @Test func whatIsNotACaseChange() throws {
        #expect(EnumCaseChange(before: try Self.value(#"{"a":{}}"#), after: try Self.value(#"{"a":{"x":1}}"#)) == nil)
        #expect(EnumCaseChange(before: try Self.value(#"{"a":1,"b":2}"#), after: try Self.value(#"{"c":{}}"#)) == nil)
        #expect(EnumCaseChange(before: try Self.value(#""a""#), after: try Self.value(#""b""#)) == nil)
        #expect(EnumCaseChange(before: nil, after: try Self.value(#"{"c":{}}"#)) == nil)
        let same = try #require(
            EnumCaseChange(before: try Self.value(#"{"a":{"_0":1}}"#), after: try Self.value(#"{"b":{"_0":1}}"#)))
        #expect(
            same.lines(store: "S", printer: StateDiffPrinter(), style: Style(enabled: false)).last
                == "  the payload is the same")
    }

    @Test func theStepViewShowsTheMachinesCaseChanges() throws {
        let trace = try RecordedTrace()
        let toLoading = try StepViewTests.view(trace, at: 3)
        var lines = toLoading.screen.lines(for: toLoading.session, columns: 100, rows: 30)
        #expect(lines.contains { $0.hasPrefix("CatalogStore: .idle → .loading") })
        #expect(!lines.contains { $0.contains("idle: {}") })
        let loaded = try StepViewTests.view(trace, at: 5)
        lines = loaded.screen.lines(for: loaded.session, columns: 100, rows: 30)
        let start = try #require(lines.firstIndex { $0.hasPrefix("CatalogStore: .loading → .loaded") })
        #expect(lines[start + 1].hasPrefix("  payload:"))
        #expect(lines[(start + 2)...].prefix(6).contains { $0.contains("Ulysses") })
    }
}
