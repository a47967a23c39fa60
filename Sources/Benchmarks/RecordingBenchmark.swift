import Foundation
import Recorder
import TraceReader

#if canImport(Glibc)
    import Glibc
#endif

/// Recording: one action on a store with a Codable state, encoded and written before `send`
/// returns, against a bare `write(2)` of the same line and against `JSONEncoder` + `write(2)`.
enum RecordingBenchmark {
    struct Item: Codable, Equatable, Sendable {
        var sku: String
        var title: String
        var price: Double
        var quantity: Int
        var tags: [String]
    }

    enum Status: Codable, Equatable, Sendable {
        case editing
        case ready(total: Double)
    }

    struct ShopState: Codable, Equatable, Sendable {
        var user: String
        var items: [Item]
        var status: Status
        var note: String?
        var version: Int
    }

    /// The event as a `JSONEncoder` user would write it.
    struct Event: Encodable {
        var type = "transition"
        var seq: Int
        var elapsed: Double
        var store = "ShopStore"
        var action = "bump"
        var changed = true
        var state: ShopState
        var source = "ShopStore.swift:42"
    }

    static func state(items: Int) -> ShopState {
        ShopState(
            user: "ada@example.com",
            items: (0..<items).map { index in
                Item(
                    sku: "SKU-\(1000 + index)", title: "Item number \(index) \u{2014} «deluxe»",
                    price: 9.99 + Double(index) * 0.37,
                    quantity: index % 5 + 1, tags: ["new", "sale"])
            },
            status: .ready(total: 123.45), note: nil, version: 0)
    }

