import Foundation
import Testing

@testable import Inspector

/// The report's limits cover machines and cases: a trace of many machines gives a page a
/// browser opens, which says what it left out (100,000 machines gave a 150 MB page).
@Suite struct ReportMachineLimitTests {
    static func lines(machines: Int, cases: Int = 2) -> [String] {
        let names = (0..<cases).map { "c\($0)" }
        let table = names.enumerated().map { index, name in "\"\(name)\":[\"\(names[(index + 1) % cases])\"]" }
            .joined(separator: ",")
        let machine = "{\"initial\":\"c0\",\"transitions\":{\(table)}}"
        let all = (0..<machines).map { "\"S\($0)\":\(machine)" }.joined(separator: ",")
        var lines = [#"{"type":"header","format":"rewind-trace","version":1,"app":"Many","machines":{"# + all + "}}"]
        for index in 0..<machines {
            lines.append(#"{"type":"register","seq":\#(index + 1),"store":"S\#(index)","case":"c0","state":{}}"#)
        }
        lines.append(#"{"type":"register","seq":\#(machines + 1),"store":"Free","state":{}}"#)
        return lines
    }

    @Test func moreMachinesThanTheLimitAreCountedNotShown() throws {
        let trace = try ReportTraceFile(Self.lines(machines: 620))
        let result = runReportCommand(["report", trace.path])
        #expect(result.status == 0, "\(result.err)")
        let html = try trace.read("shop.html")
        #expect(html.contains("120 state machines (240 cases, 240 transitions) are not shown"), "notice")
        #expect(html.contains("a report shows at most 500 machines, 20,000 cases and 50,000 transitions"))
        #expect(html.components(separatedBy: "<figure class=\"machine\" id=").count - 1 == 500)
        let report = try ParsedReport(html)
        #expect(report.info["machines"]?.arrayValue?.count == 500)
        #expect(html.contains("Without a machine: Free."))
    }

    @Test func theCasesOfTheShownMachinesAreBoundedToo() throws {
        let trace = try ReportTraceFile(Self.lines(machines: 30, cases: 1_000))
        let result = runReportCommand(["report", trace.path])
        #expect(result.status == 0, "\(result.err)")
        let html = try trace.read("shop.html")
        #expect(html.contains("10 state machines (10,000 cases, 10,000 transitions) are not shown"))
    }

    @Test func aTraceWithinTheLimitsHasNoNotice() throws {
        let trace = try ReportTraceFile(Self.lines(machines: 3))
        #expect(runReportCommand(["report", trace.path]).status == 0)
        #expect(!(try trace.read("shop.html")).contains("are not shown"))
    }
}
