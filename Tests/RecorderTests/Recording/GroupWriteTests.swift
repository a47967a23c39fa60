import Foundation
import Recorder
import TestSupport
import Testing

/// Issue 21: lines that stores on other threads number while a write is under way are written
/// together by the next writer, in `seq` order, and no `send` returns before its own line is
/// written.
@Suite struct GroupWriteTests {
    @Test func linesQueuedDuringAWriteAreWrittenTogetherInSeqOrder() throws {
        let sink = GateSink()
        let recorder = try TraceRecorder(sink: sink)
        let stores = (0..<4).map { Store(initialState: Counter(), name: "Counter\($0)", recorder: recorder) }
        sink.close()  // the next write waits until `open`
        let returned = ReturnedSends()
        let done = DispatchGroup()
        func send(_ index: Int) {
            done.enter()
            Thread {
                stores[index].send("increment") { $0.value += 1 }
                returned.add()
                done.leave()
            }.start()
        }
        send(0)
        #expect(waitUntil { sink.isWaiting })
        for index in 1..<4 { send(index) }
        // The three lines are numbered (after the header's 4 registers and the first line)...
        #expect(waitUntil { recorder.numberedEvents == 8 })
        // ...and their sends wait for them to be written.
        #expect(returned.count == 0)
        sink.open()
        done.wait()
        #expect(returned.count == 4)
        let writes = sink.writesAfterClosing.map { try? jsonObjects($0.split(separator: "\n").map(String.init)) }
        #expect(writes.map { $0?.map { $0["seq"] as? Int } } == [[5], [6, 7, 8]])
        #expect(sink.writesAfterClosing.allSatisfy { $0.hasSuffix("\n") })
    }
}

/// Polls `condition` until it holds, for at most 10 seconds.
private func waitUntil(_ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(10)
    while !condition() {
        if Date() > deadline { return false }
        usleep(1000)
    }
    return true
}

/// A sink that takes groups of lines and, once closed, holds its next write until opened.
private final class GateSink: LineGroupSink, @unchecked Sendable {
    // @unchecked: every field is guarded by `condition` (an NSCondition, which Thread Sanitizer sees).
    private let condition = NSCondition()
    private var closed = false
    private var waiting = false
    private var writes: [String] = []
    private var writesBeforeClosing = 0

    func close() {
        condition.withLock {
            closed = true
            writesBeforeClosing = writes.count
        }
    }

    func open() {
        condition.withLock {
            closed = false
            condition.broadcast()
        }
    }

    var isWaiting: Bool { condition.withLock { waiting } }
    var writesAfterClosing: [String] { condition.withLock { Array(writes.dropFirst(writesBeforeClosing)) } }

    func write(_ line: UnsafeRawBufferPointer) throws {
        condition.withLock {
            while closed {
                waiting = true
                condition.wait()
            }
            waiting = false
            writes.append(String(decoding: line, as: UTF8.self))
        }
    }
}

/// How many sends returned, from any thread.
private final class ReturnedSends: @unchecked Sendable {
    // @unchecked: guarded by an NSLock.
    private let lock = NSLock()
    private var returned = 0
    func add() { lock.withLock { returned += 1 } }
    var count: Int { lock.withLock { returned } }
}
