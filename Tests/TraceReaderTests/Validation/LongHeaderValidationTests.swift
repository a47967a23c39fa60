import TestSupport
import Testing

@testable import TraceReader

/// `HeaderScanner` reading a long `machines` on two threads (one from its start, the other from
/// guessed store boundaries) finds exactly what it finds on one: the same machines, at the same
/// bytes, and the same refusals, on random headers, malformed ones and ones that mislead the guess.
@Suite struct HeaderScannerSplitTests {
    /// The scan of `text` on one thread; shared with a second thread (split wherever `machines`
    /// is long enough); and shared with the second thread's part done first, so that every
    /// segment it read is joined.
    static func scans(_ text: [UInt8]) -> [HeaderScanner.Found?] {
        text.withUnsafeBytes { line in
            [
                HeaderScanner.scan(line, splitLength: .max), HeaderScanner.scan(line, splitLength: 0),
                HeaderScanner.scan(line, splitLength: 0, otherThreadFirst: true),
            ]
        }
    }

    static func expectSame(_ text: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let scans = scans(text)
        let shown = String(decoding: text, as: UTF8.self)
        for shared in scans.dropFirst() {
            #expect((scans[0] == nil) == (shared == nil), "\(shown)", sourceLocation: sourceLocation)
            guard let one = scans[0], let shared else { continue }
            #expect(one.version == shared.version, sourceLocation: sourceLocation)
            #expect(one.rules == shared.rules, sourceLocation: sourceLocation)
            #expect(one.machines.map(\.name) == shared.machines.map(\.name), "\(shown)", sourceLocation: sourceLocation)
            #expect(
                one.machines.map(\.range) == shared.machines.map(\.range), "\(shown)", sourceLocation: sourceLocation)
        }
        return scans[0] != nil
    }

    static func header(_ members: [(String, String)], after: String = "") -> [UInt8] {
        let written = members.map { #""\#($0.0)":\#($0.1)"# }.joined(separator: ",")
        return Array(#"{"type":"header","format":"rewind-trace","version":1,"machines":{\#(written)}\#(after)}"#.utf8)
    }

    /// A random machine of `caseCount` cases, written with random spacing, and sometimes wrong
    /// (`flaw` 1–4) or carrying a member that looks like the start of a store (5).
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
        case 4: transitions[0] += "]"
        case 5: transitions.shuffle(using: &random)
        default: break
        }
        let note = flaw == 5 ? #","note":{"a":{}, "Store":{"initial":"x"}}"# : ""
        return
            #"{\#(space())"initial":"\#(initial)",\#(space())"transitions":{\#(transitions.joined(separator: ","))}\#(note)}"#
    }

    @Test(arguments: 0..<4)
    func randomHeadersAreReadAlikeOnOneThreadOrTwo(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var accepted = 0
        var refused = 0
        for _ in 0..<300 {
            let count = Int.random(in: 1...24, using: &random)
            var members: [(String, String)] = (0..<count).map { index in
                let flaw = Int.random(in: 0..<40, using: &random)
                return (
                    "Store\(index)",
                    Self.machine(
                        caseCount: Int.random(in: 1...15, using: &random), flaw: flaw < 6 ? flaw : 0, using: &random)
                )
            }
            if Int.random(in: 0..<20, using: &random) == 0 {
                // A store named twice, anywhere.
                members.append((members.randomElement(using: &random)!.0, members[0].1))
            }
            let after = [
                "", #","app":"Shop""#, #","rules":[{"store":"Store0","case":"c0","within":{"events":2}}]"#,
                #","x":{"y":{},"z":{"initial":"c0"}}"#,
            ].randomElement(using: &random)!
            if Self.expectSame(Self.header(members, after: after)) { accepted += 1 } else { refused += 1 }
        }
        #expect(accepted > 50)
        #expect(refused > 20)
    }

    /// One byte changed anywhere in a header of many machines: read alike either way.
    @Test func editedHeadersAreReadAlikeOnOneThreadOrTwo() {
        var random = SeededGenerator(seed: 11)
        let members = (0..<12).map { ("S\($0)", Self.machine(caseCount: 6, flaw: 0, using: &random)) }
        let base = Self.header(members)
        let pieces: [UInt8] = Array("{}[]\":, \\a1".utf8) + [0x01, 0xC3]
        var accepted = 0
        for _ in 0..<2000 {
            var text = base
            let at = Int.random(in: 0..<text.count, using: &random)
            if Bool.random(using: &random) {
                text[at] = pieces.randomElement(using: &random)!
            } else {
                text.remove(at: at)
            }
            if Self.expectSame(text) { accepted += 1 }
        }
        #expect(accepted > 40)
    }

    @Test func aStoreNamedInBothHalvesIsRefused() {
        var random = SeededGenerator(seed: 3)
        let machine = Self.machine(caseCount: 5, flaw: 0, using: &random)
        let names = ["A", "B", "C", "D", "E", "F", "G", "A"]
        let text = Self.header(names.map { ($0, machine) })
        #expect(Self.scans(text).allSatisfy { $0 == nil })
        let distinct = Self.header(names.dropLast().map { ($0, machine) } + [("H", machine)])
        for found in Self.scans(distinct) {
            #expect(found?.machines.map(\.name) == ["A", "B", "C", "D", "E", "F", "G", "H"])
        }
    }
}

/// Validation of a header long enough to be read on two threads: the machines of the second
/// half are checked and used as those of the first, and a wrong one anywhere is `not-a-trace`.
@Suite struct LongHeaderValidationTests {
    static func trace(wrongAt wrong: Int?) -> [UInt8] {
        var machines: [String] = []
        for index in 0..<2000 {
            var cases = (0..<40).map { #""c\#($0)":["c\#(($0 + 1 + index % 2) % 40)"]"# }
            if index == wrong { cases[5] = #""c5":["c40"]"# }
            machines.append(#""S\#(index)":{"initial":"c0","transitions":{\#(cases.joined(separator: ","))}}"#)
        }
        let header =
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{\#(machines.joined(separator: ","))}}"#
        let events = [
            #"{"type":"register","seq":1,"store":"S1901","case":"c0","state":0}"#,
            #"{"type":"transition","seq":2,"store":"S1901","action":"go","from":"c0","to":"c1","changed":true,"state":1}"#,
            #"{"type":"transition","seq":3,"store":"S1901","action":"go","from":"c1","to":"c3","changed":true,"state":2}"#,
        ]
        return Array(([header] + events).joined(separator: "\n").utf8) + [0x0A]
    }

    @Test func theMachinesOfALongHeaderAreCheckedAndUsed() throws {
        let bytes = Self.trace(wrongAt: nil)
        #expect(bytes.count > HeaderScanner.defaultSplitLength)
        let file = try ValidationTemporaryFile(bytes)
        let report = try TraceValidator().validate(file: file.path)
        // S1901 (odd) may go c0 → c2, c1 → c3: the first step (line 3) is illegal, the second allowed.
        #expect(report.problems.map(\.kind) == [.illegal], "\(report.problems)")
        #expect(report.problems.map(\.line) == [3])
        for wrong in [3, 1950] {
            let wrongFile = try ValidationTemporaryFile(Self.trace(wrongAt: wrong))
            let wrongReport = try TraceValidator().validate(file: wrongFile.path)
            #expect(wrongReport.problems.map(\.kind) == [.notATrace], "\(wrongReport.problems)")
            #expect(wrongReport.problems.first?.message.contains("S\(wrong)") == true, "\(wrongReport.problems)")
        }
    }
}
