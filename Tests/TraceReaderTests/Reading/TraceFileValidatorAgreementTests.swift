import TestSupport
import Testing

@testable import TraceReader

/// The reader and `TraceValidator` read a damaged trace alike: the same events, the same lines
/// skipped as malformed or truncated. And reading a damaged trace never traps.
@Suite struct TraceFileValidatorAgreementTests {
    @Test func readerAndValidatorAgreeOnDamagedTraces() throws {
        var random = SeededGenerator(seed: 7)
        for round in 0..<400 {
            let file = DamagedTrace.make(using: &random)
            let report = TraceValidator().validate(bytes: file)
            let trace = try TraceFile(bytes: file)
            let skipped = Set(trace.issues.filter { $0.kind == .malformed || $0.kind == .truncated }.map(\.line))
            let problems = Set(report.problems.filter { $0.kind == .malformed || $0.kind == .truncated }.map(\.line))
            #expect(trace.eventCount == report.events, "round \(round)")
            #expect(skipped == problems, "round \(round)")
            for step in 0...(trace.lastStep + 1) { _ = trace.appState(atStep: step) }
            for index in 0..<trace.eventCount { #expect(trace.event(at: index) != nil, "round \(round)") }
        }
    }

    /// `TraceStream` gives the events `TraceFile` has (without states), each with the problems
    /// validation finds on its line, and ends with the report `TraceValidator` gives.
    @Test func streamAgreesWithReaderAndValidator() throws {
        var random = SeededGenerator(seed: 11)
        for round in 0..<400 {
            let file = DamagedTrace.make(using: &random)
            let report = TraceValidator().validate(bytes: file, file: "trace")
            let trace = try TraceFile(bytes: file)
            var events: [TraceEvent] = []
            var given: [Problem] = []
            let streamed = try TraceStream(bytes: file).forEachLine { line in
                if let event = line.event { events.append(event) }
                #expect(line.problems.allSatisfy { $0.line == line.line }, "round \(round)")
                given += line.problems
                return true
            }
            #expect(streamed == report, "round \(round)")
            #expect(events == (0..<trace.eventCount).compactMap { trace.eventWithoutState(at: $0) }, "round \(round)")
            // Every problem but those found at the end comes with its line, in the report's order.
            let onLines = report.problems.filter { $0.kind != .unresolved }
            #expect(given.map(\.line) == onLines.map(\.line), "round \(round)")
            #expect(given.map(\.kind) == onLines.map(\.kind), "round \(round)")
        }
    }

    /// A stream stops where its body says, and says what `TraceFile` says of a file that is not a trace.
    @Test func streamStopsWhenAskedAndRejectsWhatIsNotATrace() throws {
        var random = SeededGenerator(seed: 3)
        let file = DamagedTrace.make(using: &random)
        var seen = 0
        try TraceStream(bytes: file).forEachLine { _ in
            seen += 1
            return false
        }
        #expect(seen == 1)
        for bytes in [Array("nope\n".utf8), [], Array("{\"type\":\"header\"}\n".utf8)] {
            var opened: TraceOpenError?
            do { _ = try TraceFile(bytes: bytes, name: "t") } catch { opened = error }
            var streamed: TraceOpenError?
            do { try TraceStream(bytes: bytes, name: "t").forEachLine { _ in true } } catch { streamed = error }
            #expect(opened != nil && streamed == opened)
        }
    }
}

/// A small random trace with lines damaged in the ways files get damaged (also read by
/// `TraceStreamPipelineTests`).
enum DamagedTrace {
    static let header = Array(
        #"{"type":"header","format":"rewind-trace","version":1,"machines":{"CatalogStore":{"initial":"idle","transitions":{"idle":["loading"],"loading":["loaded","failed"],"loaded":["loading"],"failed":["loading"]}}}}"#
            .utf8)

    static func make(using random: inout SeededGenerator) -> [UInt8] {
        var file = header + [0x0A]
        let count = Int.random(in: 1...30, using: &random)
        for seq in 1...count {
            let store = ["CatalogStore", "Cart", "Caf\\u00e9"][Int.random(in: 0..<3, using: &random)]
            let line =
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    #"{"type":"register","seq":\#(seq),"store":"\#(store)","case":"idle","state":{"a":[1,2,{"b":null}]}}"#
                case 1:
                    #"{"type":"transition","seq":\#(seq),"store":"\#(store)","action":"go","from":"idle","to":"loading","changed":true,"state":"s","cause":1,"args":{"x":1}}"#
                case 2:
                    #"{"type":"transition","seq":\#(seq),"store":"\#(store)","action":"go","changed":false,"state":[\#(seq)],"elapsed":0.5}"#
                default: #"{"type":"note","seq":\#(seq),"store":1,"state":2}"#
                }
            file += damage(Array(line.utf8), seq: seq, using: &random)
            if seq < count || Int.random(in: 0..<3, using: &random) > 0 { file.append(0x0A) }
        }
        return file
    }

    private static func damage(_ line: [UInt8], seq: Int, using random: inout SeededGenerator) -> [UInt8] {
        var bytes = line
        let text = String(decoding: line, as: UTF8.self)
        switch Int.random(in: 0..<12, using: &random) {
        case 0: bytes.remove(at: Int.random(in: 0..<bytes.count, using: &random))
        case 1:
            let junk: [UInt8] = [0x00, 0xFF, 0x0D, 0x22, 0x5C, 0x7B, 0x7D, 0x2C, 0x20, 0xC3]
            bytes.insert(
                junk[Int.random(in: 0..<junk.count, using: &random)],
                at: Int.random(in: 0...bytes.count, using: &random))
        case 2: bytes = []
        case 3: bytes.append(0x0D)
        case 4: bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
        case 5:
            bytes = Array(
                text.replacing(#""seq":\#(seq)"#, with: #""seq":\#(Int.random(in: -2...40, using: &random))"#).utf8)
        case 6: bytes = Array(text.replacing(#""case":"idle","#, with: "").utf8)
        case 7: bytes = Array(text.replacing(#""changed":true"#, with: #""changed":1"#).utf8)
        case 8: bytes = [0x20, 0x20]
        default: break
        }
        return bytes
    }
}
