import Foundation
import TestSupport
import Testing

@testable import Recorder

/// The recorder copies the JSON of state parts that are certainly unchanged (`EncodingMemo`):
/// arrays and dictionaries by storage, plain values by their bits. What it records must be the
/// bytes a fresh encoding gives, whatever the actions did.
@Suite struct EncodingMemoTests {
    enum Mode: Codable, Equatable, Sendable {
        case idle
        case busy(progress: Double, step: Int)
    }

    struct Point: Codable, Equatable, Sendable {
        var x: Int
        var y: Int
    }

    struct Row: Codable, Equatable, Sendable {
        var name: String
        var points: [Point]
        var mode: Mode
    }

    struct MemoState: Codable, Equatable, Sendable {
        var rows: [Row] = []
        var byName: [String: Point] = [:]
        var grid: [[Int]] = []
        var mode = Mode.idle
        var origin = Point(x: 0, y: 0)
        var counter = 0
    }

    /// Every recorded state equals a fresh encoding of the store's state, over random actions
    /// that change, keep, share and replace arrays, dictionaries and plain values.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func recordedStatesMatchFreshEncodings(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let sink = MemorySink()
        let store = Store(initialState: MemoState(), name: "Memo", recorder: try TraceRecorder(sink: sink))
        let fresh = StateEncoder()
        var expected: [String] = [try fresh.encodeToString(store.state)]
        for step in 0..<600 {
            let choice = Int.random(in: 0..<11, using: &random)
            let number = Int.random(in: -50...50, using: &random)
            store.send("act") { state in
                switch choice {
                case 0:
                    state.rows.append(Row(name: "row \(step)", points: [Point(x: number, y: step)], mode: .idle))
                case 1:
                    if !state.rows.isEmpty {
                        state.rows[abs(number) % state.rows.count].points.append(Point(x: number, y: 0))
                    }
                case 2:
                    if !state.rows.isEmpty { state.rows.removeLast() }
                case 3:
                    state.byName["k\(abs(number) % 7)"] = Point(x: number, y: step)
                case 4:
                    state.mode = number % 2 == 0 ? .idle : .busy(progress: Double(number) / 8, step: step % 3)
                case 5:
                    state.origin = Point(x: number % 3, y: 0)  // often back to a value seen before
                case 6:
                    state.grid.append([number, step])
                case 7:
                    if !state.grid.isEmpty { state.grid[0].append(number) }
                case 8:
                    state.rows = state.rows.reversed()
                case 9:
                    if !state.rows.isEmpty { state.rows[0].mode = .busy(progress: 0.5, step: number) }
                default:
                    state.counter += 1
                }
            }
            expected.append(try fresh.encodeToString(store.state))
        }
        try Self.expectStates(in: sink, toBe: expected)
    }

    final class Counter: Codable, Equatable, @unchecked Sendable {
        var value: Int
        init(_ value: Int) { self.value = value }
        static func == (left: Counter, right: Counter) -> Bool { left === right }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
        required init(from decoder: any Decoder) throws {
            value = try decoder.singleValueContainer().decode(Int.self)
        }
    }

    struct SharedState: Codable, Equatable, Sendable {
        var counters: [Counter]
        var version = 0
    }

    /// An array of class instances keeps its storage when an instance changes in place, so it
    /// must never be copied from an earlier event.
    @Test func arraysOfClassInstancesAreEncodedEveryTime() throws {
        let sink = MemorySink()
        let counter = Counter(1)
        let store = Store(
            initialState: SharedState(counters: [counter]), name: "Shared", recorder: try TraceRecorder(sink: sink))
        store.send("bump") { $0.version += 1 }
        counter.value = 2
        store.send("bump") { $0.version += 1 }
        let states = try sink.lines.dropFirst().map(Self.stateText)
        #expect(
            states == [
                #"{"counters":[1],"version":0}"#, #"{"counters":[1],"version":1}"#, #"{"counters":[2],"version":2}"#,
            ])
    }

    final class Cell: Codable, @unchecked Sendable {
        var value: Int
        init(_ value: Int) { self.value = value }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
        required init(from decoder: any Decoder) throws {
            value = try decoder.singleValueContainer().decode(Int.self)
        }
    }

    struct Wrapper: Codable, Sendable {
        var cell: Cell
        var label: String
    }

    /// Reads a class instance without encoding it as a value: the encoder cannot see it.
    struct Viewer: Encodable, Sendable {
        var cell: Cell
        enum CodingKeys: String, CodingKey { case shown }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(cell.value, forKey: .shown)
        }
    }

    struct CellState: Encodable, Equatable, Sendable {
        var grid: [[Cell]] = []
        var optional: [Cell?] = []
        var byName: [String: Cell] = [:]
        var nested: [String: [Cell]] = [:]
        var wrapped: [Wrapper] = []
        var viewers: [Viewer] = []
        var plain: [[Int]] = []
        var version = 0
        // Equal when the structure is: an in-place change to a cell is not a change of the state
        // (the store's `changed` says false), yet the trace must show the cell's new value.
        static func == (left: CellState, right: CellState) -> Bool { left.version == right.version }
    }

    /// Class instances at any depth (nested, optional, in dictionaries, wrapped in structs, or read
    /// through by a custom `encode(to:)`) change in place, keeping every array's storage: every
    /// recorded state must still be what a fresh encoding gives right then.
    @Test(arguments: [4, 5, 6] as [UInt64])
    func partsHoldingClassInstancesAreNeverReused(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let sink = MemorySink()
        let store = Store(initialState: CellState(), name: "Cells", recorder: try TraceRecorder(sink: sink))
        var cells: [Cell] = []
        let fresh = StateEncoder()
        var expected: [String] = [try fresh.encodeToString(store.state)]
        for step in 0..<800 {
            let choice = Int.random(in: 0..<10, using: &random)
            let number = Int.random(in: 0..<1_000, using: &random)
            if choice < 4, !cells.isEmpty {
                // The change the memo cannot see: an instance changes, no storage does.
                cells[number % cells.count].value = number
                store.send("poke") { _ in }
            } else {
                let cell = Cell(number)
                cells.append(cell)
                store.send("grow") { state in
                    state.version = step
                    switch choice {
                    case 4: state.grid.append([cell])
                    case 5: state.optional.append(number % 2 == 0 ? cell : nil)
                    case 6: state.byName["k\(number % 5)"] = cell
                    case 7: state.nested["n\(number % 3)", default: []].append(cell)
                    case 8:
                        state.wrapped.append(Wrapper(cell: cell, label: "w"))
                        state.viewers.append(Viewer(cell: cell))
                    default: state.plain.append([number])
                    }
                }
            }
            expected.append(try fresh.encodeToString(store.state))
        }
        try Self.expectStates(in: sink, toBe: expected)
    }

    /// A list that grows one append at a time is still copied from the memo on the actions that
    /// leave it alone: it never stops being remembered.
    @Test func aGrowingListStaysRemembered() throws {
        let encoder = StreamingEncoder(redaction: [], remembers: true)
        var state = ManyParts(lists: [[]])
        for index in 0..<300 {
            state.lists[0].append(Point(x: index, y: index))
            encoder.reset(to: 0)
            try encoder.appendValue(state)
        }
        let entry = encoder.context.state.pointee.types.entry(
            at: encoder.context.state.pointee.types.index(of: [Point].self))
        let missesBefore = entry.pointee.misses
        for _ in 0..<10 {
            state.version += 1
            encoder.reset(to: 0)
            try encoder.appendValue(state)
        }
        #expect(entry.pointee.memo == .storage)
        #expect(entry.pointee.misses == missesBefore)
        // Old versions of the list are let go of, not kept by the dozen (the points take at
        // most 24 entries; a few versions of the lists the rest).
        #expect(encoder.context.rememberedCount <= 30)
    }

    /// Memory stays bounded however many different arrays come by, and a type whose values never
    /// repeat stops being remembered.
    @Test func theMemoStaysSmall() throws {
        let encoder = StreamingEncoder(redaction: [], remembers: true)
        for index in 0..<500 {
            encoder.reset(to: 0)
            try encoder.appendValue(
                MemoState(rows: [Row(name: "r\(index)", points: [], mode: .idle)], origin: Point(x: index, y: 0)))
            #expect(encoder.context.rememberedCount <= 64)
        }
        let afterMany = encoder.context.rememberedCount
        for index in 500..<600 {
            encoder.reset(to: 0)
            try encoder.appendValue(Point(x: index, y: index))
        }
        // Points never repeated: the type is no longer looked up, so nothing new is kept.
        #expect(encoder.context.rememberedCount <= afterMany)
    }

    struct ManyParts: Codable, Equatable, Sendable {
        var lists: [[Point]]
        var version = 0
    }

    /// A state with more arrays than the memo holds records correctly, action after action.
    @Test func moreArraysThanTheMemoHolds() throws {
        let sink = MemorySink()
        let initial = ManyParts(lists: (0..<150).map { index in [Point(x: index, y: 0), Point(x: 0, y: index)] })
        let recorder = try TraceRecorder(sink: sink)
        let store = Store(initialState: initial, name: "Many", recorder: recorder)
        let fresh = StateEncoder()
        var expected = [try fresh.encodeToString(store.state)]
        for step in 0..<40 {
            store.send("change") { state in
                state.lists[(step * 37) % state.lists.count].append(Point(x: step, y: step))
                state.version += 1
            }
            expected.append(try fresh.encodeToString(store.state))
        }
        #expect(try sink.lines.dropFirst().map(Self.stateText) == expected)
    }

    /// Without a memo (a `StateEncoder`), nothing is kept.
    @Test func stateEncoderKeepsNothing() throws {
        let encoder = StateEncoder()
        _ = try encoder.encode(MemoState(rows: [Row(name: "r", points: [], mode: .idle)]))
        #expect(encoder.encoder.context.rememberedCount == 0)
    }

    /// Every state `sink` recorded (after its header) is the matching one of `expected`; reports
    /// the first that is not.
    static func expectStates(in sink: MemorySink, toBe expected: [String]) throws {
        let recorded = try sink.lines.dropFirst().map(Self.stateText)
        #expect(recorded.count == expected.count)
        for (index, (got, want)) in zip(recorded, expected).enumerated() where got != want {
            Issue.record("event \(index + 1): recorded \(got), a fresh encoding gives \(want)")
            break
        }
    }

    /// The `state` member of a trace line, as text.
    static func stateText(_ line: String) throws -> String {
        let marker = #""state":"#
        guard let start = line.range(of: marker)?.upperBound, line.hasSuffix("}") else {
            throw TraceLineError(line: line)
        }
        // A transition goes on with "source"; a register event ends with its state.
        let end = line.range(of: #","source":"#, options: .backwards)?.lowerBound ?? line.index(before: line.endIndex)
        return String(line[start..<end])
    }

    struct TraceLineError: Error {
        var line: String
    }
}
