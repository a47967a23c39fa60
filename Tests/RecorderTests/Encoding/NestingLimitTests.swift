import Foundation
import Recorder
import TestSupport
import Testing
import TraceReader

/// The recorder writes only what a reader reads (issue 34, item 3): a value nested deeper than
/// 1,020 levels is written as null and reported through `onError`, and the trace validates;
/// before, the line was written as is and every reader called it malformed.
@Suite struct NestingLimitTests {
    /// A chain of links: each link is two levels of JSON (`{"link":{"_0":…}}`), its end two more
    /// (`{"end":{}}`).
    indirect enum Chain: Codable, Equatable, Sendable {
        case end
        case link(Chain)

        init(links: Int) {
            var chain = Chain.end
            for _ in 0..<links { chain = .link(chain) }
            self = chain
        }
    }

    /// The failures reported, behind a lock: `onError` runs on the recording thread.
    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var failures: [RecordingFailure] = []
        func append(_ failure: RecordingFailure) { lock.withLock { failures.append(failure) } }
        var all: [RecordingFailure] { lock.withLock { failures } }
    }

    /// Runs `body` on a thread with a stack large enough for the deep chain's `encode(to:)`
    /// and `==` (the test's own recursion, not the recorder's), and waits for it.
    static func onLargeStack(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = 256 << 20
        thread.start()
        done.wait()
    }

    @Test func aStateNestedTooDeeplyIsReportedAndTheTraceStillValidates() throws {
        let sink = MemorySink()
        let failures = Failures()
        let recorder = try TraceRecorder(sink: sink, onError: { failures.append($0) })
        Self.onLargeStack {
            let store = Store(initialState: Chain(links: 3), name: "Chain", recorder: recorder)
            // 509 links: 1,020 levels, the most written; 510: refused, and so is 1,500 levels.
            store.send("deepest") { $0 = Chain(links: 509) }
            store.send("deeper") { $0 = Chain(links: 510) }
            store.send("deep") { $0 = Chain(links: 749) }
            store.send("shallow") { $0 = Chain(links: 2) }
        }
        let report = TraceValidator().validate(bytes: sink.data)
        #expect(report.problems.map(\.message) == [])
        // Reported once per kind (the recorder does not repeat a failure).
        #expect(failures.all.map(\.kind) == [.encodingFailed])
        #expect(failures.all.first?.message.contains("nested deeper than 1020 levels") == true, "\(failures.all)")
        let trace = try TraceFile(bytes: sink.data)
        #expect(trace.lastStep == 5)
        var deepest = try #require(trace.state(of: "Chain", atStep: 2))
        var levels = 0
        while case .object(let object) = deepest {
            levels += 1
            guard let inner = object["link"] ?? object["_0"] ?? object["end"] else { break }
            deepest = inner
        }
        #expect(levels == 1_020)
        #expect(trace.state(of: "Chain", atStep: 3) == .null)
        #expect(trace.state(of: "Chain", atStep: 4) == .null)
        #expect(try trace.state(of: "Chain", atStep: 5, as: Chain.self) == Chain(links: 2))
    }
}
