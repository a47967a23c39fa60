import Foundation
import Testing
import TraceJSON

@testable import Inspector

@Suite struct CoverageCommandTests {
    typealias V = ValidateTesting

    /// Two runs of CatalogStore (idle → loading → loaded | failed → loading): together they take
    /// idle → loading (3 times), loading → loaded and loaded → loading, never loading → failed
    /// or failed → loading, and loading → loading once (illegal); `failed` is never visited.
    private func runs(in folder: V.Folder) throws -> (first: String, second: String) {
        let first = try folder.write(
            "runs/a.jsonl",
            [
                V.header, V.register(1), V.transition(2, "idle", "loading"),
                V.transition(3, "loading", "loaded", action: "finish"), V.transition(4, "loaded", "loading"),
            ])
        let second = try folder.write(
            "runs/b.jsonl",
            [
                V.header, V.register(1), V.transition(2, "idle", "loading", action: "refresh"),
                V.transition(3, "loading", "loading"), V.register(4), V.transition(5, "idle", "loading"),
            ])
        return (first, second)
    }

    @Test func textListsEachDeclaredTransitionTheIllegalOnesAndTheCasesNeverVisited() throws {
        let folder = try V.Folder()
        _ = try runs(in: folder)
        let (status, out, err) = V.run(["coverage", folder.path + "/runs"])
        #expect(status == 0, "\(err)")
        #expect(err.isEmpty)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.first == "CatalogStore: 3 of 5 declared transitions taken (60%) in 2 traces")
        #expect(lines.contains("  idle → loading     3 times in 2 traces  toLoading, refresh"))
        #expect(lines.contains("  loading → failed   never"))
        #expect(lines.contains("  loaded → loading   once in 1 trace      toLoading"))
        #expect(lines.contains("  illegal: loading → loading  once in 1 trace      toLoading"))
        #expect(lines.contains("  cases never visited: failed"))
        #expect(lines.last == "overall: 3 of 5 declared transitions taken (60%) over 2 traces")
    }

