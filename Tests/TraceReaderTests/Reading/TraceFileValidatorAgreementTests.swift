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
}

/// A small random trace with lines damaged in the ways files get damaged.
private enum DamagedTrace {
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
