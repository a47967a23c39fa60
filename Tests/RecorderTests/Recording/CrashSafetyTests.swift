import Foundation
import TestSupport
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
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("TraceProbe").path),
            folder.path != "/"
        {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("TraceProbe")
    }

    let process: ChildProcess

    init(arguments: [String]) throws {
        process = try ChildProcess(Self.executable.path, arguments, output: .pipe)
    }

    /// Reads the child's output until it prints `line` or ends (at most two minutes); returns
    /// everything read.
    func wait(for line: String) -> String {
        process.readOutput(until: line)
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
        probe.process.send(SIGKILL)
        #expect(probe.process.wait() == .signalled(SIGKILL))

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
        // It died of its trap: a signal, or under a sanitizer that catches the signal, its exit code.
        let ending = probe.process.wait()
        #expect(ending != .exited(0) && ending != .timedOut, "\(ending)")
        let events = try jsonObjects(Array(try traceLines(at: path).dropFirst()))
        let last = try #require(events.last)
        #expect(last["action"] as? String == "stayOn")
        #expect(last["from"] as? String == "on")
        #expect(last["to"] as? String == "on")
        #expect(last["changed"] as? Bool == false)
    }
}
