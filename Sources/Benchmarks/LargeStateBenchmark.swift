import Foundation
import Recorder
import RecorderPatches

/// Recording a big state (issue 22): a store holding a list of 2,000, 20,000 or 200,000
/// documents, where each action changes one document; and, for scale, 5 and 100 documents
/// recorded in version 1 and in version 2.
///
/// - Time: the store's own work is already proportional to the list (the copy-on-write copy of
///   the list and the `==` that decides `changed`), so the same store without a recorder is the
///   baseline, and the recorder's added time per action is compared with it. Both run 10,000
///   actions, in turns of 1,000, and the mean is kept, so that the whole states that a version
///   2 trace writes now and then (every 1,025 actions here) are counted.
/// - Bytes: what the version 2 trace writes per action over those actions, whole states
///   included, against what a version 1 trace writes per action (measured over a few actions: a
///   version 1 trace of 10,000 actions on 200,000 documents would take 300 GB).
enum LargeStateBenchmark {
    struct Document: Codable, Equatable, Sendable {
        var id: Int
        var title: String
        var done: Bool
        var tags: [String]
        var updated: Double
    }

    struct Documents: Codable, Equatable, Sendable {
        var documents: [Document]
        var selected: Int
    }

    /// Counts the bytes of the lines it is given.
    final class CountingSink: TraceSink, @unchecked Sendable {  // written under the recorder's lock
        var bytes = 0
        func write(_ line: UnsafeRawBufferPointer) throws { bytes += line.count }
    }

    static func state(documents: Int) -> Documents {
        Documents(
            documents: (0..<documents).map { index in
                Document(
                    id: index, title: "Document \(index)", done: index % 3 == 0, tags: ["draft"],
                    updated: 1_700_000_000 + Double(index))
            },
            selected: 0)
    }

    /// Changes one document: the next one, each time.
    static func edit(_ store: Store<Documents>, _ step: inout Int, of count: Int) {
        step &+= 1
        let index = step % count
        store.send("edit") { $0.documents[index].updated += 1 }
    }

    static func run(into table: inout ResultTable) throws {
        // Small states first, for scale: what version 2 costs where whole states are cheap.
        for count in [5, 100] { try runSmall(count, into: &table) }
        for (count, bytesTarget) in [(2_000, 20), (20_000, 50), (200_000, 200)] {
            try runLarge(count, bytesTarget: bytesTarget, into: &table)
        }
        try runPlainValues(50_000, into: &table)
    }

    /// An item of plain values only: no string, no array, nothing with storage of its own.
    struct StockItem: Codable, Equatable, Sendable {
        var id: Int
        var stock: Int
    }

    struct Stock: Codable, Equatable, Sendable {
        var items: [StockItem]
    }

    /// Version 2 on an array of plain-value items (issue 33): no element has storage whose
    /// identity says it is unchanged, so every element's bytes are compared with the last
    /// state's, where the store itself only copies the array and compares it with `==`.
    static func runPlainValues(_ count: Int, into table: inout ResultTable) throws {
        let initial = Stock(items: (0..<count).map { StockItem(id: $0, stock: $0 % 50) })
        let stateBytes = try StateEncoder().encode(initial).count
        print("Recording, \(count) plain-value items (\(formatBytes(stateBytes)) of state), version 2")
        let bare = Store(initialState: initial, name: "Stock")
        let patched = Store(
            initialState: initial, name: "Stock",
            recorder: try TraceRecorder(sink: CountingSink(), patches: .automatic()))
        var (bareStep, patchedStep) = (0, 0)
        func sell(_ store: Store<Stock>, _ step: inout Int) {
            step &+= 1
            let index = step % count
            store.send("sell") { $0.items[index].stock &+= 1 }
        }
        let turn = 200
        let measured = try Measurement.interleaved(
            runs: 10,
            [
                (turn, { for _ in 0..<turn { sell(bare, &bareStep) } }),
                (turn, { for _ in 0..<turn { sell(patched, &patchedStep) } }),
            ])
        let (baseline, added) = (measured[0].mean, measured[1].mean - measured[0].mean)
        table.add(
            "record one action on \(count) plain-value items {id, stock} (\(formatBytes(stateBytes))), version 2: time added to the store's own",
            figure: formatSeconds(added), baseline: "store alone \(formatSeconds(baseline))",
            ratio: formatRatio(added / baseline), target: "(for scale)", met: nil)
    }