    @Test func minFailsTheBuildBelowTheThresholdOnly() throws {
        let folder = try V.Folder()
        let (first, second) = try runs(in: folder)
        let below = V.run(["coverage", "--min", "75", first, second])
        #expect(below.status == 1)
        #expect(below.out.hasSuffix("coverage 60% is below --min 75%\n"))
        let met = V.run(["coverage", "--min=60%", first, second])
        #expect(met.status == 0)
        #expect(met.out.hasSuffix("coverage 60% meets --min 60%\n"))
        // Nothing declared: a threshold cannot be met.
        let bare = try folder.write(
            "bare.jsonl", [#"{"type":"header","format":"rewind-trace","version":1,"machines":{}}"#])
        #expect(V.run(["coverage", "--min", "1", bare]).status == 1)
        #expect(V.run(["coverage", bare]).status == 0)
        for wrong in ["101", "-1", "much", "nan"] {
            let run = V.run(["coverage", "--min", wrong, first])
            #expect(run.status == 2)
            #expect(run.err.contains("--min takes a percentage from 0 to 100"))
        }
    }

    @Test func jsonHasEveryDeclaredTransitionWithItsCounts() throws {
        let folder = try V.Folder()
        let (first, second) = try runs(in: folder)
        let (status, out, _) = V.run(["coverage", "--format", "json", "--min", "50", first, second])
        #expect(status == 0)
        #expect(out.split(separator: "\n").count == 1)
        let value = try JSONParser.parse(out)
        #expect(value["traces"] == .number("2"))
        #expect(value["declared"] == .number("5"))
        #expect(value["taken"] == .number("3"))
        #expect(value["percent"] == .number("60"))
        #expect(value["min"] == .number("50"))
        #expect(value["passes"] == .bool(true))
        let machine = try #require(value["machines"]?[0])
        #expect(machine["store"] == .string("CatalogStore"))
        let transitions = try #require(machine["transitions"]?.arrayValue)
        #expect(
            transitions.map { "\($0["from"]!.stringValue!)→\($0["to"]!.stringValue!)=\($0["count"]!.intValue!)" } == [
                "idle→loading=3", "loading→loaded=1", "loading→failed=0", "loaded→loading=1", "failed→loading=0",
            ])
        #expect(transitions[0]["traces"] == .number("2"))
        #expect(transitions[0]["actions"] == .array([.string("toLoading"), .string("refresh")]))
        #expect(machine["illegal"]?[0]?["from"] == .string("loading"))
        #expect(machine["unvisited"] == .array([.string("failed")]))
        #expect(value["unreadable"] == .array([]))
    }

    @Test func githubWarnsOfEachTransitionNeverTakenAndErrsBelowMin() throws {
        let folder = try V.Folder()
        let (first, second) = try runs(in: folder)
        // A source root with no Swift file: the warnings carry no file (CIAnnotationTests has
        // them on the file that declares the machine).
        let (status, out, _) = V.run([
            "coverage", "--format", "github", "--min", "90", "--source-root", folder.path, first, second,
        ])
        #expect(status == 1)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "::warning title=never taken%3A CatalogStore::CatalogStore: loading → failed is declared, but no trace took it"
            ))
        #expect(lines.filter { $0.hasPrefix("::warning title=never taken") }.count == 2)
        #expect(lines.filter { $0.hasPrefix("::warning title=illegal") }.count == 1)
        #expect(lines.last == "::error title=coverage::coverage 60%25 is below --min 90%25")
    }

    @Test func junitHasATestCasePerMachineAndOneForTheThreshold() throws {
        let folder = try V.Folder()
        let (first, second) = try runs(in: folder)
        let missing = folder.path + "/missing.jsonl"
        let (status, out, _) = V.run(["coverage", "--format", "junit", "--min", "90", first, missing, second])
        #expect(status == 2)
        let checker = XMLStructure(Data(out.utf8))
        #expect(checker.error == nil, "\(out)")
        #expect(checker.attributes("testcase").map { $0["name"] } == [missing, "CatalogStore", "overall"])
        #expect(checker.count(of: "failure") == 1)
        #expect(checker.count(of: "error") == 1)
        #expect(checker.attributes("testsuite").first?["failures"] == "1")
        #expect(checker.attributes("testsuite").first?["errors"] == "1")
    }

    @Test func htmlDrawsEachMachineInOneSelfContainedPage() throws {
        let folder = try V.Folder()
        let (first, second) = try runs(in: folder)
        let hostile = try folder.write(
            "hostile.jsonl",
            [
                #"{"type":"header","format":"rewind-trace","version":1,"machines":{"<b>\"S'&":{"initial":"a","transitions":{"a":["<i>"],"<i>":[]}}}}"#
            ])
        let page = folder.path + "/coverage.html"
        let (status, out, err) = V.run(["coverage", "--format", "html", "-o", page, first, second, hostile])
        #expect(status == 0, "\(err)")
        #expect(out.isEmpty)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<b>") && !html.contains("<i>"))
        #expect(html.contains("&lt;b&gt;&quot;S&#39;&amp;"))
        // The policy allows exactly the page's one stylesheet, by its hash.
        let style = try #require(
            html.range(of: "<style>").flatMap { start in
                html.range(of: "</style>", range: start.upperBound..<html.endIndex).map {
                    html[start.upperBound..<$0.lowerBound]
                }
            })
        let hash = ContentSecurityPolicy.source(Array(style.utf8))
        #expect(html.contains("content=\"default-src 'none'; script-src 'none'; style-src \(hash);"))
        #expect(html.components(separatedBy: "<svg class=\"rw-graph\"").count == 3)
        #expect(html.contains("data-kind=\"never\""))
        #expect(html.contains("data-kind=\"taken\""))
        #expect(html.contains("data-kind=\"illegal\""))
        #expect(html.contains("<tr class=\"illegal\"><td>loading → loading (illegal)</td><td class=\"n\">1</td>"))
        #expect(html.contains("Cases never visited: failed."))
    }

    @Test func aFileThatCannotBeUsedGivesTwoAndTheOthersAreStillCounted() throws {
        let folder = try V.Folder()
        let (first, _) = try runs(in: folder)
        let notATrace = try folder.write("junk.jsonl", ["hello"])
        let empty = folder.path + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let (status, out, err) = V.run(["coverage", first, notATrace, empty])
        #expect(status == 2)
        #expect(out.contains("CatalogStore: 3 of 5 declared transitions taken (60%) in 1 trace"))
        #expect(err.contains("\(notATrace):1: not a trace"))
        #expect(err.contains("\(empty): no *.jsonl files in this directory"))
        #expect(V.run(["coverage"]).status == 2)
        #expect(V.run(["coverage", "--format", "yaml", first]).status == 2)
        #expect(V.run(["coverage", "--spec", folder.path + "/none.json", first]).status == 2)
    }

    @Test func aSpecReplacesTheTracesMachines() throws {
        let folder = try V.Folder()
        let (first, second) = try runs(in: folder)
        let spec = try folder.write(
            "spec.json",
            [#"{"machines":{"CatalogStore":{"initial":"idle","transitions":{"idle":["loading"],"loading":[]}}}}"#])
        let (status, out, _) = V.run(["coverage", "--spec", spec, first, second])
        #expect(status == 0)
        #expect(out.hasPrefix("CatalogStore: 1 of 1 declared transition taken (100%) in 2 traces\n"))
        #expect(out.contains("  illegal: loading → loaded"))
    }

    @Test func helpNamesEveryFormatAndTheExitStatuses() {
        let (status, out, _) = V.run(["coverage", "--help"])
        #expect(status == 0)
        for word in ["text", "json", "github", "junit", "html", "--min", "--spec", "Exit status", "0  ", "1  ", "2  "] {
            #expect(out.contains(word), "\(word)")
        }
    }
}
