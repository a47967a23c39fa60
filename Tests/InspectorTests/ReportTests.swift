import Foundation
import Testing
import TraceJSON
import TraceReader

@testable import Inspector

@Suite struct ReportCommandTests {
    @Test func writesTheReportNextToTheTrace() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        let result = runReportCommand(["report", trace.path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("wrote \(trace.sibling("shop.html"))"))
        #expect(result.out.contains("\(ReportFixture.shopEvents.count) events"))
        #expect(result.out.contains("1 error"))
        let html = try trace.read("shop.html")
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(html.hasSuffix("</html>\n"))
    }

    @Test func writesWhereOutputSaysAndReplacesAnOldReport() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        let target = trace.sibling("out.html")
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        for option in ["-o", "--output"] {
            let result = runReportCommand(["report", trace.path, option, target])
            #expect(result.status == 0, "\(result.err)")
            #expect(try trace.read("out.html").contains("id=\"rw-data\""))
        }
        #expect(!FileManager.default.fileExists(atPath: trace.sibling("shop.html")))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: trace.folder).filter {
            $0.contains(".tmp-")
        }
        #expect(leftovers.isEmpty)
    }

    @Test func theReportIsAsPrivateAsTheTrace() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        for mode in [0o600, 0o644] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: trace.path)
            #expect(runReportCommand(["report", trace.path]).status == 0)
            let written =
                try FileManager.default.attributesOfItem(atPath: trace.sibling("shop.html"))[.posixPermissions] as? Int
            #expect(written == mode)
        }
    }

    @Test func embedsEveryEventWithItsStateAsTheTraceWroteIt() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        #expect(runReportCommand(["report", trace.path]).status == 0)
        let report = try ParsedReport(trace.read("shop.html"))
        let events = try ReportFixture.shopEvents.map { try JSONParser.parse($0) }
        #expect(report.column("seq") == events.compactMap { $0["seq"]?.intValue })
        #expect(report.details.count == events.count)
        for (detail, event) in zip(report.details, events) {
            #expect(detail["state"] == event["state"])
            #expect(detail["args"] == event["args"])
        }
        let stores = report.info["stores"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(report.column("store").map { stores[$0] } == events.compactMap { $0["store"]?.stringValue })
        #expect(report.column("changed") == events.map { $0["changed"]?.boolValue.map { $0 ? 1 : 0 } ?? -1 })
    }

    @Test func theEmbeddedDataCannotCloseItsScriptElement() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        #expect(runReportCommand(["report", trace.path]).status == 0)
        let report = try ParsedReport(trace.read("shop.html"))
        for text in [report.dataText, report.eventsText] {
            #expect(!text.contains("<"))
            #expect(!text.contains(">"))
            #expect(!text.contains("&"))
            #expect(!text.contains("\u{2028}") && !text.contains("\u{2029}"))
        }
        // The hostile strings are still there, as data: parsing gives them back exactly.
        let titles = report.details[4]["state"]?["loaded"]?["titles"]
        #expect(
            titles == .array([.string("Dune"), .string(ReportFixture.closesScript), .string(ReportFixture.separators)]))
        #expect(report.details[5]["args"]?["note"] == .string(ReportFixture.comment))
        // Every script element the page has is one the inspector wrote: as many ends as starts.
        #expect(
            report.html.components(separatedBy: "<script").count
                == report.html.components(separatedBy: "</script>").count)
        #expect(!report.html.contains("<img"))
        #expect(report.html.contains("Shop &lt;b&gt;"))
    }

    @Test func theInlineScriptAndStyleAreTheOnlyOnesThePolicyAllows() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        #expect(runReportCommand(["report", trace.path]).status == 0)
        let html = try trace.read("shop.html")
        let policy = try #require(
            html.range(of: "Content-Security-Policy\" content=\"").map { html[$0.upperBound...].prefix { $0 != "\"" } })
        let script = try #require(
            html.range(of: "<script>").flatMap { open in
                html.range(of: "</script>", range: open.upperBound..<html.endIndex).map {
                    String(html[open.upperBound..<$0.lowerBound])
                }
            })
        let style = try #require(
            html.range(of: "<style>").flatMap { open in
                html.range(of: "</style>", range: open.upperBound..<html.endIndex).map {
                    String(html[open.upperBound..<$0.lowerBound])
                }
            })
        #expect(policy.contains("default-src 'none'"))
        #expect(policy.contains("script-src \(ContentSecurityPolicy.source(Array(script.utf8)));"))
        #expect(policy.contains("style-src \(ContentSecurityPolicy.source(Array(style.utf8)));"))
        // The page inlines the embedded files, byte for byte, and they are the files in Sources.
        #expect(Array(script.utf8) == PageAssets.script)
        #expect(Array(style.utf8) == PageAssets.style)
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/Inspector/Report/Page").standardized
        #expect(try Array(Data(contentsOf: folder.appendingPathComponent("page.js"))) == PageAssets.script)
        #expect(try Array(Data(contentsOf: folder.appendingPathComponent("page.css"))) == PageAssets.style)
        #expect(!policy.contains("unsafe"))
        #expect(
            !script.contains("innerHTML") && !script.contains("insertAdjacentHTML")
                && !script.contains("document.write"))
    }

    @Test func listsTheProblemsWithTheEventsTheyBelongTo() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        #expect(runReportCommand(["report", trace.path]).status == 0)
        let report = try ParsedReport(trace.read("shop.html"))
        let validation = try TraceValidator().validate(file: trace.path)
        let problems = report.info["problems"]?.arrayValue ?? []
        #expect(problems.count == validation.problems.count)
        #expect(!problems.isEmpty)
        let lines = report.column("line")
        for (problem, expected) in zip(problems, validation.problems) {
            #expect(problem["kind"]?.stringValue == expected.kind.rawValue)
            #expect(problem["message"]?.stringValue == expected.message)
            let event = try #require(problem["event"]?.intValue)
            #expect(lines[event] == expected.line)
        }
        #expect(report.info["summary"]?["errors"]?.intValue == validation.errors)
    }

    @Test func drawsEachMachineWithTheTransitionsTaken() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        #expect(runReportCommand(["report", trace.path]).status == 0)
        let html = try trace.read("shop.html")
        #expect(html.components(separatedBy: "<svg class=\"rw-graph\"").count == 2)
        #expect(html.contains("class=\"edge illegal\""))
        #expect(html.contains("<title>loading → loading: not declared, taken once (toLoading)</title>"))
        #expect(html.contains("<title>idle → loading: declared, taken once (toLoading)</title>"))
        #expect(html.contains("<title>loaded → loading: declared, never taken</title>"))
        #expect(html.contains("Without a machine: CartStore."))
    }

    @Test func aSpecReplacesTheHeadersMachineForTheGraphAndTheProblems() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        #expect(try runReportCommand(["report", trace.path, "--spec", trace.writeSpecAllowingTheLoop()]).status == 0)
        let report = try ParsedReport(trace.read("shop.html"))
        #expect(report.info["problems"]?.arrayValue?.isEmpty == true)
        #expect(report.html.contains("<title>loading → loading: declared, taken once (toLoading)</title>"))
        #expect(!report.html.contains("class=\"edge illegal\""))
        #expect(!report.html.contains(">failed</text>"))
    }

    @Test func aWindowHoldsItsStepsAndTheStateBeforeThem() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        let result = runReportCommand(["report", trace.path, "--from", "3", "--to", "5"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("(steps 3–5 of 7)"))
        let report = try ParsedReport(trace.read("shop.html"))
        #expect(report.column("seq") == [3, 4, 5])
        #expect(report.info["window"]?["start"]?.intValue == 2)
        #expect(report.info["window"]?["whole"] == .bool(false))
        // The two stores registered before step 3, with their states and the catalog's case.
        let stores = report.info["stores"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let names = report.info["names"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let start = report.info["start"]?.arrayValue ?? []
        #expect(start.compactMap { $0[0]?.intValue.map { stores[$0] } } == ["CatalogStore", "CartStore"])
        #expect(start.first?[1]?.intValue.map { names[$0] } == "idle")
        #expect(report.details.count == 3 + start.count)
        #expect(report.details[3]["state"] == .object(["idle": .object([:])]))
        #expect(report.details[4]["state"] == .object(["items": .array([])]))
        // The illegal transition at seq 4 is in the window; nothing else is outside it.
        #expect(report.info["problems"]?.arrayValue?.count == 1)
    }

    @Test func aWindowCountsOnlyItsOwnTransitionsAndProblems() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        #expect(runReportCommand(["report", trace.path, "--from", "5"]).status == 0)
        let report = try ParsedReport(trace.read("shop.html"))
        #expect(report.column("seq") == [5, 6, 7])
        #expect(report.info["problems"]?.arrayValue?.isEmpty == true)
        #expect(report.info["problemsOutside"]?.intValue == 1)
        #expect(report.html.contains("1 outside this window"))
        #expect(report.html.contains("<title>loading → loaded: declared, taken once (load)</title>"))
        #expect(!report.html.contains("class=\"edge illegal\""))
    }

    @Test func refusesTooManyEventsAndNamesAWindowThatFits() throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        let result = runReportCommand(["report", trace.path, "--max-events", "3"])
        #expect(result.status == 2)
        #expect(result.err.contains("has \(ReportFixture.shopEvents.count) events, more than the 3 a report holds"))
        #expect(result.err.contains("--from 1 --to 3"))
        #expect(!FileManager.default.fileExists(atPath: trace.sibling("shop.html")))
        // The window it suggests is accepted.
        #expect(runReportCommand(["report", trace.path, "--max-events", "3", "--from", "1", "--to", "3"]).status == 0)
    }

    @Test func refusesStatesLargerThanTheLimitAndNamesAWindowThatFits() throws {
        let big = String(repeating: "x", count: 300 << 10)
        var lines = [ReportFixture.header, #"{"type":"register","seq":1,"store":"Big","state":"a"}"#]
        for seq in 2...6 {
            lines.append(
                #"{"type":"transition","seq":\#(seq),"store":"Big","action":"grow","changed":true,"state":"\#(big)\#(seq)"}"#
            )
        }
        let trace = try ReportTraceFile(lines)
        let result = runReportCommand(["report", trace.path, "--max-size", "1"])
        #expect(result.status == 2)
        #expect(result.err.contains("take more than 1 MB by step 5"))
        #expect(result.err.contains("--from 1 --to 4"))
        #expect(runReportCommand(["report", trace.path, "--max-size", "1", "--to", "4"]).status == 0)
        #expect(runReportCommand(["report", trace.path, "--max-size", "2"]).status == 0)
    }

    @Test(arguments: [
        (["report"], "missing TRACE"),
        (["report", "TRACE", "--from", "9"], "--from 9 is past the end"),
        (["report", "TRACE", "--to", "x"], "--to must be a whole number"),
        (["report", "TRACE", "--from", "5", "--to", "3"], "the window from step 5 to step 3 is empty"),
        (["report", "TRACE", "--max-size", "401"], "--max-size must be at most 400"),
        (["report", "TRACE", "--max-events", "0"], "--max-events needs a whole number of at least 1"),
        (["report", "TRACE", "--colour"], "unknown option '--colour'"),
        (["report", "TRACE", "extra"], "unexpected argument 'extra'"),
        (["report", "-"], "not standard input"),
        (["report", "TRACE", "-o", "a.html", "--output", "b.html"], "give -o or --output, not both"),
        (["report", "TRACE", "--spec", "FOLDER/none.json"], "none.json"),
        (["report", "TRACE", "-o", "TRACE"], "would replace the trace"),
        (["report", "TRACE", "-o", "FOLDER"], "is a directory"),
        (["report", "TRACE", "-o", "FOLDER/missing/r.html"], "check that the folder exists"),
        (["report", "FOLDER/none.jsonl"], "none.jsonl"),
    ])
    func badArgumentsExitWithStatusTwoAndSayWhy(arguments: [String], message: String) throws {
        let trace = try ReportTraceFile(ReportFixture.shopLines)
        let resolved = arguments.map {
            $0.replacingOccurrences(of: "TRACE", with: trace.path).replacingOccurrences(
                of: "FOLDER", with: trace.folder)
        }
        let result = runReportCommand(resolved)
        #expect(result.status == 2)
        #expect(result.err.contains(message), "\(result.err)")
        #expect(result.out.isEmpty)
    }

    @Test func aFileThatIsNotATraceIsRefused() throws {
        let trace = try ReportTraceFile(["<html>not a trace</html>"], name: "page.jsonl")
        let result = runReportCommand(["report", trace.path])
        #expect(result.status == 2)
        #expect(result.err.contains("page.jsonl:1:"))
        #expect(!FileManager.default.fileExists(atPath: trace.sibling("page.html")))
    }

    @Test func helpDescribesTheCommand() {
        for arguments in [["report", "--help"], ["help", "report"]] {
            let result = runReportCommand(arguments)
            #expect(result.status == 0)
            #expect(result.out.hasPrefix("Usage: inspector report TRACE"))
            #expect(result.out.contains("--from N"))
            #expect(result.out.contains("--max-events"))
        }
        #expect(runReportCommand(["--help"]).out.contains("report"))
    }

    @Test func theDefaultOutputSwapsTheTraceExtensionForHTML() {
        #expect(Report.defaultOutput(for: "traces/run.jsonl") == "traces/run.html")
        #expect(Report.defaultOutput(for: "run.json") == "run.html")
        #expect(Report.defaultOutput(for: "run") == "run.html")
        #expect(Report.defaultOutput(for: "dir/.jsonl") == "dir/.jsonl.html")
    }
}
