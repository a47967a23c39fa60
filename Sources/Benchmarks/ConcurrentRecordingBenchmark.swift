import Foundation
import Recorder

/// Recording from many threads: 8 threads, each sending actions to a store of its own, all
/// stores sharing one recorder (one file), against one thread sending the same number of actions
/// to one store. Each `send` returns only after its line is written, as always.
enum ConcurrentRecordingBenchmark {
    static func run(into table: inout ResultTable, folder: String) throws {
        let threads = 8
        let perThread = 5_000
        let total = threads * perThread
        let initial = RecordingBenchmark.state(items: 3)
        print("Recording from \(threads) threads on \(threads) stores, one recorder (~500 B states)")
        let singlePath = "\(folder)/record-one-thread.jsonl"
        let single = Store(
            initialState: initial, name: "ShopStore", recorder: try TraceRecorder(path: singlePath, replacing: true))
        let sharedPath = "\(folder)/record-threads.jsonl"
        let shared = try TraceRecorder(path: sharedPath, replacing: true)
        let stores = (0..<threads).map { Store(initialState: initial, name: "ShopStore\($0)", recorder: shared) }
        let measured = try Measurement.interleaved([
            (total, { for _ in 0..<total { single.send("bump") { $0.version &+= 1 } } }),
            (
                total,
                {
                    let done = DispatchGroup()
                    for store in stores {
                        done.enter()
                        Thread {
                            for _ in 0..<perThread { store.send("bump") { $0.version &+= 1 } }
                            done.leave()
                        }.start()
                    }
                    done.wait()
                }
            ),
        ])
        let (one, many) = (1 / measured[0].median, 1 / measured[1].median)
        let ratio = many / one
        table.add(
            "record from \(threads) threads on \(threads) stores (one recorder), actions/s",
            figure: "\(Int(many / 1000))k/s", baseline: "1 thread \(Int(one / 1000))k/s",
            ratio: "\(formatRatio(ratio)) as many", target: "≥ 1.5×", met: ratio >= 1.5)
        for path in [singlePath, sharedPath] { try? FileManager.default.removeItem(atPath: path) }
    }
}
