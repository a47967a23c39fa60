import Dispatch
import Foundation
import Recorder
@_spi(RewindInternals) import RewindSupport
import TimeTravel
import TraceReader

/// Time travel into a running app: how long from the inspector's request (what a key press in
/// `step --attach` sends) to the app's screen drawn at the restored step, and what an open
/// control channel costs the recorder.
enum TimeTravelBenchmark {
    /// The app's stores: the recording benchmark's ~500 B state, three times, and a counter.
    struct Counter: Codable, Equatable, Sendable {
        var value = 0
    }

    static func run(into table: inout ResultTable, folder: String) throws {
        try measureRestore(into: &table, folder: folder, events: 1_000)
        try measureRestore(into: &table, folder: folder, events: 100_000)
        try measureRecording(into: &table, folder: folder)
    }

    /// The app: a recorder, its stores, a channel whose restores run on the app's own queue and
    /// end by drawing its screen (the stores' states as text).
    final class App: Sendable {
        let tracePath: String
        let shops: [Store<RecordingBenchmark.ShopState>]
        let counter: Store<Counter>
        let queue = DispatchQueue(label: "the app's main thread")
        /// When the last screen was drawn, and the semaphore the benchmark waits on.
        let drawn = Lock<UInt64>(0)
        let screenDrawn = DispatchSemaphore(value: 0)

        init(folder: String, events: Int) throws {
            tracePath = "\(folder)/time-travel-\(events).jsonl"
            let recorder = try TraceRecorder(path: tracePath, replacing: true, app: "Bench")
            shops = (0..<3).map { index in
                Store(
                    initialState: RecordingBenchmark.state(items: 3), name: "Shop\(index)", recorder: recorder)
            }
            counter = Store(initialState: Counter(), name: "Counter", recorder: recorder)
            for event in 0..<events - 4 {
                if event % 4 == 3 {
                    counter.send("tick") { $0.value += 1 }
                } else {
                    shops[event % 4].send("bump") { $0.version &+= 1 }
                }
            }
        }

        var restorer: Restorer {
            Restorer(shops.map { RestorableStore($0) } + [RestorableStore(counter)])
        }

        /// What the app does after a restore: draw its screen.
        func draw() {
            var screen = ""
            for shop in shops { screen += String(describing: shop.state) }
            screen += String(describing: counter.state)
            precondition(!screen.isEmpty)
            drawn.withLock { $0 = monotonicNanoseconds() }
            screenDrawn.signal()
        }
    }

    static func measureRestore(into table: inout ResultTable, folder: String, events: Int) throws {
        let app = try App(folder: folder, events: events)
        let channel = try ControlChannel(
            socketPath: "\(folder)/tt-\(events).sock", tracePath: app.tracePath, restorer: app.restorer,
            perform: { work in app.queue.async(execute: work) }, onRestore: { _ in app.draw() })
        defer { channel.close() }
        let client = try ControlClient(socketPath: channel.socketPath)
        let trace = try TraceFile(path: app.tracePath)
        print("Time travel, a trace of \(trace.eventCount) events (\(formatBytes(fileSize(app.tracePath))))")
        // Steps back and forth near the end, as a person pressing ← and →: each sample is one
        // press, from the request leaving the inspector to the app's screen drawn.
        var step = trace.lastStep - 10
        var samples: [Double] = []
        let presses = events > 10_000 ? 25 : 105
        for press in 0..<presses {
            step = step == trace.lastStep - 10 ? trace.lastStep - 11 : trace.lastStep - 10
            let pressed = monotonicNanoseconds()
            guard case .restored = try client.request(.restore(step: step)) else {
                throw BenchmarkError("the restore failed")
            }
            app.screenDrawn.wait()
            let drawn = app.drawn.withLock { $0 }
            if press >= 5 { samples.append(Double(drawn &- pressed) / 1e9) }  // after a warm-up
        }
        let measured = Measurement(samples: samples)
        table.add(
            "attach: from the inspector's request (a key) to the app's screen at the step, \(events) events",
            figure: formatSeconds(measured.median), baseline: "-", ratio: "-",
            target: events <= 1_000 ? "< 100 ms" : "(for scale)",
            met: events <= 1_000 ? measured.median < 0.1 : nil)
        try? FileManager.default.removeItem(atPath: app.tracePath)
    }

    /// One action with the control channel open and an inspector attached (idle), against the
    /// same action without a channel, run in turns.
    static func measureRecording(into table: inout ResultTable, folder: String) throws {
        let operations = 20_000
        let plainPath = "\(folder)/tt-plain.jsonl"
        let plain = Store(
            initialState: RecordingBenchmark.state(items: 3), name: "ShopStore",
            recorder: try TraceRecorder(path: plainPath, replacing: true))
        let openPath = "\(folder)/tt-open.jsonl"
        let open = Store(
            initialState: RecordingBenchmark.state(items: 3), name: "ShopStore",
            recorder: try TraceRecorder(path: openPath, replacing: true))
        let channel = try ControlChannel(
            socketPath: "\(folder)/tt-open.sock", tracePath: openPath, restorer: Restorer([RestorableStore(open)]))
        defer { channel.close() }
        let client = try ControlClient(socketPath: channel.socketPath)
        // One restore, so that the store has been through one (and the task-local cause is in use).
        _ = try client.request(.restore(step: 1))
        print("Recording with the control channel open and an inspector attached")
        let measured = try Measurement.interleaved([
            (operations, { for _ in 0..<operations { plain.send("bump") { $0.version &+= 1 } } }),
            (operations, { for _ in 0..<operations { open.send("bump") { $0.version &+= 1 } } }),
        ])
        let ratio = measured[1].median / measured[0].median
        table.add(
            "record one action, ~500 B state, control channel open and an inspector attached",
            figure: formatSeconds(measured[1].median), baseline: "no channel \(formatSeconds(measured[0].median))",
            ratio: formatRatio(ratio), target: "≤ 1.1×", met: ratio <= 1.1)
        for path in [plainPath, openPath] { try? FileManager.default.removeItem(atPath: path) }
    }

    private static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
