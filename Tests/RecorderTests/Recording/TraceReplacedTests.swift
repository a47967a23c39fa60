import Foundation
import Recorder
@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing

/// Two apps started with the same trace path (issue 34, item 6): the second replaces the file,
/// and the first writes on into a file no one can open by that name. The first app's recorder
/// notices, within about a second of a write, and says so once through `onError`.
@Suite struct TraceReplacedTests {
    @Test func aTraceFileReplacedByAnotherAppIsReportedOnce() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("run.jsonl")
        let failures = Lock<[RecordingFailure]>([])
        let recorder = try TraceRecorder(path: path, onError: { failure in failures.withLock { $0.append(failure) } })
        let store = Store(initialState: 0, name: "Counter", recorder: recorder)
        store.send("bump") { $0 += 1 }
        #expect(failures.withLock { $0.isEmpty })

        // A second app with the same trace path: its file takes the path.
        let other = try TraceRecorder(path: folder.path("other.jsonl"), app: "Other")
        _ = other
        #expect(rename(folder.path("other.jsonl"), path) == 0)
        let deadline = Date().addingTimeInterval(5)
        while failures.withLock({ $0.isEmpty }) && Date() < deadline {
            store.send("bump") { $0 += 1 }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let found = failures.withLock { $0 }
        #expect(found.map(\.kind) == [.traceReplaced])
        #expect(found.first?.message.contains("the trace file at \(path) was replaced or removed") == true)
        #expect(found.first?.message.contains("another file") == true)
        // Told once, however long the app goes on; recording goes on too.
        Thread.sleep(forTimeInterval: 1.1)
        store.send("bump") { $0 += 1 }
        #expect(failures.withLock { $0.count } == 1)
    }

    @Test func aTraceFileLeftInPlaceIsNeverReported() throws {
        let folder = try TemporaryFolder()
        let failures = Lock<[RecordingFailure]>([])
        let recorder = try TraceRecorder(
            path: folder.path("run.jsonl"), onError: { failure in failures.withLock { $0.append(failure) } })
        let store = Store(initialState: 0, name: "Counter", recorder: recorder)
        for _ in 0..<15 {
            store.send("bump") { $0 += 1 }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(failures.withLock { $0.isEmpty })
    }
}
