import Foundation
import TestSupport
import Testing

@testable import TraceReader

/// Traces generated at random with every feature of the format's version 2 page (restores,
/// machines carried by registers, patches good and bad, rules over time, the newer keys and their
/// wrong types, unknown event types, seq edge cases), validated and compared with
/// `ReferenceChecker`'s reading of the page: every problem (kind, line, seq, store) and the
/// number of events.
@Suite struct GeneratedTraceTests {
    typealias Found = ValidationTesting.Found

    @Test(arguments: 0..<16)
    func generatedTracesAgreeWithTheReference(batch: Int) throws {
        for index in 0..<50 {
            let seed = UInt64(batch * 50 + index)
            var random = SeededGenerator(seed: seed &* 104_729 &+ 17)
            let trace = GeneratedTrace.make(using: &random)
            let validator = try trace.validator()
            let report = validator.validate(bytes: trace.bytes)
            let expected = ReferenceChecker.check(trace.bytes, spec: trace.spec)
            #expect(
                report.problems.map(Found.init) == expected.problems,
                "seed \(seed), spec \(trace.spec ?? "none"):\n\(String(decoding: trace.bytes, as: UTF8.self))")
            #expect(report.events == expected.events, "seed \(seed)")
            #expect(report.errors + report.warnings == report.problems.count)
        }
    }

    /// The kinds the generated traces show: every kind of the page but `not-a-trace` (rare on
    /// purpose) and this project's `cause-loop`.
    @Test func theGeneratedTracesShowEveryKind() throws {
        var kinds: Set<ProblemKind> = []
        for seed in UInt64(0)..<400 {
            var random = SeededGenerator(seed: seed &* 104_729 &+ 17)
            let trace = GeneratedTrace.make(using: &random)
            kinds.formUnion(try trace.validator().validate(bytes: trace.bytes).problems.map(\.kind))
        }
        #expect(kinds.isSuperset(of: Set(ProblemKind.allCases).subtracting([.causeLoop])))
    }

    /// The parallel scan (parts on several threads) and the scan of a file agree with the scan of
    /// bytes on generated traces, the fast path (lines in the recorder's layout) and the general
    /// scan alike.
    @Test func theParallelScanAgreesOnGeneratedTraces() throws {
        var random = SeededGenerator(seed: 4242)
        var bytes: [UInt8] = []
        var spec: String?
        // One long trace: a header, then the bodies of several generated traces of the same header.
        for round in 0..<40 {
            let trace = GeneratedTrace.make(using: &random, header: round == 0 ? nil : bytes, version: 2)
            if round == 0 {
                bytes = trace.bytes
                spec = trace.spec
            } else {
                bytes += trace.body
            }
            if bytes.last != 0x0A { bytes.append(0x0A) }
        }
        let folder = try ValidationTemporaryFile(bytes)
        let contents = try spec.map { try SpecFile.contents(of: Array($0.utf8), file: "spec.json") }
        var parallel = TraceValidator(machines: contents?.machines ?? [:], rules: contents?.rules)
        parallel.parallelism = 3
        parallel.parallelThreshold = 0
        parallel.blockSize = 900
        let sequential = parallel.validate(bytes: bytes, file: folder.path)
        let fromFile = try parallel.validate(file: folder.path)
        #expect(fromFile == sequential)
        #expect(sequential.problems.map(Found.init) == ReferenceChecker.problems(bytes, spec: spec))
        #expect(sequential.problems.count > 20)
    }
}

/// A random trace of the format's version 1 or 2, written line by line as a writer (or a damaged
/// file) might, and an optional spec file.
struct GeneratedTrace {
    var bytes: [UInt8]
    /// The lines after the header.
    var body: [UInt8]
    var spec: String?

    /// The validator with the spec's machines and rules.
    func validator() throws -> TraceValidator {
        guard let spec else { return TraceValidator() }
        let contents = try SpecFile.contents(of: Array(spec.utf8), file: "spec.json")
        return TraceValidator(machines: contents.machines, rules: contents.rules)
    }

    static let door =
        #"{"initial":"closed","transitions":{"closed":["open","locked"],"open":["closed","open"],"locked":["closed"]}}"#
    static let panel = #"{"initial":"off","transitions":{"off":["on"],"on":["off","on"]}}"#

    static func make(using random: inout SeededGenerator, header given: [UInt8]? = nil, version given2: Int? = nil)
        -> GeneratedTrace
    {
        func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
        func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }

        let version = given2 ?? (chance(70) ? 2 : 1)
        var lines: [String] = []
        if given == nil {
            var machines: [String] = []
            if chance(80) { machines.append(#""Door":\#(door)"#) }
            if chance(15) { machines.append(#""Panel":\#(panel)"#) }
            var rules: [String] = []
            if chance(60) { rules.append(#"{"store":"Door","case":"open","within":{"events":2}}"#) }
            if chance(50) { rules.append(#"{"store":"Door","case":"open","within":{"seconds":0.5}}"#) }
            if chance(40) { rules.append(#"{"store":"Panel","case":"on","within":{"events":1,"seconds":1}}"#) }
            if chance(40) { rules.append(#"{"store":"Door","notAtEnd":["locked","open"]}"#) }
            if chance(40) { rules.append(#"{"store":"Panel","notAtEnd":["on"]}"#) }
            if chance(10) { rules.append(#"{"store":"Door","case":"nowhere","within":{"events":1}}"#) }
            if chance(2) { rules.append(#"{"store":"Door","within":{"events":0}}"#) }  // not shaped
            let rulesMember = rules.isEmpty && chance(50) ? "" : #","rules":[\#(rules.joined(separator: ","))]"#
            lines.append(
                #"{"type":"header","format":"rewind-trace","version":\#(version),"machines":{\#(machines.joined(separator: ","))}\#(rulesMember)}"#
            )
        }

        var spec: String?
        if given == nil && chance(20) {
            let rules =
                chance(50)
                ? "" : #","rules":[\#(chance(50) ? #"{"store":"Cart","notAtEnd":["full"]}"# : "")]"#
            spec =
                #"{"machines":{"Cart":{"initial":"empty","transitions":{"empty":["full"],"full":["empty"]}}}\#(rules)}"#
        }

        let stores = ["Door", "Door", "Panel", "Cart", "Ghost"]
        let cases = ["closed", "open", "locked", "off", "on", "empty", "full", "ghost"]
        var seq = 0
        var elapsed = 0.0
        for _ in 0..<Int.random(in: 3...30, using: &random) {
            seq += 1
            if chance(4) { seq += pick([-2, -1, 1, 3]) }
            var seqText = String(seq)
            if chance(1) {
                seqText = pick(["9223372036854775807", "-9223372036854775808", "\"7\"", "1.5", "99999999999999999999"])
            }
            elapsed += Double(Int.random(in: 0...40, using: &random)) / 100
            let elapsedMember = chance(85) ? #","elapsed":\#(elapsed)"# : (chance(10) ? #","elapsed":"0.1""# : "")
            let store = pick(stores)
            let storeMember = chance(97) ? #","store":"\#(store)""# : (chance(50) ? #","store":3"# : "")
            func caseText() -> String { pick(cases) }
            func state() -> String { #"{"n":\#(Int.random(in: 0...3, using: &random)),"items":["a","b"]}"# }
            func patch() -> String {
                var operations: [String] = []
                for _ in 0..<Int.random(in: 0...3, using: &random) {
                    operations.append(
                        pick([
                            #"{"op":"replace","path":"/n","value":\#(Int.random(in: 0...3, using: &random))}"#,
                            #"{"op":"add","path":"/items/-","value":"c"}"#,
                            #"{"op":"remove","path":"/items/0"}"#,
                            #"{"op":"test","path":"/n","value":1}"#,
                            #"{"op":"copy","from":"/n","path":"/m"}"#,
                            #"{"op":"move","from":"/m","path":"/k"}"#,
                            #"{"op":"add","path":"/a~1b","value":[]}"#,
                            #"{"op":"remove","path":"/a~1b"}"#,
                            #"{"op":"replace","path":"/items/5","value":1}"#,
                            #"{"op":"frob","path":"/n"}"#,
                            #"{"op":"add","path":"/n"}"#,
                            #"{"op":"replace","path":"n","value":1}"#,
                            #"{"op":"remove","path":"/x~2"}"#,
                            #"{"op":"replace","path":"","value":{"n":0,"items":[]}}"#,
                        ]))
                }
                if chance(3) {
                    return pick([#"{"op":"add"}"#, #"[{"op":1,"path":"/n"}]"#, #"[1]"#, #"[{"path":"/n"}]"#])
                }
                return "[" + operations.joined(separator: ",") + "]"
            }
            var line: String
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<22:
                var members = ""
                if chance(85) { members += #","case":"\#(caseText())""# }
                if store == "Panel" || chance(10) {
                    if chance(70) {
                        members += #","machine":\#(panel)"#
                    } else if chance(30) {
                        members += #","machine":{"initial":"x","transitions":{}}"#
                    }
                }
                line =
                    #"{"type":"register","seq":\#(seqText)\#(elapsedMember)\#(storeMember)\#(members),"state":\#(state())}"#
            case 22..<32:
                var members = chance(85) ? #","case":"\#(caseText())""# : ""
                if chance(20) {
                    members += pick([#","step":4"#, #","trace":"a.jsonl""#, #","step":"4""#, #","trace":2"#])
                }
                if chance(5) { members += #","machine":\#(panel)"# }
                line =
                    #"{"type":"restore","seq":\#(seqText)\#(elapsedMember)\#(storeMember)\#(members),"state":\#(state())}"#
            case 32..<90:
                var members = #","action":"act""#
                if chance(85) { members += #","from":"\#(caseText())""# }
                if chance(85) { members += #","to":"\#(caseText())""# }
                members += #","changed":true"#
                let body = Int.random(in: 0..<100, using: &random)
                if version == 1 || body < 30 || body >= 97 { members += #","state":\#(state())"# }
                if (version == 2 && body >= 30) || chance(3) { members += #","patch":\#(patch())"# }
                if chance(15) { members += pick([#","stack":["f (A.swift:1)"]"#, #","stack":[1]"#, #","cause":1"#]) }
                line = #"{"type":"transition","seq":\#(seqText)\#(elapsedMember)\#(storeMember)\#(members)}"#
            case 90..<96:
                line = #"{"type":"note","seq":\#(seqText)\#(elapsedMember)\#(chance(50) ? storeMember : "")}"#
            default:
                line = pick(["", "{oops", #"{"type":"transition"}"#, "[1]", #"{"seq":\#(seqText)}"#])
            }
            lines.append(line)
        }
        var terminated = chance(95)
        if given == nil && chance(8), let last = lines.last, last.count > 2 {
            // A write cut short: the last line torn, without its `\n`.
            lines[lines.count - 1] = String(last.prefix(Int.random(in: 1..<last.count, using: &random)))
            terminated = false
        }
        let text = lines.joined(separator: "\n") + (terminated ? "\n" : "")
        let body = Array(text.utf8)
        return GeneratedTrace(bytes: (given ?? []) + body, body: body, spec: spec)
    }
}