    static func run(into table: inout ResultTable, folder: String) throws {
        for (label, items, target) in [("~500 B state", 3, 10.0), ("~10 KB state", 90, 5.0)] {
            let initial = state(items: items)
            let stateBytes = try StateEncoder().encode(initial).count
            print("Recording, \(label) (\(stateBytes) bytes of state)")
            let operations = items < 10 ? 20_000 : 2_000
            let foundationOperations = max(operations / 10, 200)

            // The common action: it changes one field, and the items are as they were.
            let rewindPath = "\(folder)/record-\(items).jsonl"
            let store = Store(
                initialState: initial, name: "ShopStore", recorder: try TraceRecorder(path: rewindPath, replacing: true)
            )
            store.send("bump") { $0.version &+= 1 }
            // The same action on a store that is not a `Store`: it keeps its own state and
            // records each new one through a `StoreRecording`.
            let recordingPath = "\(folder)/record-api-\(items).jsonl"
            let recording = StoreRecording(
                name: "ShopStore", initialState: initial,
                recorder: try TraceRecorder(path: recordingPath, replacing: true))
            var ownState = initial
            // The same action on a store whose state was read once, as a view reads it: from
            // then on, each change is told to the Observation registrar.
            let observedPath = "\(folder)/record-observed-\(items).jsonl"
            let observedStore = Store(
                initialState: initial, name: "ShopStore",
                recorder: try TraceRecorder(path: observedPath, replacing: true))
            _ = observedStore.state
            // An action that changes an item: the items array is new, and is encoded in full.
            let changingPath = "\(folder)/record-changing-\(items).jsonl"
            let changingStore = Store(
                initialState: initial, name: "ShopStore",
                recorder: try TraceRecorder(path: changingPath, replacing: true))

            // The same action on a recorder whose sink drops the line: the recorder's own CPU.
            let discardingStore = Store(
                initialState: initial, name: "ShopStore", recorder: try TraceRecorder(sink: DiscardingSink()))
            // A bare write(2) of a line of the same length, to a file opened the same way.
            let line = try lastLine(of: rewindPath)
            let bare = try AppendFile("\(folder)/bare-\(items).jsonl")
            // That action, then the bare write(2): the two costs alternating, as in a recording.
            let alternating = try AppendFile("\(folder)/alternating-\(items).jsonl")
            // JSONEncoder, then the same write(2).
            let foundation = try AppendFile("\(folder)/foundation-\(items).jsonl")
            let encoder = JSONEncoder()
            var event = Event(seq: 0, elapsed: 0.001, state: initial)

            let measured = try Measurement.interleaved([
                (operations, { for _ in 0..<operations { store.send("bump") { $0.version &+= 1 } } }),
                (
                    operations,
                    {
                        for _ in 0..<operations {
                            ownState.version &+= 1
                            recording.record("bump", state: ownState)
                        }
                    }
                ),
                (operations, { for _ in 0..<operations { observedStore.send("bump") { $0.version &+= 1 } } }),
                (
                    operations,
                    { for _ in 0..<operations { changingStore.send("restock") { $0.items[0].quantity &+= 1 } } }
                ),
                (
                    operations,
                    {
                        line.withUnsafeBytes { raw in
                            for _ in 0..<operations { _ = write(bare.descriptor, raw.baseAddress, raw.count) }
                        }
                    }
                ),
                (operations, { for _ in 0..<operations { discardingStore.send("bump") { $0.version &+= 1 } } }),
                (
                    operations,
                    {
                        line.withUnsafeBytes { raw in
                            for _ in 0..<operations {
                                discardingStore.send("bump") { $0.version &+= 1 }
                                _ = write(alternating.descriptor, raw.baseAddress, raw.count)
                            }
                        }
                    }
                ),
                (
                    foundationOperations,
                    {
                        for _ in 0..<foundationOperations {
                            event.seq &+= 1
                            event.state.version &+= 1
                            var data = try encoder.encode(event)
                            data.append(10)
                            data.withUnsafeBytes { raw in _ = write(foundation.descriptor, raw.baseAddress, raw.count) }
                        }
                    }
                ),
            ])
            let (rewind, api, observed, changing, bareWrite) = (
                measured[0], measured[1], measured[2], measured[3], measured[4]
            )
            let (discarding, alternated, jsonEncoder) = (measured[5], measured[6], measured[7])

            if items < 10 {
                let ratio = rewind.median / bareWrite.median
                table.add(
                    "record one action, \(label), vs bare write(2)", figure: formatSeconds(rewind.median),
                    baseline: "write(2) \(formatSeconds(bareWrite.median))", ratio: formatRatio(ratio),
                    target: "≤ 1.5×", met: ratio <= 1.5)  // issue 21 (it was ≤ 2×)
                // Not targets of their own: where the time above goes. The recorder's CPU with
                // no write, and that action then the bare write(2), against the sum of the two
                // measured apart: on its own, a write(2) after the recorder's code is slower
                // (the caches and branch predictors of each hold the other's code), which is
                // part of the row above and which no change inside the recorder's lock removes.
                table.add(
                    "… the same action, to a sink that drops the line (the recorder's own CPU)",
                    figure: formatSeconds(discarding.median), baseline: "write(2) \(formatSeconds(bareWrite.median))",
                    ratio: formatRatio(discarding.median / bareWrite.median), target: "(for scale)", met: nil)
                let apart = discarding.median + bareWrite.median
                table.add(
                    "… that action to the dropping sink, then the bare write(2), in turns",
                    figure: formatSeconds(alternated.median), baseline: "the two apart \(formatSeconds(apart))",
                    ratio: formatRatio(alternated.median / apart), target: "(for scale)", met: nil)
            }
            let speedup = jsonEncoder.median / rewind.median
            table.add(
                "record one action, \(label), vs JSONEncoder + write(2)", figure: formatSeconds(rewind.median),
                baseline: "JSONEncoder \(formatSeconds(jsonEncoder.median))", ratio: "\(formatRatio(speedup)) faster",
                target: "≥ \(Int(target))× faster", met: speedup >= target)
            let apiRatio = api.median / rewind.median
            table.add(
                "record one action through StoreRecording, \(label), vs Store", figure: formatSeconds(api.median),
                baseline: "Store \(formatSeconds(rewind.median))", ratio: formatRatio(apiRatio),
                target: "≤ 1.1×", met: apiRatio <= 1.1)
            // Not a target of its own: what telling the Observation registrar of a change costs.
            table.add(
                "… the same action on a store whose state was read (observed)",
                figure: formatSeconds(observed.median), baseline: "Store \(formatSeconds(rewind.median))",
                ratio: formatRatio(observed.median / rewind.median), target: "(for scale)", met: nil)
            // Not a target of its own: how much of the above is the copying of unchanged parts.
            let changingSpeedup = jsonEncoder.median / changing.median
            table.add(
                "… an action that changes an item (all items encoded again)", figure: formatSeconds(changing.median),
                baseline: "JSONEncoder \(formatSeconds(jsonEncoder.median))",
                ratio: "\(formatRatio(changingSpeedup)) faster",
                target: "(for scale)", met: nil)
            for path in [
                rewindPath, recordingPath, observedPath, changingPath, bare.path, alternating.path, foundation.path,
            ] {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        try runGrowingList(into: &table, folder: folder)
    }

    /// A list that grew one append at a time (the way an app's list grows) against the same
    /// list handed to the store as its initial state: an action that leaves the list alone should
    /// cost the same either way, since the list's JSON can be copied from the last event.
    static func runGrowingList(into table: inout ResultTable, folder: String) throws {
        let count = 2_000
        let full = state(items: count)
        let grownPath = "\(folder)/record-grown.jsonl"
        let grown = Store(
            initialState: ShopState(user: full.user, items: [], status: .editing, note: nil, version: 0),
            name: "ShopStore", recorder: try TraceRecorder(path: grownPath, replacing: true))
        for item in full.items { grown.send("add") { $0.items.append(item) } }
        let initialPath = "\(folder)/record-initial.jsonl"
        let initial = Store(
            initialState: grown.state, name: "ShopStore",
            recorder: try TraceRecorder(path: initialPath, replacing: true))
        let stateBytes = try StateEncoder().encode(grown.state).count
        print("Recording, a list grown to \(count) items (\(stateBytes) bytes of state)")
        let operations = 200
        let measured = try Measurement.interleaved([
            (operations, { for _ in 0..<operations { grown.send("bump") { $0.version &+= 1 } } }),
            (operations, { for _ in 0..<operations { initial.send("bump") { $0.version &+= 1 } } }),
        ])
        let ratio = measured[0].median / measured[1].median
        table.add(
            "record one action, a list grown to \(count) items by appends, an action that leaves it alone",
            figure: formatSeconds(measured[0].median),
            baseline: "list given whole \(formatSeconds(measured[1].median))", ratio: formatRatio(ratio),
            target: "≤ 2×", met: ratio <= 2)
        for path in [grownPath, initialPath] { try? FileManager.default.removeItem(atPath: path) }
    }

    private static func lastLine(of path: String) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw BenchmarkError("cannot read \(path)") }
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size > 1 << 20 ? size - (1 << 20) : 0)
        let bytes = [UInt8](try handle.readToEnd() ?? Data())
        let end = bytes.count - 1
        var start = end
        while start > 0 && bytes[start - 1] != 10 { start -= 1 }
        return Array(bytes[start...end])
    }
}

/// A sink that drops every line: what recording costs without the write.
final class DiscardingSink: TraceSink {
    func write(_ line: UnsafeRawBufferPointer) throws {}
}

/// A file opened for appending, as `FileSink` opens a trace, closed when released.
final class AppendFile {
    let path: String
    let descriptor: Int32

    init(_ path: String) throws {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw BenchmarkError("cannot create \(path)") }
    }

    deinit {
        close(descriptor)
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
