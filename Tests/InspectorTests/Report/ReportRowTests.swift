import Foundation
import Testing
import TraceReader

@testable import Inspector

/// What the report's timeline rows and side column are made of: each event's arguments as a
/// short text the row shows (the whole value stays in the event's details, for the tooltip), and
/// the problems panel above the machines, whose figures the page puts in order by their ids.
@Suite struct ReportRowTests {
    /// A trace of a cart: an `add` with short arguments twice, one with a long note, one without.
    static let lines = [
        #"{"type":"header","format":"rewind-trace","version":1,"app":"Cart","machines":{"CatalogStore":{"initial":"idle","transitions":{"idle":["loading"],"loading":[]}}}}"#,
        #"{"type":"register","seq":1,"store":"CartStore","state":{"items":[]}}"#,
        #"{"type":"transition","seq":2,"store":"CartStore","action":"add","changed":true,"state":{"items":["MUG"]},"args":{"sku":"MUG","quantity":2}}"#,
        #"{"type":"transition","seq":3,"store":"CartStore","action":"add","changed":true,"state":{"items":["MUG","MUG"]},"args":{"sku":"MUG","quantity":2}}"#,
        #"{"type":"transition","seq":4,"store":"CartStore","action":"note","changed":true,"state":{"items":[]},"args":{"text":""#
            + String(repeating: "<b>long</b> ", count: 20) + #"","tags":["a"]}}"#,
        #"{"type":"transition","seq":5,"store":"CartStore","action":"clear","changed":false,"state":{"items":[]}}"#,
        #"{"type":"register","seq":6,"store":"CatalogStore","case":"idle","state":{"idle":{}}}"#,
    ]

    @Test func eachRowHasItsArgumentsShortenedAndSharedWhenEqual() throws {
        let trace = try ReportTraceFile(Self.lines)
        #expect(runReportCommand(["report", trace.path]).status == 0)
        let report = try ParsedReport(trace.read("shop.html"))
        let texts = (report.info["arguments"]?.arrayValue ?? []).compactMap(\.stringValue)
        let column = report.column("args")
        #expect(column.count == Self.lines.count - 1)
        let shown = column.map { $0 >= 0 && $0 < texts.count ? texts[$0] : nil }
        #expect(shown[0] == nil)
        #expect(shown[1] == #"sku: "MUG", quantity: 2"#)
        // Equal arguments are one string of the table.
        #expect(column[1] == column[2])
        #expect(texts.count == 2)
        // Long arguments are cut to the row's limit, ending in `…`; the details keep them whole.
        let long = try #require(shown[3])
        #expect(long.hasPrefix(#"text: "<b>long</b> <b>long</b>"#))
        #expect(long.hasSuffix("…"))
        #expect(long.count == EventColumns.argumentsWidth)
        let whole = report.details[3]["args"]?["text"]?.stringValue ?? ""
        #expect(whole == String(repeating: "<b>long</b> ", count: 20))
        #expect(shown[4] == nil && shown[5] == nil)
        // As data, the markup in an argument cannot close the script element.
        #expect(!report.dataText.contains("<"))
    }

    @Test func theProblemsComeBeforeTheMachinesAndEachFigureHasAnID() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        #expect(runReportCommand(["report", trace.path]).status == 0)
        let html = try trace.read("shop.html")
        let problems = try #require(html.range(of: "id=\"rw-problems-card\""))
        let machines = try #require(html.range(of: "aria-label=\"State machines\""))
        #expect(problems.lowerBound < machines.lowerBound)
        // The page orders the graphs by their figures' ids: one per machine of the page's data.
        let ids = (try ParsedReport(html).info["machines"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
        #expect(!ids.isEmpty)
        for id in ids {
            #expect(html.components(separatedBy: "<figure class=\"machine\" id=\"\(id)-figure\">").count == 2)
        }
    }
}
