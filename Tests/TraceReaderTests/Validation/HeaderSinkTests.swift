@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing

@testable import Recorder
@testable import TraceJSON
@testable import TraceReader

/// `HeaderSink`, the validator's fast reading of a header, accepts only what
/// `TraceHeader.parse` accepts, with the same version, rules and machines; and validation gives
/// the same report whether it reads the header fast or with `TraceHeader.parse`.
@Suite struct HeaderSinkTests {
    static let common =
        #"{"type":"header","format":"rewind-trace","version":1,"app":"Shop","started":"2026-11-22T10:15:00.123Z","machines":{"Door":{"initial":"closed","transitions":{"closed":["open","locked"],"open":["closed"],"locked":["closed"]}},"Cart":{"initial":"empty","transitions":{"empty":["full"],"full":["empty","full"]},"note":[1,{"x":null}]}},"rules":[{"store":"Door","case":"open","within":{"events":2}}]}"#

    /// Whether the sink and the parser agree on `text`: the sink accepts only what the
    /// parser accepts, with the same meaning.
    static func expectAgreement(_ text: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        ByteView.withBytes(of: text) { line in
            guard let found = HeaderSink.scan(line) else { return false }
            guard let header = try? TraceHeader.parse(line) else {
                Issue.record(
                    "the sink accepted a header the parser refuses: \(String(decoding: text, as: UTF8.self))",
                    sourceLocation: sourceLocation)
                return true
            }
            #expect(found.version == header.version, sourceLocation: sourceLocation)
            #expect(found.rules == header.rules, sourceLocation: sourceLocation)
            #expect(found.machines.map(\.name) == header.machineOrder, sourceLocation: sourceLocation)
            for (name, range) in found.machines {
                let spec = (try? JSONParser.parse(line[range].array)).flatMap {
                    try? TraceHeader.parseMachine($0, name: name)
                }
                #expect(spec == header.machines[name], "\(name)", sourceLocation: sourceLocation)
            }
            return true
        }
    }

    @Test func readsTheCommonHeadersFast() throws {
        #expect(Self.expectAgreement(Array(Self.common.utf8)))
        let sink = MemorySink()
        _ = try TraceRecorder(sink: sink, app: "Shop", machines: ["Door": ValidationFixtures.Door.self])
        #expect(Self.expectAgreement(Array(sink.lines[0].utf8)))
        let spaced = #" { "type" : "header" , "format":"rewind-trace","version":2,"machines":{ }, "x" : { } }"# + "\r"
        #expect(Self.expectAgreement(Array(spaced.utf8)))
    }

    /// Headers one edit away from a valid one: wherever the sink accepts, the parser agrees.
    @Test(arguments: 0..<4)
    func editedHeadersNeverMakeTheSinkDisagree(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let base = Array(Self.common.utf8)
        let pieces: [[UInt8]] = [
            "{", "}", "[", "]", "\"", ":", ",", " ", "\\", "\\u0061", "a", "1", "é", "\u{01}", "null",
            #""closed""#, #""initial":"open""#, #""version":2"#, #""type":"header""#, "[[[[", "]]]]",
        ].map { Array($0.utf8) }
        var accepted = 0
        for _ in 0..<3000 {
            var text = base
            for _ in 0...Int.random(in: 0...1, using: &random) {
                let at = Int.random(in: 0..<text.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: text.remove(at: at)
                case 1: text.insert(contentsOf: pieces.randomElement(using: &random)!, at: at)
                default: text.replaceSubrange(at..<min(text.count, at + 4), with: pieces.randomElement(using: &random)!)
                }
            }
            if Self.expectAgreement(text) { accepted += 1 }
        }
        // Many edits leave the header valid (inside an ignored value, a case renamed everywhere…).
        #expect(accepted > 100)
    }

