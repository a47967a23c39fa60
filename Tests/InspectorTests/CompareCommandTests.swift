import Foundation
import TestSupport
import Testing
import TraceJSON

@testable import Inspector

@Suite struct CompareCommandTests {
    typealias V = ValidateTesting

    /// Two runs of CatalogStore that agree up to event 3, where the second loads other titles;
    /// event 3 is caused by event 2.
    private func runs(in folder: V.Folder) throws -> (first: String, second: String) {
        func run(_ titles: String, at: String) -> [String] {
            [
                V.header, V.register(1),
                #"{"type":"transition","seq":2,"elapsed":0.1,"store":"CatalogStore","action":"toLoading","from":"idle","to":"loading","changed":true,"state":{"loading":{}},"source":"A.swift:1"}"#,
                #"{"type":"transition","seq":3,"elapsed":0.2,"store":"CatalogStore","action":"didLoad","from":"loading","to":"loaded","changed":true,"state":{"loaded":{"titles":\#(titles),"at":"\#(at)"}},"cause":2,"args":{"count":2}}"#,
            ]
        }
        return (
            try folder.write("a.jsonl", run(#"["Dune","Emma"]"#, at: "10:00")),
            try folder.write("b.jsonl", run(#"["Dune","Ulysses"]"#, at: "11:00"))
        )
    }

    /// A patch that does not apply is named as every other command names it: its line, its
    /// action and store, and the kind `validate` reports, `bad-patch` (issue 34, audit E).
    @Test func aPatchThatDoesNotApplyIsABadPatchNamingItsLine() throws {
        let folder = try V.Folder()
        let path = try folder.write(
            "v2.jsonl",
            [
                #"{"type":"header","format":"rewind-trace","version":2,"machines":{}}"#,
                #"{"type":"register","seq":1,"elapsed":0,"store":"S","state":{"n":0}}"#,
                #"{"type":"transition","seq":2,"elapsed":1,"store":"S","action":"bump","changed":true,"patch":[{"op":"remove","path":"/gone"}]}"#,
            ])
        let (status, out, err) = V.run(["compare", path, path])
        #expect(status == 2, "\(out)\(err)")
        #expect(err.contains("\(path):3:"), "\(err)")
        #expect(
            err.contains(#"the patch of "bump" on "S" does not apply to its state before it (bad-patch)"#), "\(err)")
        #expect(err.contains("patch[0]"), "\(err)")
        // Worded as `show` words the same line.
        let show = V.run(["show", path, "2"])
        #expect(show.err.contains("(bad-patch)"), "\(show)")
    }

    @Test func twoRunsThatAgreeExitZero() throws {
        let folder = try V.Folder()
        let (first, _) = try runs(in: folder)
        let (status, out, err) = V.run(["compare", first, first])
        #expect(status == 0)
        #expect(err.isEmpty)
        #expect(out == "\(first) and \(first) agree: 3 events each\n")
        let json = V.run(["compare", "--format", "json", first, first])
        #expect(json.out == #"{"agree":true,"events":3}"# + "\n")
    }

    @Test func theFirstDifferenceIsPrintedWithItsStateDiffAndCauses() throws {
        let folder = try V.Folder()
        let (first, second) = try runs(in: folder)
        let (status, out, _) = V.run(["compare", first, second])
        #expect(status == 1)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(first) and \(second) differ at event 3: state")
        #expect(
            lines.contains {
                $0.hasPrefix("  \(first):4")
                    && $0.hasSuffix("seq 3  CatalogStore.didLoad  loading → loaded  args {\"count\":2}")
            })
        #expect(lines.contains("-       [1]: \"Emma\""))
        #expect(lines.contains("+       [1]: \"Ulysses\""))
        #expect(
            lines.contains(
                "causes in \(first): seq 3 CatalogStore.didLoad ← seq 2 CatalogStore.toLoading (the action that started it)"
            ))
    }

    @Test func ignoredPathsDoNotCount() throws {
        let folder = try V.Folder()
        let (first, second) = try runs(in: folder)
        let (status, out, _) = V.run([
            "compare", "--ignore", "CatalogStore.loaded.at", "--ignore", "CatalogStore.loaded.titles[*]", first, second,
        ])
        #expect(status == 0, "\(out)")
        let one = V.run(["compare", "--ignore", "CatalogStore.loaded.titles[1]", first, second])
        #expect(one.status == 1)
        #expect(one.out.contains("CatalogStore.loaded.at") == false)
        #expect(one.out.contains("-     at: \"10:00\""))
    }

    @Test func jsonNamesTheEventsTheirCausesAndTheChanges() throws {
        let folder = try V.Folder()
        let (first, second) = try runs(in: folder)
        let (status, out, _) = V.run([
            "compare", "--format", "json", "--ignore", "CatalogStore.loaded.at", first, second,
        ])
        #expect(status == 1)
        let value = try JSONParser.parse(out)
        #expect(value["agree"] == .bool(false))
        #expect(value["event"] == .number("3"))
        #expect(value["differs"] == .array([.string("state")]))
        #expect(value["first"]?["file"] == .string(first))
        #expect(value["first"]?["event"]?["action"] == .string("didLoad"))
        #expect(value["first"]?["event"]?["args"] == .object(["count": .number("2")]))
        #expect(value["second"]?["causes"]?.arrayValue?.map { $0["seq"]?.intValue } == [3, 2])
        #expect(value["second"]?["end"] == .string("origin"))
        #expect(value["changes"]?.arrayValue?.map { $0["path"]?.stringValue } == ["CatalogStore.loaded.titles[1]"])
        #expect(value["ignored"] == .array([.string("CatalogStore.loaded.at")]))
    }

    @Test func badInputExitsTwo() throws {
        let folder = try V.Folder()
        let (first, _) = try runs(in: folder)
        let junk = try folder.write("junk.jsonl", ["hello"])
        let missing = V.run(["compare", first, folder.path + "/missing.jsonl"])
        #expect(missing.status == 2)
        #expect(missing.err.contains("missing.jsonl: no such file; check the path"))
        let notATrace = V.run(["compare", junk, first])
        #expect(notATrace.status == 2)
        #expect(notATrace.err.contains("junk.jsonl:1: not a trace"))
        let badPath = V.run(["compare", "--ignore", "a[", first, first])
        #expect(badPath.status == 2)
        #expect(badPath.err.contains("--ignore: invalid path"))
        #expect(V.run(["compare", first]).status == 2)
        #expect(V.run(["compare", first, first, first]).status == 2)
    }

    @Test func aRunReadFromAPipeIsCompared() throws {
        let folder = try V.Folder()
        let (first, second) = try runs(in: folder)
        let run = try ChildProcess.run(
            "/bin/bash", ["-c", #"cat "$B" | "$I" compare <(cat "$A") /dev/stdin"#],
            adding: ["I": InspectorRun.executable.path, "A": first, "B": second, "NO_COLOR": "1"], timeout: 30)
        #expect(run.termination == .exited(1), "\(run.errorText)")
        #expect(run.outputText.contains("differ at event 3: state"), "\(run.outputText)")
        #expect(run.outputText.contains("causes in /dev/stdin: seq 3 CatalogStore.didLoad ← seq 2"))
    }

    @Test func helpNamesTheOptionsAndTheExitStatuses() {
        let (status, out, _) = V.run(["compare", "--help"])
        #expect(status == 0)
        for word in ["--ignore", "[*]", "--format", "Exit status", "0  the runs agree", "1  the runs differ", "2  "] {
            #expect(out.contains(word), "\(word)")
        }
    }
}
