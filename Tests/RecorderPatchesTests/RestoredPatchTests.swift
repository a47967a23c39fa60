import Recorder
import TestSupport
import Testing
import TraceReader

@testable import RecorderPatches

/// A restore (time travel) in a version 2 trace: the patch after it is written against the
/// restored state, never against the state before the restore (issue 34, item 1).
@Suite struct RestoredPatchTests {
    struct Panel: Codable, Equatable, Sendable {
        var armed = false
        var count = 0
        var levels: [Int] = Array(0..<200)
    }

    /// The case: arm, bump, restore to step 1, arm again: the last step is armed.
    @Test func thePatchAfterARestoreStartsFromTheRestoredState() throws {
        let sink = MemorySink()
        let store = Store(
            initialState: Panel(), name: "Panel",
            recorder: try TraceRecorder(sink: sink, patches: .automatic(smallestState: 64)))
        var expected = [store.state]
        store.send("arm") { $0.armed = true }
        expected.append(store.state)
        store.send("bump") { $0.count = 1 }
        expected.append(store.state)
        _ = store.restore(to: expected[0], step: 1, trace: nil)
        expected.append(store.state)
        store.send("arm") { $0.armed = true }
        expected.append(store.state)
        try Self.expectEveryStep(of: sink.data, equals: expected)
    }

    /// Actions and restores interleaved at random (seeded, so a failure replays): every step of
    /// the trace, read back as a reader reads it, is the app's own state at that step.
    @Test(arguments: [1, 2, 3, 34] as [UInt64])
    func everyStepIsTheAppsStateWithRestoresInterleaved(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let sink = MemorySink()
        let store = Store(
            initialState: Panel(), name: "Panel",
            recorder: try TraceRecorder(sink: sink, patches: .automatic(smallestState: 64)))
        var expected = [store.state]
        for _ in 0..<300 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1:
                // Back to a state the app had at a random earlier step.
                let step = Int.random(in: 0..<expected.count, using: &random)
                _ = store.restore(to: expected[step], step: step + 1, trace: nil)
            case 2:
                store.send("toggle") { $0.armed.toggle() }
            case 3:
                let level = Int.random(in: 0..<200, using: &random)
                store.send("remove") { $0.levels.remove(at: level % $0.levels.count) }
            case 4:
                let value = Int.random(in: 0..<1_000, using: &random)
                store.send("append") { $0.levels.append(value) }
            default:
                let level = Int.random(in: 0..<150, using: &random)
                store.send("bump") {
                    $0.count += 1
                    $0.levels[level % $0.levels.count] += 1
                }
            }
            expected.append(store.state)
        }
        let rebuilt = try RebuiltStates(sink.data)
        #expect(rebuilt.patchCount > 100, "the test is about patches: most transitions must carry one")
        try Self.expectEveryStep(of: sink.data, equals: expected)
    }

    /// Checks that the trace validates and that its state at step N is `expected[N - 1]`.
    static func expectEveryStep(of bytes: [UInt8], equals expected: [Panel]) throws {
        #expect(TraceValidator().validate(bytes: bytes).problems.map(\.message) == [])
        let trace = try TraceFile(bytes: bytes)
        try #require(trace.lastStep == expected.count)
        for (offset, state) in expected.enumerated() {
            let step = offset + 1
            let read = try trace.state(of: "Panel", atStep: step, as: Panel.self)
            try #require(read == state, "step \(step) of \(expected.count)")
        }
    }
}
