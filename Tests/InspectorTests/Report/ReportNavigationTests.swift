import Foundation
import Testing
import TraceReader

@testable import Inspector

/// The report's links and labels for a person finding their way: the error badge leads to the
/// problems, and each edge of a machine says which actions took it.
@Suite struct ReportNavigationTests {
    @Test func theErrorBadgeLinksToTheProblemsPanel() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        #expect(runReportCommand(["report", trace.path]).status == 0)
        let html = try trace.read("shop.html")
        // A link (focusable with the keyboard, unlike a span) to an element that exists once.
        let badge = try #require(html.range(of: "<a class=\"chip bad\" id=\"rw-errors\" href=\"#rw-problems-card\""))
        #expect(html[badge.upperBound...].hasPrefix(" title=\"Go to the problems\">1 error</a>"))
        #expect(html.components(separatedBy: "id=\"rw-problems-card\"").count == 2)
        // The problems list is inside that panel.
        let panel = try #require(html.range(of: "<section class=\"card\" id=\"rw-problems-card\""))
        let end = try #require(html.range(of: "</section>", range: panel.upperBound..<html.endIndex))
        #expect(html[panel.upperBound..<end.lowerBound].contains("<ol class=\"problems\" id=\"rw-problems\">"))
    }

    @Test func aTraceWithoutProblemsHasNoLink() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        #expect(try runReportCommand(["report", trace.path, "--spec", trace.writeSpecAllowingTheLoop()]).status == 0)
        let html = try trace.read("shop.html")
        #expect(html.contains("<span class=\"chip ok\">no errors</span>"))
        #expect(!html.contains("href=\"#rw-problems-card\""))
    }

    @Test func edgesAreLabelledWithTheActionsThatTookThem() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        #expect(runReportCommand(["report", trace.path]).status == 0)
        let html = try trace.read("shop.html")
        for (edge, label) in [
            ("idle → loading", "toLoading (1)"), ("loading → loading", "toLoading (1)"),
            ("loading → loaded", "load (1)"),
        ] {
            let title = try #require(html.range(of: "<title>\(edge): "))
            let group = try #require(html.range(of: "</g>", range: title.upperBound..<html.endIndex))
            #expect(html[title.upperBound..<group.lowerBound].contains(">\(label)</text>"), "\(edge)")
        }
        // An edge never taken has no label (its dashes say so).
        let never = try #require(html.range(of: "<title>loaded → loading: declared, never taken</title>"))
        let group = try #require(html.range(of: "</g>", range: never.upperBound..<html.endIndex))
        #expect(!html[never.upperBound..<group.lowerBound].contains("<text"))
    }
}
