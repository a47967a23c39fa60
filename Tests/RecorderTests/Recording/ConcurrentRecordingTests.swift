import Foundation
import Recorder
import TestSupport
import Testing

@Suite struct ConcurrentRecordingTests {
    /// 8 threads × 10,000 actions on stores that share one recorder: every action is in the file,
    /// `seq` runs 1…N with no gap or repeat, and every line is a complete JSON object.
    @Test func eightThreadsShareOneRecorderWithoutGapsOrTornLines() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("threads.jsonl")
        let recorder = try TraceRecorder(path: path, machines: ["CatalogStore": CatalogState.self])
        let threads = 8
        let actions = 10_000
        let stores = (0..<threads).map { Store(initialState: Counter(), name: "Counter\($0)", recorder: recorder) }
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            let store = stores[index]
            for _ in 0..<actions { store.send("increment") { $0.value += 1 } }
        }
        let lines = try traceLines(at: path)
        #expect(lines.count == 1 + threads + threads * actions)
        let events = try jsonObjects(Array(lines.dropFirst()))
        #expect(events.map { $0["seq"] as? Int } == Array(1...(threads + threads * actions)))
        #expect(events.filter { $0["type"] as? String == "transition" }.count == threads * actions)
        for (index, store) in stores.enumerated() {
            #expect(store.state.value == actions)
            // Per store, the recorded values count up one by one: the seq order is the state order.
            let values = events.filter { $0["store"] as? String == "Counter\(index)" }
                .compactMap { ($0["state"] as? [String: Int])?["value"] }
            #expect(values == Array(0...actions))
        }
    }

    /// From several threads at once, each `send` returns only once its own line is in the file
    /// (what a process killed right after it keeps), whoever writes it: a recorder that writes
    /// concurrent lines together (group commit, issue 21) must keep this.
    @Test func eachSendReturnsWithItsOwnLineInTheFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("threads.jsonl")
        let recorder = try TraceRecorder(path: path)
        let threads = 4
        let actions = 150
        let stores = (0..<threads).map { Store(initialState: Counter(), name: "Counter\($0)", recorder: recorder) }
        let missing = MissingLines()
        let done = DispatchGroup()
        for (index, store) in stores.enumerated() {
            done.enter()
            Thread {
                for step in 1...actions {
                    store.send("increment") { $0.value += 1 }
                    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
                    let expected = "\"store\":\"Counter\(index)\",\"action\":\"increment\""
                    let found = text.split(separator: "\n").contains {
                        $0.contains(expected) && $0.contains("\"state\":{\"value\":\(step)}")
                    }
                    if !found { missing.add("Counter\(index) step \(step)") }
                }
                done.leave()
            }.start()
        }
        done.wait()
        #expect(missing.all.isEmpty)
        let events = try jsonObjects(Array(try traceLines(at: path).dropFirst()))
        #expect(events.map { $0["seq"] as? Int } == Array(1...(threads + threads * actions)))
    }
}

/// The actions whose line a thread did not find in the file, from any thread (an `NSLock`, which
/// Thread Sanitizer sees).
private final class MissingLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
