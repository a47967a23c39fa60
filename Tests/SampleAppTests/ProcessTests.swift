import Foundation
import TestSupport
import Testing

@testable import SampleApp

/// Runs the built `sample-app` as a child process: the crash must really kill it.
@Suite struct ProcessTests {
    static var executable: URL? {
        // The test bundle sits in the build folder, next to the products it depends on.
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        while folder.path != "/" {
            for name in ["sample-app", "SampleApp"] {
                let candidate = folder.appendingPathComponent(name)
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), !isFolder.boolValue {
                    return candidate
                }
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    func run(_ arguments: [String]) throws -> ChildProcess.Outcome {
        let executable: URL = try #require(Self.executable, "sample-app is not built next to the tests")
        return try ChildProcess.run(executable.path, arguments)
    }

    @Test func theCrashScenarioDiesAndItsTraceKeepsEveryEventUpToTheIllegalOne() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("crash.jsonl")
        let crash = try run(["record", "crash", "-o", path])
        #expect(crash.termination.signal != nil, "\(crash.termination)")

        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        let onDisk = try text.split(separator: "\n").map { try TraceText.object(String($0)) }
        let inMemory = try Recording(Scenario.crash).objects
        let illegal = try #require(try TraceText.illegalTransitions(inMemory).first)
        let upToIllegal = inMemory.prefix { ($0["seq"]?.intValue ?? 0) <= illegal }
        #expect(TraceText.comparable(onDisk) == TraceText.comparable(Array(upToIllegal)))
        #expect(onDisk.last?["seq"]?.intValue == illegal)
    }

    @Test func recordWithoutAFileWritesTheTraceToStandardOutput() throws {
        let recording = try run(["record", "happy-path"])
        let data = recording.output
        #expect(recording.termination == .exited(0), "\(recording.errorText)")
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        let written = TraceText.comparable(try lines.map(TraceText.object))
        #expect(written == TraceText.comparable(try Recording(Scenario.happyPath).objects))
    }
}
