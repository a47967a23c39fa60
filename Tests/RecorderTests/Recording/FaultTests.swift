import Foundation
import Recorder
import TestSupport
import Testing

@Suite struct FaultTests {
    /// A file-size limit (`ulimit -f`) stands in for a full disk: the app keeps working, the
    /// failure is reported once, and the file keeps the lines written before it.
    @Test func aFullDiskStopsRecordingButNotTheApp() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("full.jsonl")
        let run = try ChildProcess.run(
            "/bin/bash", ["-c", "ulimit -f 4; exec \"$0\" \"$1\" 300", Probe.executable.path, path])
        let said = run.outputText
        let complained = run.errorText

        #expect(run.termination == .exited(0), "\(complained)")
        #expect(said.contains("sent 300"))  // every action ran
        let reports = complained.split(separator: "\n").filter { $0.hasPrefix("rewind: recording stopped at seq") }
        #expect(reports.count == 1, "stderr: \(complained)")
        #expect(complained.contains("File too large") || complained.contains("cap the trace"))
        // The probe leaves SIGXFSZ at its default action, which would have killed it.
        #expect(said.contains("SIGXFSZ default"), "\(said)")

        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.count <= 4096)
        // Whole lines only: the line that would pass the limit is refused before it is written.
        #expect(data.last == UInt8(ascii: "\n"))
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        let events = try jsonObjects(Array(lines.dropFirst()))
        #expect(events.count > 3)
        #expect(events.map { $0["seq"] as? Int } == Array(1...events.count).map { $0 })
    }

    /// `replacing` removes a file, never a pipe another process reads, a device (`/dev/null`, as
    /// root) or a folder: each is a clear error, and stays what it was.
    @Test(arguments: ["pipe", "folder"], [false, true])
    func aPathThatIsNotAFileIsNeverReplaced(kind: String, replacing: Bool) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("not-a-file")
        if kind == "pipe" {
            #expect(mkfifo(path, 0o600) == 0)
        } else {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        do {
            _ = try TraceRecorder(path: path, replacing: replacing)
            Issue.record("expected an error")
        } catch let error as TraceFileError {
            #expect(error.code == TraceFileError.notAFile)
            #expect(error.description.contains("not a file"), "\(error)")
            #expect(error.description.hasPrefix(path))
        }
        var status = stat()
        #expect(lstat(path, &status) == 0)
        #expect(status.st_mode & S_IFMT == (kind == "pipe" ? S_IFIFO : S_IFDIR))
    }

    @Test func aFolderThatCannotBeWrittenIsAClearError() {
        do {
            _ = try TraceRecorder(path: "/no-such-folder-\(UUID().uuidString)/run.jsonl")
            Issue.record("expected an error")
        } catch let error as TraceFileError {
            #expect(error.description.contains("cannot create the trace"))
            #expect(error.description.contains("No such file or directory"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
