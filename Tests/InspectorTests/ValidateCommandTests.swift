import Foundation
import FoundationXML
import Recorder
import Testing
import TraceJSON

@testable import Inspector

/// Temporary trace files and a recorded store for the `validate` and `graph` command tests.
enum ValidateTesting {
    static let header =
        #"{"type":"header","format":"rewind-trace","version":1,"machines":{"CatalogStore":{"initial":"idle","transitions":{"idle":["loading"],"loading":["loaded","failed"],"loaded":["loading"],"failed":["loading"]}}}}"#

    static func register(_ seq: Int, _ caseName: String = "idle", store: String = "CatalogStore") -> String {
        #"{"type":"register","seq":\#(seq),"store":"\#(store)","case":"\#(caseName)","state":{}}"#
    }

    static func transition(
        _ seq: Int, _ from: String, _ to: String, action: String = "toLoading", store: String = "CatalogStore"
    ) -> String {
        #"{"type":"transition","seq":\#(seq),"store":"\#(store)","action":"\#(action)","from":"\#(from)","to":"\#(to)","changed":true,"state":{},"source":"CatalogStore.swift:31"}"#
    }

    /// A folder of files, removed when released.
    final class Folder {
        let url: URL
        var path: String { url.path }

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-validate-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        /// Writes `lines` (each ending in `\n`, unless `final` is false) to `name`; returns its path.
        @discardableResult
        func write(_ name: String, _ lines: [String], final: Bool = true) throws -> String {
            let path = url.appendingPathComponent(name).path
            let directory = (path as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data((lines.joined(separator: "\n") + (final ? "\n" : "")).utf8).write(to: URL(fileURLWithPath: path))
            return path
        }

        deinit {
            try? FileManager.default.removeItem(at: url)
        }
    }

    /// A two-case machine recorded through the real `TraceRecorder`.
    enum Light: StateMachine, Equatable, Codable, Sendable {
        case off, on(level: Int)

        enum Case: String, CaseIterable { case off, on }
        static let initialCase = Case.off
        var currentCase: Case {
            switch self {
            case .off: .off
            case .on: .on
            }
        }
        static func transitions(from source: Case) -> [Case] {
            source == .off ? [.on] : [.off]
        }
    }

    final class LightStore: Store<Light>, @unchecked Sendable {
        func turnOn(_ level: Int) { send(args: ["level": level]) { $0 = .on(level: level) } }
        func turnOff() { send { $0 = .off } }
    }

    /// Runs `inspector`; returns its status and what it wrote.
    static func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        let console = Console.capturing()
        let status = Inspector.run(arguments, console: console)
        return (status, console.out.text, console.err.text)
    }
}

@Suite struct ValidateCommandTests {
    typealias V = ValidateTesting

