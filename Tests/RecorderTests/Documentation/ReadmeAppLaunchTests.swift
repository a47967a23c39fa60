import Foundation
import TestSupport
import Testing

/// README.md's "Where the trace goes": the code an app runs as it launches (`AppLaunch`, in the
/// `TraceProbe` child, where the app's Application Support folder can be a folder of the test's:
/// `XDG_DATA_HOME` on Linux) prints where it records, records there, and starts a new trace at
/// each launch; and the README shows that code as it is compiled.
@Suite struct ReadmeAppLaunchTests {
    @Test func theAppPrintsWhereItRecordsAndStartsANewTraceEachLaunch() throws {
        let folder = try TemporaryFolder()
        let support = folder.path("data/Application Support")  // not there yet: `create: true` makes it
        let tracePath = support + "/run.jsonl"
        for launch in 1...2 {
            let probe = try ChildProcess(
                Probe.executable.path, ["--app-launch"], adding: ["XDG_DATA_HOME": support], output: .pipe,
                errors: .pipe)
            let outcome = probe.communicate(timeout: 60)
            #expect(outcome.termination == .exited(0), "launch \(launch): \(outcome.outputText)\(outcome.errorText)")
            #expect(outcome.outputText == "Rewind records to \(tracePath)\n")
            // Replaced at each launch: the header, the store's register and the one action of
            // this launch, not the last launch's too.
            let objects = try jsonObjects(try traceLines(at: tracePath))
            #expect(objects.first?["app"] as? String == "Shop")
            #expect(objects.map { $0["action"] as? String } == [nil, nil, "launched"], "launch \(launch)")
        }
    }

    @Test func theReadmeShowsTheLaunchCode() throws {
        let source = try String(
            contentsOf: packageRoot.appendingPathComponent("Sources/TraceProbe/AppLaunch.swift"), encoding: .utf8)
        let examples = documentationExamples(in: source)
        #expect(examples.count == 1)
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for example in examples {
            #expect(example.contains("print(\"Rewind records to \\(tracePath)\")"))
            let shown = readme.contains("```swift\n\(example)```\n")
            #expect(shown, "README.md does not show this code of AppLaunch.swift as it is; copy it there:\n\(example)")
        }
    }
}
