import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Runs the `TraceProbe` child process, which records actions and prints `sent K` after each.
struct Probe {
    static var executable: URL {
        // The test bundle sits in the build folder, next to the products it depends on.
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = bundle.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("TraceProbe").path), folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("TraceProbe")
    }

    let process = Process()
    let output = Pipe()

    init(arguments: [String]) throws {
        process.executableURL = Self.executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Reads the child's output until it prints `line`; returns everything read.
    func wait(for line: String) -> String {
        var text = ""
        while !text.split(separator: "\n").contains(Substring(line)) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text
    }
}

@Suite struct CrashSafetyTests {
    @Test(arguments: [1, 7, 50])
    func aKilledProcessKeepsItsLastAction(after actions: Int) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("killed.jsonl")
        let probe = try Probe(arguments: [path, "1000", "--pause-after", String(actions)])
        let said = probe.wait(for: "sent \(actions)")
        #expect(said.contains("sent \(actions)"))
        kill(probe.process.processIdentifier, SIGKILL)
        probe.process.waitUntilExit()
        #expect(probe.process.terminationReason == .uncaughtSignal)

        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        let lines = try traceLines(at: path)
        #expect(lines.count == 2 + actions)  // header, register, one line per action
        let events = try jsonObjects(Array(lines.dropFirst()))
        #expect(events.last?["seq"] as? Int == actions + 1)
        #expect((events.last?["state"] as? [String: Any])?["switches"] as? Int == actions)
    }

    @Test func aStoreThatTrapsLeavesTheIllegalEventOnDisk() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("trapped.jsonl")
        let probe = try Probe(arguments: [path, "10", "--trap-at", "4"])
        _ = probe.wait(for: "never")
        probe.process.waitUntilExit()
        // It died of its trap: a signal, or under a sanitizer that catches the signal, its exit code.
        let died = probe.process.terminationReason == .uncaughtSignal || probe.process.terminationStatus != 0
        #expect(died)
        let events = try jsonObjects(Array(try traceLines(at: path).dropFirst()))
        let last = try #require(events.last)
        #expect(last["action"] as? String == "stayOn")
        #expect(last["from"] as? String == "on")
        #expect(last["to"] as? String == "on")
        #expect(last["changed"] as? Bool == false)
    }
}