    @Test func textPrintsOneCompilerStyleLinePerProblemAndASummary() throws {
        let folder = try V.Folder()
        let path = try folder.write(
            "x.jsonl",
            [
                V.header, V.register(1), V.transition(2, "idle", "loading"), V.transition(3, "loading", "loading"),
                "[1]",
            ])
        let (status, out, err) = V.run(["validate", path])
        #expect(status == 1)
        #expect(err.isEmpty)
        #expect(
            out == """
                \(path):4: error: illegal transition loading → loading by toLoading in CatalogStore (seq 3, from CatalogStore.swift:31); from loading it may go to loaded, failed; send toLoading only when CatalogStore may go to loading (its call stack, where recorded, shows the code that sent it), or, if loading → loading is meant, add loading to the transitions of loading in CatalogStore's machine [illegal]
                \(path):5: error: the line is an array, not a JSON object; every line after the header is one event object [malformed]
                \(path): 3 events, 2 errors, 0 warnings

                """)
    }

    @Test func exitStatusIsZeroWithoutErrorsAndWarningsCountOnlyWhenStrict() throws {
        let folder = try V.Folder()
        let clean = try folder.write("clean.jsonl", [V.header, V.register(1), V.transition(2, "idle", "loading")])
        let torn = try folder.write("torn.jsonl", [V.header, V.register(1), #"{"type":"tr"#], final: false)
        #expect(V.run(["validate", clean]).status == 0)
        #expect(V.run(["validate", clean]).out == "\(clean): 2 events, 0 errors, 0 warnings\n")
        let lenient = V.run(["validate", torn])
        #expect(lenient.status == 0)
        #expect(lenient.out.contains("\(torn):3: warning: the last line has no final newline"))
        #expect(lenient.out.hasSuffix("\(torn): 1 event, 0 errors, 1 warning\n"))
        #expect(V.run(["validate", "--strict", torn]).status == 1)
        #expect(V.run(["validate", clean, "--strict"]).status == 0)
    }

    @Test func aFileThatCannotBeReadGivesTwoAndTheOthersAreStillReported() throws {
        let folder = try V.Folder()
        let bad = try folder.write("bad.jsonl", [V.header, V.register(1), V.transition(2, "idle", "loaded")])
        let notATrace = try folder.write("notes.jsonl", ["hello"])
        let missing = folder.path + "/missing.jsonl"
        let (status, out, err) = V.run(["validate", missing, bad, notATrace])
        #expect(status == 2)
        #expect(err == "inspector: \(missing): cannot open: No such file or directory; check the path\n")
        #expect(out.contains("\(bad):3: error: illegal transition idle → loaded"))
        #expect(out.contains("\(bad): 2 events, 1 error, 0 warnings"))
        #expect(out.contains("\(notATrace):1: error: not a trace: line 1 is not JSON"))
        #expect(out.hasSuffix("\(notATrace): not a trace\n"))
        #expect(V.run(["validate", notATrace]).status == 2)
        #expect(V.run(["validate", missing]).status == 2)
    }

    @Test(arguments: [
        ["validate"], ["validate", "--format", "xml", "x.jsonl"], ["validate", "--bogus", "x.jsonl"],
        ["validate", "--max-problems", "-1", "x.jsonl"],
    ])
    func aWrongCommandLineGivesTwo(arguments: [String]) {
        let (status, out, err) = V.run(arguments)
        #expect(status == 2)
        #expect(out.isEmpty)
        #expect(err.contains("Run 'inspector help validate' for usage."))
    }

    @Test func theOutputKeepsTheOrderGivenWhileFilesRunInParallel() throws {
        let folder = try V.Folder()
        var paths: [String] = []
        for index in 0..<24 {
            // Sizes differ so that files finish out of order.
            let events = (0..<(index % 5) * 400).map {
                V.transition($0 + 2, $0 % 2 == 0 ? "idle" : "loading", $0 % 2 == 0 ? "loading" : "idle")
            }
            paths.append(try folder.write("t\(index).jsonl", [V.header, V.register(1)] + events))
        }
        paths.reverse()
        let (_, out, _) = V.run(["validate"] + paths)
        let summaries = out.split(separator: "\n").filter { $0.contains(" events, ") || $0.contains(" event, ") }
        #expect(summaries.map { String($0.prefix { $0 != ":" }) } == paths)
    }

    @Test func aDirectoryStandsForItsTraceFilesInNameOrder() throws {
        let folder = try V.Folder()
        try folder.write("b.jsonl", [V.header])
        try folder.write("a.jsonl", [V.header, V.register(2)])
        try folder.write("notes.txt", ["not a trace"])
        try folder.write("invalid/c.jsonl", ["not a trace"])
        let (status, out, _) = V.run(["validate", folder.path])
        #expect(status == 1)
        #expect(
            out == """
                \(folder.path)/a.jsonl:2: error: the first event has seq 2, expected 1 [seq]
                \(folder.path)/a.jsonl: 1 event, 1 error, 0 warnings
                \(folder.path)/b.jsonl: 0 events, 0 errors, 0 warnings

                """)
        let empty = try V.Folder()
        let none = V.run(["validate", empty.path])
        #expect(none.status == 2)
        #expect(none.err == "inspector: \(empty.path): no *.jsonl files in this directory\n")
    }

    @Test func jsonPrintsTheFormatPagesReportOnePerLine() throws {
        let folder = try V.Folder()
        let first = try folder.write(
            "a.jsonl",
            [V.header, V.register(1), V.transition(2, "idle", "loading"), V.transition(3, "loading", "loading"), "{"])
        let second = try folder.write("b.jsonl", ["nope"])
        let (status, out, _) = V.run(["validate", "--format", "json", first, second])
        #expect(status == 2)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let report = try JSONParser.parse(lines[0])
        #expect(report.objectValue?.keys == ["file", "events", "errors", "warnings", "problems"])
        #expect(report["file"] == .string(first))
        #expect(report["events"]?.intValue == 3)
        #expect(report["errors"]?.intValue == 2)
        #expect(report["warnings"]?.intValue == 0)
        let problems = report["problems"]?.arrayValue ?? []
        #expect(problems.count == 2)
        // The format page's keys in its order, then this project's: the transition's source, and
        // where it is in the repository (this package's sample app has a CatalogStore.swift).
        #expect(
            problems[0].objectValue?.keys == [
                "kind", "severity", "line", "seq", "store", "message", "source", "sourceFile", "sourceLine",
            ])
        #expect(problems[0]["sourceFile"] == .string("Sources/SampleApp/Catalog/CatalogStore.swift"))
        #expect(problems[0]["kind"] == .string("illegal"))
        #expect(problems[0]["severity"] == .string("error"))
        #expect(problems[0]["line"]?.intValue == 4)
        #expect(problems[0]["seq"]?.intValue == 3)
        #expect(problems[0]["store"] == .string("CatalogStore"))
        #expect(problems[1].objectValue?.keys == ["kind", "severity", "line", "message"])
        let fatal = try JSONParser.parse(lines[1])
        #expect(fatal["problems"]?[0]?["severity"] == .string("fatal"))
        #expect(fatal["problems"]?[0]?["kind"] == .string("not-a-trace"))
    }

    @Test func jsonOnARecordedTraceAgreesWithTheRules() throws {
        let folder = try V.Folder()
        let path = folder.path + "/lights.jsonl"
        let recorder = try TraceRecorder(path: path, app: "Lights", machines: ["Hall": V.Light.self], onError: { _ in })
        let hall = V.LightStore(initialState: .off, name: "Hall", recorder: recorder)
        let porch = V.LightStore(initialState: .off, name: "Porch", recorder: recorder)
        hall.turnOn(3)
        hall.turnOn(5)  // on → on: illegal
        hall.turnOff()
        porch.turnOff()  // Porch has no machine in the header (unless its register carries it)
        hall.turnOff()  // off → off: illegal
        let (status, out, _) = V.run(["validate", "--format", "json", path])
        #expect(status == 1)
        let report = try JSONParser.parse(out.trimmingCharacters(in: .newlines))
        #expect(report["events"]?.intValue == 7)
        let problems = (report["problems"]?.arrayValue ?? []).filter { $0["store"] == .string("Hall") }
        #expect(problems.map { $0["kind"]?.stringValue } == ["illegal", "illegal"])
        #expect(problems.map { $0["line"]?.intValue } == [5, 8])
        #expect(problems.map { $0["seq"]?.intValue } == [4, 7])
        #expect(problems.map { $0["store"]?.stringValue } == ["Hall", "Hall"])
        let message = problems[0]["message"]?.stringValue ?? ""
        #expect(
            message.hasPrefix(
                "illegal transition on → on by turnOn in Hall (seq 4, from InspectorTests/ValidateCommandTests.swift:"),
            "\(message)")
    }

    @Test func jsonListsAtMostMaxProblemsAndSaysHowManyWereLeftOut() throws {
        let folder = try V.Folder()
        let path = try folder.write("many.jsonl", [V.header] + (1...5).map { V.register($0 * 3) })
        let (_, out, _) = V.run(["validate", "--format=json", "--max-problems", "2", path])
        let report = try JSONParser.parse(out.trimmingCharacters(in: .newlines))
        #expect(report.objectValue?.keys == ["file", "events", "errors", "warnings", "problems", "omitted"])
        #expect(report["problems"]?.arrayValue?.count == 2)
        #expect(report["omitted"]?.intValue == 3)
        #expect(report["errors"]?.intValue == 5)
        let text = V.run(["validate", "--max-problems", "2", path]).out
        #expect(text.contains("\(path): 3 more problems not listed (--max-problems 2 was reached)"))
    }

    @Test func githubPrintsAnnotationsWithEscapedValues() throws {
        let folder = try V.Folder()
        let path = try folder.write(
            "a,b:c%.jsonl", [V.header, V.register(1), V.transition(2, "idle", "loaded"), #"{"type":"x""#], final: false)
        // A source root without the Swift file: the annotation falls back to the trace's line.
        let (status, out, _) = V.run(["validate", "--format", "github", "--source-root", folder.path, path])
        #expect(status == 1)
        let escaped = path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: ",", with: "%2C")
            .replacingOccurrences(of: ":", with: "%3A")
        #expect(
            out == """
                ::error file=\(escaped),line=3,title=illegal::illegal transition idle → loaded by toLoading in CatalogStore (seq 2, from CatalogStore.swift:31); from idle it may go to loading; send toLoading only when CatalogStore may go to loaded (its call stack, where recorded, shows the code that sent it), or, if idle → loaded is meant, add loaded to the transitions of idle in CatalogStore's machine
                ::warning file=\(escaped),line=4,title=truncated::the last line has no final newline and is not a complete JSON object (column 12: unexpected end of input, expected ',' or '}' after an object member): a write cut short, probably by a crash; the events before it are intact
                \(path): 2 events, 1 error, 1 warning

                """)
        #expect(
            V.run(["validate", "--format", "github", "--strict", path]).out.contains(
                "::error file=\(escaped),line=4,title=truncated::"))
    }

    @Test func junitIsWellFormedXMLWithATestCasePerTraceAndAFailurePerError() throws {
        let folder = try V.Folder()
        // Hostile names: XML syntax, a CDATA end, control characters and a terminal escape.
        let store = #"<Store & \"co\" ]]> \u001b[2J \u0007>"#
        let header =
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{"\#(store)":{"initial":"a","transitions":{"a":["b"],"b":[]}}}}"#
        let bad = try folder.write(
            "bad&<.jsonl",
            [
                header, #"{"type":"register","seq":1,"store":"\#(store)","case":"a","state":{}}"#,
                #"{"type":"transition","seq":2,"store":"\#(store)","action":"x","from":"b","to":"a","changed":true,"state":{}}"#,
                #"{"type":"transition","seq":9,"store":"\#(store)","action":"x","from":"a","to":"zz'","changed":true,"state":{}}"#,
                #"{"type":"tr"#,
            ], final: false)
        let clean = try folder.write("clean.jsonl", [V.header])
        let notATrace = try folder.write("junk.jsonl", ["\u{1}"])
        let (status, out, _) = V.run([
            "validate", "--format", "junit", bad, clean, notATrace, folder.path + "/missing.jsonl",
        ])
        #expect(status == 2)
        #expect(!out.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })

        let checker = XMLStructure(Data(out.utf8))
        #expect(checker.error == nil, "\(checker.error.map { "\($0)" } ?? "")\n\(out)")
        #expect(checker.count(of: "testsuites") == 1)
        #expect(checker.count(of: "testcase") == 4)
        // bad: discontinuity + illegal at line 3, seq + unknown-case at line 4; the warning goes to system-out.
        #expect(checker.count(of: "failure") == 4)
        #expect(checker.count(of: "error") == 2)
        #expect(checker.attributes("testsuite").first?["tests"] == "4")
        #expect(checker.attributes("testsuite").first?["failures"] == "1")
        #expect(checker.attributes("testsuite").first?["errors"] == "2")
        #expect(
            checker.attributes("testcase").map { $0["name"] } == [
                bad, clean, notATrace, folder.path + "/missing.jsonl",
            ])
        #expect(
            checker.attributes("failure").map { $0["type"] } == ["discontinuity", "illegal", "seq", "unknown-case"])
        #expect(
            checker.attributes("failure").first?["message"]?.contains("<Store & \"co\" ]]> \\u{1b}[2J \\u{7}>") == true)

        let strict = XMLStructure(Data(V.run(["validate", "--format", "junit", "--strict", bad]).out.utf8))
        #expect(strict.error == nil)
        #expect(strict.count(of: "failure") == 5)
    }

    @Test func aSpecFileReplacesTheTracesMachines() throws {
        let folder = try V.Folder()
        let trace = try folder.write("t.jsonl", [V.header, V.register(1), V.transition(2, "idle", "loading")])
        let spec = try folder.write(
            "machines.json",
            [#"{"machines":{"CatalogStore":{"initial":"idle","transitions":{"idle":["ready"],"ready":[]}}}}"#])
        #expect(V.run(["validate", trace]).status == 0)
        let (status, out, _) = V.run(["validate", "--spec", spec, trace])
        #expect(status == 1)
        #expect(
            out.contains(
                "\(trace):3: error: transition toLoading on CatalogStore: to \"loading\" is not a case of its machine (idle, ready) [unknown-case]"
            ))
        let badSpec = try folder.write("bad.json", [#"{"machines":{"S":{"initial":"x","transitions":{}}}}"#])
        let refused = V.run(["validate", "--spec", badSpec, trace])
        #expect(refused.status == 2)
        #expect(
            refused.err
                == "inspector: \(badSpec): spec: machine \"S\": initial case \"x\" is not a key of \"transitions\"; every case must be one (a final case maps to [])\n"
        )
        #expect(refused.out.isEmpty)
    }

    /// A version 2 trace with rules that shows each kind the format's version 2 page added.
    private func traceWithTheNewKinds(_ folder: V.Folder) throws -> String {
        let header =
            #"{"type":"header","format":"rewind-trace","version":2,"machines":{"CatalogStore":{"initial":"idle","transitions":{"idle":["loading"],"loading":["loading","loaded"],"loaded":["loading"]}}},"rules":[{"store":"CatalogStore","case":"loading","within":{"events":1}},{"store":"CatalogStore","notAtEnd":["loading"]}]}"#
        return try folder.write(
            "new.jsonl",
            [
                header, V.register(1),
                #"{"type":"register","seq":2,"store":"Cart","case":"empty","state":{"items":[]}}"#,
                #"{"type":"transition","seq":3,"store":"CatalogStore","action":"load","from":"idle","to":"loading","changed":true,"state":{}}"#,
                #"{"type":"transition","seq":4,"store":"CatalogStore","action":"load","from":"loading","to":"loading","changed":true,"patch":[{"op":"remove","path":"/page"}]}"#,
            ])
    }

    @Test func everyFormatCarriesTheNewKinds() throws {
        let folder = try V.Folder()
        let path = try traceWithTheNewKinds(folder)
        let json = V.run(["validate", "--format", "json", path])
        #expect(json.status == 1)
        let report = try JSONParser.parse(json.out.trimmingCharacters(in: .newlines))
        let problems = report["problems"]?.arrayValue ?? []
        #expect(
            problems.map {
                "\($0["kind"]?.stringValue ?? "") \($0["severity"]?.stringValue ?? "") \($0["line"]?.intValue ?? 0)"
            }
                == ["unchecked warning 3", "overdue error 5", "unresolved warning 5", "bad-patch error 5"])
        #expect(report["errors"]?.intValue == 2 && report["warnings"]?.intValue == 2)

        let text = V.run(["validate", path]).out
        for kind in ["[unchecked]", "[overdue]", "[unresolved]", "[bad-patch]"] {
            #expect(text.contains(kind), "\(kind)")
        }
        #expect(text.contains("\(path):5: warning: CatalogStore ends the trace in loading"))

        let github = V.run(["validate", "--format", "github", path]).out
        #expect(github.contains("::warning file=\(path),line=3,title=unchecked::"))
        #expect(github.contains("::error file=\(path),line=5,title=overdue::"))
        #expect(github.contains("::warning file=\(path),line=5,title=unresolved::"))
        #expect(github.contains("::error file=\(path),line=5,title=bad-patch::"))
        #expect(
            V.run(["validate", "--format", "github", "--strict", path]).out.contains(
                "::error file=\(path),line=5,title=unresolved::"))

        let junit = V.run(["validate", "--format", "junit", path]).out
        let xml = XMLStructure(Data(junit.utf8))
        #expect(xml.error == nil)
        #expect(xml.count(of: "failure") == 2)
        #expect(junit.contains(#"<failure type="overdue""#) && junit.contains(#"<failure type="bad-patch""#))
        #expect(junit.contains("[unresolved]") && junit.contains("[unchecked]"))
        let strict = V.run(["validate", "--format", "junit", "--strict", path]).out
        #expect(XMLStructure(Data(strict.utf8)).count(of: "failure") == 4)
    }

    @Test func aSpecFilesRulesReplaceTheHeaders() throws {
        let folder = try V.Folder()
        let path = try traceWithTheNewKinds(folder)
        let machines = #""machines":{}"#
        let cleared = try folder.write("cleared.json", [#"{\#(machines),"rules":[]}"#])
        let out = V.run(["validate", "--format", "json", "--spec", cleared, path]).out
        #expect(!out.contains("overdue") && !out.contains("unresolved"), "\(out)")
        let other = try folder.write(
            "other.json", [#"{\#(machines),"rules":[{"store":"CatalogStore","notAtEnd":["idle","loading"]}]}"#])
        let replaced = V.run(["validate", "--format", "json", "--spec", other, path]).out
        #expect(!replaced.contains("overdue") && replaced.contains("unresolved"), "\(replaced)")
        let kept = try folder.write("kept.json", [#"{\#(machines)}"#])
        #expect(V.run(["validate", "--format", "json", "--spec", kept, path]).out.contains("overdue"))
    }

    @Test func aSpecWhoseRulesAreNotShapedIsACommandLineError() throws {
        let folder = try V.Folder()
        let path = try traceWithTheNewKinds(folder)
        let bad = try folder.write(
            "bad.json", [#"{"machines":{},"rules":[{"store":"CatalogStore","case":"loading","within":{"events":0}}]}"#])
        let (status, out, err) = V.run(["validate", "--spec", bad, path])
        #expect(status == 2)
        #expect(out.isEmpty)
        #expect(err.hasPrefix("inspector: \(bad): spec: \"rules\"[0] "), "\(err)")
        #expect(err.contains(#""events" is 0, expected an integer of at least 1"#), "\(err)")
    }

    @Test func textFromATraceCannotDriveTheTerminal() throws {
        let folder = try V.Folder()
        let path = try folder.write(
            "t.jsonl",
            [
                V.header,
                #"{"type":"transition","seq":1,"store":"Evil\u001b]0;pwned\u0007","action":"x\u009b2J","changed":true,"state":{}}"#,
            ])
        let (status, out, _) = V.run(["validate", path])
        #expect(status == 1)
        #expect(!out.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) })
        #expect(out.contains("Evil\\u{1b}]0;pwned\\u{7}"))
        let json = V.run(["validate", "--format", "json", path]).out
        #expect(!json.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) })
        #expect(
            try JSONParser.parse(json.trimmingCharacters(in: .newlines))["problems"]?[0]?["store"]
                == .string("Evil\u{1B}]0;pwned\u{07}"))
    }

    @Test func helpNamesEveryFormatAndTheExitStatuses() {
        let (status, out, _) = V.run(["help", "validate"])
        #expect(status == 0)
        for word in [
            "--spec", "--strict", "text", "json", "github", "junit", "Exit status", "not-a-trace", "unknown-case",
            "unchecked", "overdue", "unresolved", "bad-patch", #""rules""#, "notAtEnd", "within",
        ] {
            #expect(out.contains(word), "\(word)")
        }
    }

    @Test func aLoopBetweenTwoRecordedStoresIsACauseLoopWarningAndMaxCauseDepthSetsTheThreshold() throws {
        let folder = try V.Folder()
        let path = folder.url.appendingPathComponent("loop.jsonl").path
        try recordLoop(rounds: 10, to: path)
        let loose = inspector(["validate", path])
        #expect(loose.status == 0)
        #expect(
            loose.out.contains(
                "\(path):20: warning: cause loop: LoopPing.recalculate → LoopPong.refresh → LoopPing.recalculate … repeated 10 times (seq 3 → 4 → … → 22)"
            ), "\(loose.out)")
        #expect(loose.out.contains("[cause-loop]"))
        #expect(inspector(["validate", "--strict", path]).status == 1)
        // Ten times through LoopPing.recalculate is within a threshold of 10.
        let allowed = inspector(["validate", "--strict", "--max-cause-depth", "10", path])
        #expect(allowed.status == 0, "\(allowed.out)")
        let json = inspector(["validate", "--format", "json", "--max-cause-depth", "2", path])
        #expect(
            json.out.contains(#"{"kind":"cause-loop","severity":"warning","line":8,"seq":7,"store":"LoopPing""#),
            "\(json.out)")
        #expect(inspector(["validate", "--max-cause-depth", "0", path]).status == 2)
        #expect(inspector(["validate", "--help"]).out.contains("--max-cause-depth N"))
    }
}

/// Parses XML with Foundation's parser and keeps the elements it saw, or its first error.
final class XMLStructure: NSObject, XMLParserDelegate {
    private(set) var elements: [(name: String, attributes: [String: String])] = []
    /// The text directly inside each of `elements`, unescaped, in the same order.
    private(set) var texts: [String] = []
    private(set) var error: Error?
    /// The positions in `elements` of the elements open where the parser is.
    private var open: [Int] = []

    init(_ data: Data) {
        super.init()
        let parser = XMLParser(data: data)
        parser.delegate = self
        if !parser.parse() && error == nil { error = parser.parserError ?? XMLCheckFailure() }
        if error == nil, let failure = parser.parserError { error = failure }
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        open.append(elements.count)
        elements.append((name, attributes))
        texts.append("")
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let innermost = open.last { texts[innermost] += string }
    }

    /// The text inside each element named `name`.
    func texts(of name: String) -> [String] {
        zip(elements, texts).filter { $0.0.name == name }.map(\.1)
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        if error == nil { error = parseError }
    }

    func count(of name: String) -> Int {
        elements.filter { $0.name == name }.count
    }

    func attributes(_ name: String) -> [[String: String]] {
        elements.filter { $0.name == name }.map(\.attributes)
    }

    struct XMLCheckFailure: Error {}
}
