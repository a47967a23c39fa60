import TestSupport
import Testing
@_spi(RewindInternals) import ToolSupport

@testable import TraceJSON
@testable import TraceQueries
@testable import TraceReader

/// `ValueHistory.writeChanges` (the text `inspector when` prints, written in parts on other
/// threads, scalar changes straight from the bytes of the lines) writes what
/// `ValueChangeText.append(_:to:)` writes for each of `ValueHistory.changes()`: on random traces
/// whose values need escapes, hold non-ASCII text and terminal controls, are long, nested, go
/// and come back, whose events' names need escapes, and on version 2 traces; with and without
/// colours, narrow and wide, in parts of 1 to many events.
@Suite struct ValueChangeTextTests {
    typealias F = QueryFixtures

    static let scalars =
        ValueHistoryAgreementTests.scalars + [
            #""caf\u00e9""#, "\"café\"", "\"日本語\"", #""a\u001b[2Jb""#, "\"\u{202E}rtl\"", #""q\"uote""#,
            #""\u2028""#, #""\ud800""#, "\"" + String(repeating: "long ", count: 30) + "\"",
            String(repeating: "7", count: 70), "1e400", "-12.5E-3",
        ]
    static let values = scalars + ValueHistoryAgreementTests.values.suffix(5) + [#"{"y":[1,"é",{"z":null}]}"#]
    static let names = ["set", "add\\u0007", "café", "a\\u202eb"]

    /// A random trace of `events` events of two stores, with damaged lines among them.
    static func lines(seed: UInt64, events: Int) -> [String] {
        var random = SeededGenerator(seed: seed)
        var lines = [F.header]
        for seq in 1...events {
            if Int.random(in: 0..<15, using: &random) == 0 { lines.append(#"{"type":"transition","seq":"#) }
            if seq > 2 && Int.random(in: 0..<3, using: &random) == 0 {
                lines.append(F.transition(seq, "Other", "tick", state: #"{"n":\#(seq)}"#))
                continue
            }
            var members: [String] = []
            if Int.random(in: 0..<6, using: &random) != 0 {
                members.append(#""total":\#(values.randomElement(using: &random)!)"#)
            }
            members.append(#""note":\#(scalars.randomElement(using: &random)!)"#)
            // Names that a path prints escaped, or that a terminal must not get raw.
            members.append(#""café":\#(scalars.randomElement(using: &random)!)"#)
            members.append(#""a\u202eb":\#(scalars.randomElement(using: &random)!)"#)
            let items = ["A", "B"].shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)).map {
                #"{"quantity":\#(scalars.randomElement(using: &random)!),"id":"\#($0)"}"#
            }
            members.append(#""lines":[\#(items.joined(separator: ","))]"#)
            let state = "{" + members.shuffled(using: &random).joined(separator: ",") + "}"
            let roll = Int.random(in: 0..<10, using: &random)
            if seq == 1 || roll == 0 {
                lines.append(F.register(seq, "CartStore", state: state))
            } else {
                lines.append(
                    F.transition(
                        seq, "CartStore", names.randomElement(using: &random)!, state: state,
                        source: roll < 4 ? nil : roll < 8 ? "Cart.swift:\(seq)" : "Cärt\\t.swift",
                        cause: roll % 3 == 0 ? seq - 1 : nil))
            }
        }
        return lines
    }

    /// What `when` printed before `writeChanges`: each change's lines, neutralized.
    static func expected(_ history: ValueHistory, after: Int?, _ text: ValueChangeText) -> [UInt8] {
        var output: [UInt8] = []
        for change in history.changes(after: after) { text.append(change, to: &output) }
        return output.withUnsafeBytes { TerminalText.neutralized($0, allowingStyles: true) } ?? output
    }

    static func written(_ history: ValueHistory, after: Int?, _ text: ValueChangeText, partSize: Int) -> [UInt8] {
        var output: [UInt8] = []
        history.writeChanges(after: after, as: text, partSize: partSize) { part in
            #expect(!part.isEmpty && part.last == UInt8(ascii: "\n"))
            output.append(contentsOf: part)
            return true
        }
        return output
    }

    static let paths =
        ValueHistoryAgreementTests.paths + ["CartStore.note", "Other.n", "CartStore.café", "CartStore[\"a\u{202E}b\"]"]

    @Test(arguments: UInt64(1)...24)
    func theWrittenTextIsThatOfEachChange(seed: UInt64) throws {
        let trace = try F.open(Self.lines(seed: seed, events: 80))
        var random = SeededGenerator(seed: seed)
        for text in Self.paths {
            let history = try ValueHistory(trace: trace, path: StatePath(parsing: text))
            let colors = Bool.random(using: &random)
            let format = ValueChangeText(width: [20, 60, 100].randomElement(using: &random)!, colors: colors)
            let after = Bool.random(using: &random) ? nil : Int.random(in: 0...40, using: &random)
            let wanted = Self.expected(history, after: after, format)
            for partSize in [1, 3, 17, 4096] {
                let got = Self.written(history, after: after, format, partSize: partSize)
                // As text: a difference reads as lines.
                #expect(
                    String(decoding: got, as: UTF8.self) == String(decoding: wanted, as: UTF8.self),
                    "seed \(seed), \(text), parts of \(partSize), colors \(colors)")
                #expect(got == wanted)
            }
        }
    }

    @Test func mostScalarChangesAreWrittenFromTheirLines() throws {
        // A plain total changing at every event: the writer, not the general walk, writes them
        // (checked through what only it does: the general walk's `ValueChange`s are not built).
        var lines = [F.header, F.register(1, "CartStore", state: #"{"total":0}"#)]
        for seq in 2...50 {
            lines.append(F.transition(seq, "CartStore", "add", state: #"{"total":\#(seq)}"#, source: "C.swift:1"))
        }
        let trace = try F.open(lines)
        let history = try ValueHistory(trace: trace, path: StatePath(parsing: "CartStore.total"))
        let text = ValueChangeText(width: 80, colors: false)
        let writer = ScalarChangeWriter(history: history, text: text)
        var window = TraceSource.Window(forward: true)
        var previous = ValueHistory.Reading.present(Array("1".utf8), nil)
        var output: [UInt8] = []
        var names = HeadingNames()
        #expect(writer.write(at: 3, after: &previous, through: &window, names: &names, to: &output))
        #expect(
            String(decoding: output, as: UTF8.self)
                == "step 4  CartStore.add  (C.swift:1)\n    CartStore.total: 1 → 4\n")
        guard case .present(let bytes, _) = previous else {
            Issue.record("no value after the change")
            return
        }
        #expect(bytes == Array("4".utf8))
        #expect(Self.written(history, after: nil, text, partSize: 7) == Self.expected(history, after: nil, text))
    }

    @Test func versionTwoTracesAreWrittenAsTheirChanges() throws {
        for seed in UInt64(200)..<215 {
            let run = PatchedTrace.make(seed: seed, events: 60)
            let trace = try ReaderFixture.open(run.patched)
            for store in PatchedTrace.stores where trace.storeNames.contains(store) {
                guard let state = trace.state(of: store, atStep: trace.lastStep) else { continue }
                for tail in ValueHistoryVersionTwoTests.paths(in: state, depth: 2).prefix(8) {
                    let history = try ValueHistory(trace: trace, path: StatePath([.key(store)] + tail))
                    let text = ValueChangeText(width: 60, colors: seed % 2 == 0)
                    let wanted = Self.expected(history, after: nil, text)
                    #expect(Self.written(history, after: nil, text, partSize: 2) == wanted, "seed \(seed)")
                    #expect(Self.written(history, after: nil, text, partSize: 4096) == wanted, "seed \(seed)")
                }
            }
        }
    }

    @Test(arguments: [0, 7, 10, 99, 100, 537_734, Int.max, -1, Int.min])
    func stepsAndCausesAreWrittenAsStringWritesThem(number: Int) {
        var output: [UInt8] = [UInt8(ascii: "x")]
        ValueChangeText.appendDecimal(number, to: &output)
        #expect(String(decoding: output, as: UTF8.self) == "x" + String(number))
    }
}