    @Test func readingAHeaderFastOrByTheParserGivesTheSameReport() throws {
        let trace = try ValidationFixtures.recordedTrace(seed: 7, actions: 200)
        var lines = String(decoding: trace, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let fast = TraceValidator().validate(bytes: trace)
        // An escape in the format's name: the same header, which only the parser reads.
        lines[0] = Substring(lines[0].replacingOccurrences(of: #""rewind-trace""#, with: #""rewind-tr\u0061ce""#))
        let slow = TraceValidator().validate(bytes: Array(lines.joined(separator: "\n").utf8))
        #expect(fast == slow)
        #expect(fast.events > 100)
    }

    @Test func aHeaderOfThousandsOfMachinesBuildsOnlyThoseOfStoresThatAppear() {
        var machines: [String] = []
        for index in 0..<300 {
            let cases = (0..<20).map { #""c\#($0)":["c\#(($0 + 1) % 20)","c\#(($0 + 7) % 20)"]"# }
            machines.append(#""S\#(index)":{"initial":"c0","transitions":{\#(cases.joined(separator: ","))}}"#)
        }
        let header =
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{\#(machines.joined(separator: ","))}}"#
        #expect(Self.expectAgreement(Array(header.utf8)))
        let events = [
            #"{"type":"register","seq":1,"store":"S17","case":"c0","state":0}"#,
            #"{"type":"transition","seq":2,"store":"S17","action":"go","from":"c0","to":"c7","changed":true,"state":1}"#,
            #"{"type":"transition","seq":3,"store":"S17","action":"go","from":"c7","to":"c9","changed":true,"state":2}"#,
        ]
        let report = TraceValidator().validate(bytes: Array(([header] + events).joined(separator: "\n").utf8) + [0x0A])
        #expect(report.problems.map(\.kind) == [.illegal])
        #expect(report.problems.first?.message.contains("from c7 it may go to c8, c14") == true, "\(report.problems)")
    }

    @Test func aMachineWrittenAgainIsCheckedOnceAndStillReadAsWritten() {
        let door = #"{"initial":"closed","transitions":{"closed":["open","locked"],"open":["closed"],"locked":[]}}"#
        // The same first 32 bytes as `door`, another machine.
        let other = #"{"initial":"closed","transitions":{"closed":["open"],"open":["closed"]}}"#
        func header(_ machines: [(String, String)]) -> [UInt8] {
            let members = machines.map { #""\#($0.0)":\#($0.1)"# }.joined(separator: ",")
            return Array(#"{"type":"header","format":"rewind-trace","version":1,"machines":{\#(members)}}"#.utf8)
        }
        let repeated = header([("A", door), ("B", door), ("C", other), ("D", door), ("E", other), ("F", door)])
        #expect(Self.expectAgreement(repeated))
        let found = ByteView.withBytes(of: repeated) { HeaderSink.scan($0) }
        #expect(found?.machines.map { $0.range.count } == [door, door, other, door, other, door].map(\.utf8.count))

        // Machines that begin as a checked one but differ after: each still checked in full.
        let dangling = door.replacingOccurrences(of: #""locked":[]"#, with: #""locked":["gone"]"#)
        let duplicateCase = door.replacingOccurrences(of: #""locked":[]"#, with: #""open":[]"#)
        for wrong in [dangling, duplicateCase, door + "x", String(door.dropLast())] {
            let text = header([("A", door), ("B", wrong)])
            #expect(ByteView.withBytes(of: text) { HeaderSink.scan($0) } == nil, "\(wrong)")
            #expect(throws: TraceHeaderError.self) { try ByteView.withBytes(of: text) { try TraceHeader.parse($0) } }
        }
    }

    @Test func aFilesHeaderMachinesAreReadBackFromTheFileAsWritten() throws {
        // From a regular file, the header's machines are read again at their offsets when
        // built, instead of from a copy of line 1: the first, a middle and the last machine.
        var machines: [String] = []
        for index in 0..<50 {
            let cases = (0..<10).map { #""c\#($0)":["c\#(($0 + 1 + index % 3) % 10)"]"# }
            machines.append(#""S\#(index)": {"initial":"c0", "transitions":{\#(cases.joined(separator: ","))}}"#)
        }
        let header =
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{\#(machines.joined(separator: ", "))}}"#
        var events: [String] = []
        for (seq, store) in ["S0", "S25", "S49"].enumerated() {
            events.append(#"{"type":"register","seq":\#(seq * 3 + 1),"store":"\#(store)","case":"c0","state":0}"#)
            for step in 1...2 {
                events.append(
                    #"{"type":"transition","seq":\#(seq * 3 + 1 + step),"store":"\#(store)","action":"go","from":"c\#(step - 1)","to":"c\#(step)","changed":true,"state":1}"#
                )
            }
        }
        let bytes = Array(([header] + events).joined(separator: "\n").utf8) + [0x0A]
        let file = try ValidationTemporaryFile(bytes)
        let fromFile = try TraceValidator().validate(file: file.path)
        let fromBytes = TraceValidator().validate(bytes: bytes, file: file.path)
        #expect(fromFile == fromBytes)
        // S0 may go c0 → c1 → c2; S25 and S49 (index % 3 == 1) only c0 → c2 and c1 → c3: both of
        // their steps are illegal, on lines 6, 7, 9 and 10.
        #expect(fromFile.problems.map(\.kind) == Array(repeating: .illegal, count: 4), "\(fromFile.problems)")
        #expect(fromFile.problems.map(\.line) == [6, 7, 9, 10])
        #expect(fromFile.events == 9)
    }

    /// Names are looked up by their first 16 bytes as two words (a longer one by its hash and
    /// bytes): names of every length up to past 16 that differ only in their last byte are told
    /// apart, whether read in two loads or, near the end of the line, byte by byte.
    @Test func caseNamesOfEveryLengthAreToldApart() {
        for length in 1...24 {
            let stem = String(repeating: "n", count: length - 1)
            let (a, b, c) = (stem + "a", stem + "b", stem + "c")
            func header(_ transitions: String, after: String) -> [UInt8] {
                let machine = #"{"initial":"\#(a)","transitions":{\#(transitions)}}"#
                return Array(
                    #"{"type":"header","format":"rewind-trace","version":1,"machines":{"S":\#(machine)}\#(after)}"#.utf8
                )
            }
            // Far from the end of the line (a long member after the machines), and at its end.
            for after in [#","app":"\#(String(repeating: "x", count: 40))""#, ""] {
                let good = header(#""\#(a)":["\#(b)"],"\#(b)":["\#(a)","\#(b)"]"#, after: after)
                #expect(Self.expectAgreement(good), "\(length)")
                for wrong in [#""\#(a)":["\#(c)"],"\#(b)":[]"#, #""\#(a)":["\#(b)"],"\#(a)":[]"#] {
                    let text = header(wrong, after: after)
                    #expect(ByteView.withBytes(of: text) { HeaderSink.scan($0) } == nil, "\(length) \(wrong)")
                }
            }
        }
    }

    /// What the sink does not follow (a name with an escape or outside ASCII, where comparing
    /// bytes is not comparing `String`s) it leaves to the parser, which reads the same header.
    @Test func namesItDoesNotFollowAreLeftToTheParser() {
        let common = Self.common
        for (plain, other) in [
            (#""type":"header""#, #""typ\u0065":"header""#),
            (#""machines":{"Door""#, #""machines":{"D\u006Fr""#),
            (#""machines":{"Door""#, #""machines":{"K\#u{212A}""#),
            (#""initial":"closed""#, #""initi\u0061l":"closed""#),
            (#""initial":"closed""#, #""initial":"cl\u006Fsed""#),
            (#""open":["closed"]"#, #""open":["\u0063losed"]"#),
        ] {
            let text = Array(common.replacingOccurrences(of: plain, with: other).utf8)
            #expect(text != Array(common.utf8), "\(other)")
            #expect(ByteView.withBytes(of: text) { HeaderSink.scan($0) } == nil, "\(other)")
            #expect(ByteView.withBytes(of: text) { (try? TraceHeader.parse($0)) != nil }, "\(other)")
        }
    }

    /// The walker checks the whole line, so nesting in a member the sink does not look at
    /// counts from the line's start, as the parser counts it: the sink accepts a header nested
    /// as deep as the parser allows and refuses one nested deeper.
    @Test func nestingInAMemberItSkipsCountsFromTheLineStart() {
        // The machine's ignored member is at depth 3 (header, machines, machine).
        for (depth, member) in [(1, #""x":"#), (3, #""note":"#)] {
            for nested in JSONParser.maximumDepth - depth - 1...JSONParser.maximumDepth - depth + 1 {
                let value = String(repeating: "[", count: nested) + String(repeating: "]", count: nested)
                let text =
                    depth == 1
                    ? Self.common.replacingOccurrences(of: #""app":"#, with: member + value + #","app":"#)
                    : Self.common.replacingOccurrences(of: #""note":"#, with: member + value + #","other":"#)
                let bytes = Array(text.utf8)
                let parsed = ByteView.withBytes(of: bytes) { (try? TraceHeader.parse($0)) != nil }
                #expect(parsed == (nested <= JSONParser.maximumDepth - depth), "\(depth) \(nested)")
                #expect(Self.expectAgreement(bytes) == parsed, "\(depth) \(nested)")
            }
        }
    }

    /// A random machine of `caseCount` cases, written with random spacing, and sometimes wrong
    /// (`flaw` 1–4) or carrying a member that looks like a machine (5).
    static func machine(caseCount: Int, flaw: Int, using random: inout SeededGenerator) -> String {
        let long = Bool.random(using: &random)
        let names = (0..<caseCount).map { long ? "case_with_a_long_name_\($0)" : "c\($0)" }
        func space() -> String { Int.random(in: 0..<6, using: &random) == 0 ? " " : "" }
        var transitions = names.map { name in
            let targets = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                "\"\(names.randomElement(using: &random)!)\""
            }
            return "\"\(name)\"\(space()):\(space())[\(targets.joined(separator: ",\(space())"))]"
        }
        var initial = names.randomElement(using: &random)!
        switch flaw {
        case 1: transitions.append(#""\#(names[0])":[]"#)  // a case twice
        case 2: transitions.append(#""extra":["gone"]"#)  // a target that is not a case
        case 3: initial = "nowhere"
        case 4: transitions[0] += "]"  // not JSON
        case 5: transitions.shuffle(using: &random)
        default: break
        }
        let note = flaw == 5 ? #","note":{"a":{}, "Store":{"initial":"x"}}"# : ""
        return
            #"{\#(space())"initial":"\#(initial)",\#(space())"transitions":{\#(transitions.joined(separator: ","))}\#(note)}"#
    }

    /// Random headers of plain names, with flawed machines, machines written again byte for byte
    /// (checked once) and stores named twice: the sink reads exactly those the parser reads.
    @Test(arguments: 0..<4)
    func randomHeadersAreReadByTheSinkExactlyWhenTheParserReadsThem(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var accepted = 0
        var refused = 0
        for _ in 0..<300 {
            var members: [(String, String)] = []
            for index in 0..<Int.random(in: 1...24, using: &random) {
                if !members.isEmpty && Int.random(in: 0..<3, using: &random) == 0 {
                    members.append(("Store\(index)", members.randomElement(using: &random)!.1))
                    continue
                }
                let flaw = Int.random(in: 0..<40, using: &random)
                let caseCount = Int.random(in: 1...15, using: &random)
                members.append(
                    ("Store\(index)", Self.machine(caseCount: caseCount, flaw: flaw < 6 ? flaw : 0, using: &random)))
            }
            if Int.random(in: 0..<20, using: &random) == 0 {
                members.append((members.randomElement(using: &random)!.0, members[0].1))  // a store twice
            }
            let after = [
                "", #","app":"Shop""#, #","rules":[{"store":"Store0","case":"c0","within":{"events":2}}]"#,
                #","x":{"y":{},"z":{"initial":"c0"}}"#,
            ].randomElement(using: &random)!
            let written = members.map { #""\#($0.0)":\#($0.1)"# }.joined(separator: ",")
            let text = Array(
                #"{"type":"header","format":"rewind-trace","version":1,"machines":{\#(written)}\#(after)}"#.utf8)
            let parsed = ByteView.withBytes(of: text) { (try? TraceHeader.parse($0)) != nil }
            #expect(Self.expectAgreement(text) == parsed, "\(String(decoding: text, as: UTF8.self))")
            if parsed { accepted += 1 } else { refused += 1 }
        }
        #expect(accepted > 50)
        #expect(refused > 20)
    }
}
