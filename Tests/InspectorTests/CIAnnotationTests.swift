import Foundation
import TestSupport
import Testing

/// `validate` and `coverage` as CI runs them: the built `inspector` binary, from the repository's
/// root (the default source root), annotating the Swift lines of the app.
@Suite struct CIAnnotationTests {
    typealias V = ValidateTesting

    /// `inspector ARGUMENTS` run in `folder`, its exit status and output.
    static func run(_ arguments: [String], in folder: String) throws -> (status: Int32, out: String, err: String) {
        let run = try ChildProcess.run(
            "/bin/bash", ["-c", #"cd "$R" && exec "$I" "$@""#, "bash"] + arguments,
            adding: ["I": InspectorRun.executable.path, "R": folder, "NO_COLOR": "1"], timeout: 60)
        let status: Int32 = if case .exited(let code) = run.termination { code } else { -1 }
        return (status, run.outputText, run.errorText)
    }

    static let stack =
        #"["CatalogStore.toLoading() (CatalogStore.swift:34)","Collection.map<A, B>(_:)","Shop.perform(_:) (Shop.swift:12)"]"#

    /// An app's repository with a trace whose illegal transition was sent from `source`.
    static func repository(source: String) throws -> V.Folder {
        let folder = try V.Folder()
        try folder.write("Sources/App/Shop/Shop.swift", ["struct Shop {}"])
        try folder.write("Sources/App/CatalogStore.swift", ["final class CatalogStore {}"])
        try folder.write(
            "Sources/App/CatalogState.swift",
            [
                "import Recorder", "enum CatalogState: StateMachine {",
                "    enum Case { case idle, loading, loaded, failed }", "}",
            ])
        try folder.write(
            "traces/run.jsonl",
            [
                V.header, V.register(1),
                #"{"type":"transition","seq":2,"store":"CatalogStore","action":"toLoading","from":"idle","to":"loaded","changed":true,"state":{},"source":"\#(source)","stack":\#(stack)}"#,
            ])
        return folder
    }

    @Test func githubAnnotatesTheSwiftLineWithTheTracesLineInTheMessage() throws {
        let folder = try Self.repository(source: "App/Shop.swift:12")
        let (status, out, _) = try Self.run(["validate", "--format", "github", "traces/run.jsonl"], in: folder.path)
        #expect(status == 1)
        let lines = out.split(separator: "\n")
        #expect(lines.count == 2, "\(out)")
        #expect(
            lines.first?.hasPrefix(
                "::error file=Sources/App/Shop/Shop.swift,line=12,title=illegal::illegal transition idle → loaded")
                == true, "\(out)")
        // The trace's place, what to do, and the stack folded to the app's frames on a line of its own.
        #expect(
            out.contains(
                "add loaded to the transitions of idle in CatalogStore's machine (trace traces/run.jsonl:3)%0Acall stack: CatalogStore.toLoading() (CatalogStore.swift:34) ← … 1 other frame ← Shop.perform(_:) (Shop.swift:12)\n"
            ), "\(out)")
        // The same from elsewhere, with --source-root.
        let outside = try Self.run(
            ["validate", "--format", "github", "--source-root", folder.path, folder.path + "/traces/run.jsonl"], in: "/"
        )
        #expect(
            outside.out.hasPrefix("::error file=\(folder.path)/Sources/App/Shop/Shop.swift,line=12,"), "\(outside.out)")
    }

    @Test func githubFallsBackToTheTracesLineWhenTheFileIsNotFound() throws {
        let folder = try Self.repository(source: "Gone/Missing.swift:4")
        let (status, out, _) = try Self.run(["validate", "--format", "github", "traces/run.jsonl"], in: folder.path)
        #expect(status == 1)
        #expect(out.hasPrefix("::error file=traces/run.jsonl,line=3,title=illegal::"), "\(out)")
        #expect(!out.contains("(trace "))
        #expect(out.contains("%0Acall stack: "))
        // An old File.swift:LINE source is found by its unique name.
        let old = try Self.repository(source: "Shop.swift:12")
        #expect(
            try Self.run(["validate", "--format", "github", "traces/run.jsonl"], in: old.path).out.hasPrefix(
                "::error file=Sources/App/Shop/Shop.swift,line=12,"))
    }

    @Test func textAndJSONShowTheSourceAndTheStack() throws {
        let folder = try Self.repository(source: "App/Shop.swift:12")
        let text = try Self.run(["validate", "traces/run.jsonl"], in: folder.path).out
        #expect(
            text.contains(
                "traces/run.jsonl:3: note: call stack: CatalogStore.toLoading() (CatalogStore.swift:34) ← … 1 other frame ← Shop.perform(_:) (Shop.swift:12)\n"
            ), "\(text)")
        let json = try Self.run(["validate", "--format", "json", "traces/run.jsonl"], in: folder.path).out
        let problem = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])[
            "problems"]
        let first = try #require((problem as? [[String: Any]])?.first)
        #expect(first["source"] as? String == "App/Shop.swift:12")
        #expect(first["sourceFile"] as? String == "Sources/App/Shop/Shop.swift")
        #expect(first["sourceLine"] as? Int == 12)
        #expect((first["stack"] as? [String])?.count == 3)  // whole, not folded
    }

    @Test func theCommittedKnownBadTracePointsAtTheSampleApp() throws {
        let root = SourceRootTests.packageRoot
        let (status, out, _) = try Self.run(
            ["validate", "--format", "github", "traces/invalid/double-refresh.jsonl"], in: root)
        #expect(status == 1)
        #expect(out.hasPrefix("::error file=Sources/SampleApp/Shop/Shop.swift,line="), "\(out)")
        #expect(out.contains("(trace traces/invalid/double-refresh.jsonl:7)%0Acall stack: CatalogStore.toLoading"))
    }

    /// Issue 36: `log --problems` says its message's call stack "shows the code that sent it":
    /// it prints it, folded as `validate`'s text format folds it, under the message.
    @Test func logProblemsPrintsTheFoldedCallStackAsValidateDoes() throws {
        let root = SourceRootTests.packageRoot
        let (_, log, err) = try Self.run(["log", "--problems", "traces/invalid/double-refresh.jsonl"], in: root)
        let (_, validate, _) = try Self.run(["validate", "traces/invalid/double-refresh.jsonl"], in: root)
        let note = try #require(
            validate.split(separator: "\n").first { $0.contains(".jsonl:7: note: call stack: ") }, "\(validate)")
        let stack = note[note.range(of: "note: ")!.upperBound...]
        #expect(stack.hasPrefix("call stack: CatalogStore.toLoading(file:line:) (CatalogStore.swift:34) ← "))
        #expect(stack.contains("← Shop.perform(_:) (Shop.swift:97) ←"), "\(stack)")
        let lines = log.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let message = try #require(
            lines.firstIndex { $0.hasPrefix("        error: illegal transition loading → loading") }, "\(log)\(err)")
        #expect(lines[message + 1] == "        " + stack, "\(log)")
        // Only events whose line recorded a stack get one.
        #expect(lines.filter { $0.contains("call stack:") }.count == 1, "\(log)")
    }

    @Test func junitHasTheCallStackInTheFailuresText() throws {
        let root = SourceRootTests.packageRoot
        let (status, out, _) = try Self.run(
            ["validate", "--format", "junit", "traces/invalid/double-refresh.jsonl"], in: root)
        #expect(status == 1)
        let xml = XMLStructure(Data(out.utf8))
        #expect(xml.error == nil, "\(out)")
        let failure = try #require(xml.texts(of: "failure").first, "\(out)")
        // The problem's line, then line 7's stack a frame per line, the system's frame folded.
        #expect(failure.hasPrefix("traces/invalid/double-refresh.jsonl:7: error: illegal transition"), "\(failure)")
        #expect(
            failure.contains(
                """
                [illegal]
                call stack:
                  CatalogStore.toLoading(file:line:) (CatalogStore.swift:34)
                  CatalogStore.refresh(file:line:) (CatalogStore.swift:26)
                  Shop.perform(_:) (Shop.swift:97)
                """), "\(failure)")
        #expect(failure.contains("\n  … 1 other frame\n"), "\(failure)")
        #expect(!failure.contains("Collection.map"))
    }

    @Test func junitEscapesTheCallStackAndFoldsItToTheAppsFrames() throws {
        let folder = try Self.repository(source: "App/Shop.swift:12")
        try folder.write("Sources/App/A&B.swift", ["struct Box<T> {}"])
        let stack =
            #"["Box<Int>.put(_:) (A&B.swift:3)","Collection.map<A, B>(_:)","Swift.Array.forEach(_:)","Shop.perform(_:) (Shop.swift:12)"]"#
        try folder.write(
            "traces/run.jsonl",
            [
                V.header, V.register(1),
                #"{"type":"transition","seq":2,"store":"CatalogStore","action":"toLoading","from":"idle","to":"loaded","changed":true,"state":{},"stack":\#(stack)}"#,
            ])
        let (status, out, _) = try Self.run(["validate", "--format", "junit", "traces/run.jsonl"], in: folder.path)
        #expect(status == 1)
        #expect(out.contains("  Box&lt;Int&gt;.put(_:) (A&amp;B.swift:3)\n"), "\(out)")
        let xml = XMLStructure(Data(out.utf8))
        #expect(xml.error == nil, "\(out)")
        let failure = try #require(xml.texts(of: "failure").first)
        #expect(
            failure.hasSuffix(
                "\ncall stack:\n  Box<Int>.put(_:) (A&B.swift:3)\n  … 2 other frames\n  Shop.perform(_:) (Shop.swift:12)"
            ),
            "\(failure)")
    }

    @Test func coverageWarningsSitOnTheMachinesDeclaration() throws {
        let folder = try Self.repository(source: "App/Shop.swift:12")
        let (_, out, _) = try Self.run(["coverage", "--format", "github", "traces/run.jsonl"], in: folder.path)
        let warnings = out.split(separator: "\n").filter { $0.hasPrefix("::warning") }
        #expect(!warnings.isEmpty)
        for warning in warnings {
            #expect(warning.hasPrefix("::warning file=Sources/App/CatalogState.swift,line=2,title="), "\(warning)")
        }
        // Nowhere to be found: no file.
        let empty = try V.Folder()
        let elsewhere = try Self.run(
            ["coverage", "--format", "github", "--source-root", empty.path, folder.path + "/traces/run.jsonl"], in: "/")
        #expect(elsewhere.out.contains("::warning title="), "\(elsewhere.out)")
    }

    @Test func aSourceRootThatIsNotAFolderIsAUsageError() throws {
        let folder = try Self.repository(source: "App/Shop.swift:12")
        let (status, _, err) = try Self.run(
            ["validate", "--format", "github", "--source-root", "nowhere", "traces/run.jsonl"], in: folder.path)
        #expect(status == 2)
        #expect(err.contains("--source-root nowhere: not a folder"), "\(err)")
        let help = try Self.run(["validate", "--help"], in: folder.path).out
        #expect(help.contains("--source-root DIR"))
        #expect(try Self.run(["coverage", "--help"], in: folder.path).out.contains("--source-root DIR"))
    }

    @Test func theReportCarriesTheFoldedStackForThePageToShow() throws {
        let folder = try Self.repository(source: "App/Shop.swift:12")
        let (status, _, err) = try Self.run(["report", "traces/run.jsonl", "-o", "report.html"], in: folder.path)
        #expect(status == 1 || status == 0, "\(err)")
        let html = try String(contentsOfFile: folder.path + "/report.html", encoding: .utf8)
        // The event's details line, which the page's script shows under "call stack".
        #expect(
            html.contains(
                #""stack":["CatalogStore.toLoading() (CatalogStore.swift:34)","… 1 other frame","Shop.perform(_:) (Shop.swift:12)"]"#
            ))
        #expect(html.contains("fact(list, 'call stack', frames)"))
    }

    @Test func whyAndStepShowTheStackThatSentTheAction() throws {
        let folder = try Self.repository(source: "App/Shop.swift:12")
        let why = try Self.run(["why", "traces/run.jsonl", "2"], in: folder.path).out
        #expect(why.contains("call stack:\n"), "\(why)")
        #expect(why.contains("Shop.perform(_:) (Shop.swift:12)"))
        #expect(!why.contains("it has no cause"), "\(why)")
        #expect(why.contains("no other event caused it; the app sent it from the call stack above"))
        let whyJSON = try Self.run(["why", "traces/run.jsonl", "2", "--format", "json"], in: folder.path).out
        #expect(whyJSON.contains(#""stack":["CatalogStore.toLoading() (CatalogStore.swift:34)""#), "\(whyJSON)")
        let step = try ChildProcess.run(
            "/bin/bash", ["-c", #"cd "$R" && printf 'goto 2\n' | "$I" step traces/run.jsonl"#],
            adding: ["I": InspectorRun.executable.path, "R": folder.path, "NO_COLOR": "1"], timeout: 60)
        #expect(
            step.outputText.contains(
                "  call stack:\n    CatalogStore.toLoading() (CatalogStore.swift:34)\n    … 1 other frame\n    Shop.perform(_:) (Shop.swift:12)"
            ), "\(step.outputText)")
    }
}
