import TestSupport
import Testing

@testable import TraceJSON
@testable import TraceQueries
@testable import TraceReader

/// `ValueHistory` on version 1 traces gives what reading every event whole gives: each event of
/// the store parsed with its state, the value at the path resolved in it and compared with the
/// one before by the diff. Seeded random traces whose values change spelling without changing
/// (`1.0` and `1`, `"\u0041"` and `"A"`), change kind, go and come back, whose items move, with
/// spaces, repeated member names, damaged lines and a torn last line.
@Suite struct ValueHistoryAgreementTests {
    typealias F = QueryFixtures

    static let scalars = [
        "1", "1.0", "10e-1", "2", "2.5", "2.50", "-0", "0", "1.99", #""A""#, #""\u0041""#, #""B""#, #""a\nb""#,
        #""a\u000ab""#, "true", "false", "null",
    ]
    static let values = scalars + ["{}", "[1]", "[1.0]", #"{"x":1}"#, #"{"x":1.0}"#]

    /// A random trace of `events` events of two stores, with damaged lines among them.
    static func lines(seed: UInt64, events: Int) -> [String] {
        var random = SeededGenerator(seed: seed)
        var lines = [F.header]
        for seq in 1...events {
            if Int.random(in: 0..<12, using: &random) == 0 { lines.append(#"{"type":"transition","seq":"#) }
            if seq > 2 && Bool.random(using: &random) {
                lines.append(F.transition(seq, "Other", "tick", state: #"{"n":\#(seq)}"#))
                continue
            }
            var members: [String] = []
            if Int.random(in: 0..<6, using: &random) != 0 {
                members.append(#""total":\#(values.randomElement(using: &random)!)"#)
            }
            if Int.random(in: 0..<8, using: &random) == 0 { members.append(#""total":"repeated""#) }
            members.append(#""note":\#(scalars.randomElement(using: &random)!)"#)
            let items = ["A", "B", "C"].shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)).map {
                #"{"quantity":\#(scalars.randomElement(using: &random)!),"id":"\#($0)"}"#
            }
            members.append(#""lines":[\#(items.joined(separator: ","))]"#)
            var state = "{" + members.shuffled(using: &random).joined(separator: ",") + "}"
            if Int.random(in: 0..<5, using: &random) == 0 {
                state = state.replacingOccurrences(of: ":", with: " : ").replacingOccurrences(of: ",", with: " , ")
            }
            lines.append(
                seq == 1
                    ? F.register(seq, "CartStore", state: state)
                    : F.transition(seq, "CartStore", "set", state: state, source: "Cart.swift:\(seq)"))
        }
        return lines
    }

    static let paths = [
        "CartStore.total", "CartStore.note", "CartStore.lines[1].quantity", "CartStore.lines.0.quantity",
        #"CartStore.lines[id: "B"].quantity"#, #"CartStore.lines[id: "C"]"#, "CartStore.lines", "CartStore",
        "CartStore.total.x", "CartStore.missing",
    ]

    /// The changes found by reading every event whole: step, seq, before, after.
    static func reference(_ trace: TraceFile, _ path: StatePath) -> [(Int, Int, JSONValue?, JSONValue?)] {
        let tail = StatePath(Array(path.components.dropFirst()))
        var previous: JSONValue?
        var found: [(Int, Int, JSONValue?, JSONValue?)] = []
        for index in 0..<trace.eventCount {
            guard let event = trace.event(at: index), event.store == "CartStore", let state = event.state else {
                continue
            }
            let value = tail.resolve(in: state)
            let same =
                switch (previous, value) {
                case (nil, nil): true
                case (let old?, let new?): StateDiff(from: old, to: new).changes(namingItemsByID: true).isEmpty
                default: false
                }
            if !same { found.append((trace.step(ofEventAt: index)!, event.seq, previous, value)) }
            previous = value
        }
        return found
    }

    @Test(arguments: UInt64(1)...40)
    func theChangesAreThoseOfReadingEveryEventWhole(seed: UInt64) throws {
        var lines = Self.lines(seed: seed, events: 60)
        // A torn last line: the recorder stopped in the middle of writing it.
        let last = F.transition(61, "CartStore", "set", state: #"{"total":7,"note":"x","lines":[]}"#)
        lines.append(String(last.prefix(Int(seed) % last.count)))
        var bytes = F.bytes(Array(lines.dropLast()))
        bytes += Array(lines.last!.utf8)
        let trace = try TraceFile(bytes: bytes)
        var random = SeededGenerator(seed: seed)
        for text in Self.paths {
            let path = try StatePath(parsing: text)
            let history = try ValueHistory(trace: trace, path: path)
            let got = history.changes()
            let wanted = Self.reference(trace, path)
            #expect(got.map(\.step) == wanted.map(\.0), "seed \(seed), \(text)")
            #expect(got.map(\.event.seq) == wanted.map(\.1), "seed \(seed), \(text)")
            #expect(got.map(\.before) == wanted.map(\.2), "seed \(seed), \(text)")
            #expect(got.map(\.after) == wanted.map(\.3), "seed \(seed), \(text)")
            for change in got {
                #expect(change.event.source == "Cart.swift:\(change.event.seq)" || change.event.type == "register")
                #expect(change.event.state == nil)
                #expect(!change.changes.isEmpty, "seed \(seed), \(text) at \(change.step)")
            }
            // On two threads, the same changes in the same order, and a stop stops.
            let positions = history.positions(after: nil, before: nil)
            var threaded: [ValueChange] = []
            history.forEachChange(in: positions, onTwoThreads: true, batchSize: 2) { change in
                threaded.append(change)
                return true
            }
            #expect(threaded == got, "seed \(seed), \(text)")
            let count = Int(seed) % 6
            var taken: [ValueChange] = []
            history.forEachChange(in: positions, onTwoThreads: true, batchSize: 2) { change in
                taken.append(change)
                return taken.count < count
            }
            #expect(taken == Array(got.prefix(max(1, count))), "seed \(seed), \(text)")
            // Walking back gives the same last change as the list.
            let step = Int.random(in: 0...trace.lastStep + 1, using: &random)
            #expect(history.lastChange(before: step)?.step == history.changes(before: step).last?.step)
            #expect(history.lastChange(before: step)?.after == history.changes(before: step).last?.after)
        }
    }
}