    /// The same action recorded in version 1 and in version 2, time and bytes.
    static func runSmall(_ count: Int, into table: inout ResultTable) throws {
        let initial = state(documents: count)
        let stateBytes = try StateEncoder().encode(initial).count
        print("Recording, \(count) documents (\(formatBytes(stateBytes)) of state), version 1 and 2")
        let (wholeSink, patchSink) = (CountingSink(), CountingSink())
        let whole = Store(initialState: initial, name: "Documents", recorder: try TraceRecorder(sink: wholeSink))
        let patched = Store(
            initialState: initial, name: "Documents",
            recorder: try TraceRecorder(sink: patchSink, patches: .automatic()))
        var (wholeStep, patchedStep) = (0, 0)
        let turn = 2_000
        let (wholeStart, patchStart) = (wholeSink.bytes, patchSink.bytes)
        let measured = try Measurement.interleaved(
            runs: 10,
            [
                (turn, { for _ in 0..<turn { edit(whole, &wholeStep, of: count) } }),
                (turn, { for _ in 0..<turn { edit(patched, &patchedStep, of: count) } }),
            ])
        let actions = Double(11 * turn)
        let (wholeBytes, patchBytes) = (
            Double(wholeSink.bytes - wholeStart) / actions, Double(patchSink.bytes - patchStart) / actions
        )
        table.add(
            "record one action on \(count) documents (\(formatBytes(stateBytes))), version 2 vs version 1",
            figure: formatSeconds(measured[1].mean), baseline: "version 1 \(formatSeconds(measured[0].mean))",
            ratio: formatRatio(measured[1].mean / measured[0].mean), target: "(for scale)", met: nil)
        table.add(
            "… bytes written per action, version 2 vs version 1", figure: formatBytes(Int(patchBytes)),
            baseline: "version 1 \(formatBytes(Int(wholeBytes)))", ratio: formatRatio(patchBytes / wholeBytes),
            target: "(for scale)", met: nil)
    }

    /// The targets: the time version 2 adds to the store's own work, and the bytes it writes.
    static func runLarge(_ count: Int, bytesTarget: Int, into table: inout ResultTable) throws {
        let initial = state(documents: count)
        let stateBytes = try StateEncoder().encode(initial).count
        print("Recording, \(count) documents (\(formatBytes(stateBytes)) of state)")
        let bare = Store(initialState: initial, name: "Documents")
        let patchSink = CountingSink()
        let patched = Store(
            initialState: initial, name: "Documents",
            recorder: try TraceRecorder(sink: patchSink, patches: .automatic()))
        var (bareStep, patchedStep) = (0, 0)
        // 10,000 actions each, after a warm-up turn: whole states included.
        let turn = 1_000
        let patchStart = patchSink.bytes
        let measured = try Measurement.interleaved(
            runs: 10,
            [
                (turn, { for _ in 0..<turn { edit(bare, &bareStep, of: count) } }),
                (turn, { for _ in 0..<turn { edit(patched, &patchedStep, of: count) } }),
            ])
        let patchBytes = Double(patchSink.bytes - patchStart) / Double(11 * turn)
        // Version 1 writes the same line for each such action: a few of them tell its size.
        let wholeSink = CountingSink()
        let whole = Store(initialState: initial, name: "Documents", recorder: try TraceRecorder(sink: wholeSink))
        var wholeStep = 0
        let wholeActions = max(3, 20_000 / count)
        let wholeStart = wholeSink.bytes
        for _ in 0..<wholeActions { edit(whole, &wholeStep, of: count) }
        let wholeBytes = Double(wholeSink.bytes - wholeStart) / Double(wholeActions)

        // The mean, not the median: a whole state now and then is part of the cost.
        let (baseline, added) = (measured[0].mean, measured[1].mean - measured[0].mean)
        table.add(
            "record one action on \(count) documents (\(formatBytes(stateBytes))), version 2: time added to the store's own",
            figure: formatSeconds(added), baseline: "store alone \(formatSeconds(baseline))",
            ratio: formatRatio(added / baseline), target: "≤ 2×", met: added <= 2 * baseline)
        table.add(
            "… bytes written per action (whole states included) vs version 1",
            figure: formatBytes(Int(patchBytes)), baseline: "version 1 \(formatBytes(Int(wholeBytes)))",
            ratio: "1/\(Int(wholeBytes / patchBytes))", target: "≤ 1/\(bytesTarget)",
            met: patchBytes * Double(bytesTarget) <= wholeBytes)
    }
}

extension Measurement {
    var mean: Double { samples.reduce(0, +) / Double(samples.count) }
}
