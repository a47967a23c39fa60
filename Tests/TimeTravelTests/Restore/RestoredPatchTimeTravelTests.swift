import Foundation
import Recorder
import RecorderPatches
import TestSupport
import Testing
import TraceReader

@testable import TimeTravel

/// Version 2 after a restore made by time travel itself (issue 34, item 1; README's Guarantees
/// row "After a restore"): through the `Restorer` and through the control channel that
/// `inspector step --attach` drives, not only `Store.restore(to:)`. The first patch after each
/// restore must be written against the restored state, or the trace shows states the app never
/// had (through the channel, the first action after a restore was `bad-patch`).
@Suite struct RestoredPatchTimeTravelTests {
    struct Panel: Codable, Equatable, Sendable {
        var armed = false
        var count = 0
        var levels: [Int] = Array(0..<200)
    }

    /// Actions, restores through a `Restorer` and restores and returns to the present through a
    /// `ControlChannel` (a real socket and `ControlClient`), interleaved at random (seeded, so
    /// that a failure replays): the trace validates, and every step of it, rebuilt from its
    /// patches as `TraceFile` reads it, is the app's own state at that step.
    @Test(arguments: [1, 7, 34] as [UInt64])
    func everyStepIsTheAppsStateWithTimeTravelInterleaved(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let folder = try TemporaryFolder()
        let path = folder.path("panel.jsonl")
        let store = Store(
            initialState: Panel(), name: "Panel",
            recorder: try TraceRecorder(path: path, patches: .automatic(smallestState: 64)))
        let restorer = Restorer([RestorableStore(store)])
        let channel = try ControlChannel(tracePath: path, restorer: restorer)
        defer { channel.close() }
        let client = try ControlClient(socketPath: channel.socketPath, timeoutMilliseconds: 5_000)
        // expected[N - 1]: the app's state at step N (step 1 is the register event).
        var expected = [store.state]
        var restores = (restorer: 0, channel: 0)
        for _ in 0..<120 {
            switch Int.random(in: 0..<12, using: &random) {
            case 0, 1:
                let step = Int.random(in: 1...expected.count, using: &random)
                let report = try restorer.restore(from: TraceFile(path: path), atStep: step)
                try #require(report.restored == ["Panel"])
                try #require(store.state == expected[step - 1], "Restorer to step \(step)")
                restores.restorer += 1
            case 2, 3:
                let step = Int.random(in: 1...expected.count, using: &random)
                let reply = try client.request(.restore(step: step))
                try #require(
                    reply == .restored(step: step, present: false, stores: ["Panel"], absent: [], kept: []),
                    "channel to step \(step)")
                try #require(store.state == expected[step - 1], "channel to step \(step)")
                restores.channel += 1
            case 4:
                // Back to the present: a restore event unless the app is already there.
                guard case .restored(_, true, let stores, _, _) = try client.request(.present) else {
                    Issue.record("no present reply")
                    return
                }
                if stores.isEmpty { continue }
                restores.channel += 1
            case 5:
                store.send("toggle") { $0.armed.toggle() }
            case 6:
                let level = Int.random(in: 0..<200, using: &random)
                store.send("remove") { $0.levels.remove(at: level % $0.levels.count) }
            case 7:
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
        #expect(restores.restorer > 5 && restores.channel > 5, "the test is about restores: \(restores)")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let patches = String(decoding: bytes, as: UTF8.self).components(separatedBy: #""patch":"#).count - 1
        #expect(patches > 30, "the test is about patches: most transitions must carry one")
        #expect(TraceValidator().validate(bytes: bytes).problems.map(\.message) == [])
        let trace = try TraceFile(path: path)
        #expect(trace.header.version == 2)
        try #require(trace.lastStep == expected.count)
        for (offset, state) in expected.enumerated() {
            let step = offset + 1
            let read = try trace.state(of: "Panel", atStep: step, as: Panel.self)
            try #require(read == state, "step \(step) of \(expected.count)")
        }
    }
}
