import TestSupport
import Testing

@testable import TraceReader

/// `HeaderScanner` reading a long `machines` on two threads (from its start, and from a guessed
/// store boundary half way) finds exactly what it finds on one: the same machines, at the same
/// bytes, and the same refusals, on random headers, malformed ones and ones that mislead the guess.
@Suite struct HeaderScannerSplitTests {
    /// The scan of `text` on one thread and on two (split wherever `machines` is long enough).
    static func scans(_ text: [UInt8]) -> (one: HeaderScanner.Found?, two: HeaderScanner.Found?) {
        text.withUnsafeBytes { line in
            (HeaderScanner.scan(line, splitLength: .max), HeaderScanner.scan(line, splitLength: 0))
        }
    }

    static func expectSame(_ text: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let (one, two) = scans(text)
        let shown = String(decoding: text, as: UTF8.self)
        #expect((one == nil) == (two == nil), "\(shown)", sourceLocation: sourceLocation)
        guard let one, let two else { return false }
        #expect(one.version == two.version, sourceLocation: sourceLocation)
        #expect(one.rules == two.rules, sourceLocation: sourceLocation)
        #expect(one.machines.map(\.name) == two.machines.map(\.name), "\(shown)", sourceLocation: sourceLocation)
        #expect(one.machines.map(\.range) == two.machines.map(\.range), "\(shown)", sourceLocation: sourceLocation)
        return true
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
        #expect(Self.scans(text).two == nil)
        #expect(Self.scans(text).one == nil)
        let distinct = Self.header(names.dropLast().map { ($0, machine) } + [("H", machine)])
        #expect(Self.scans(distinct).two?.machines.map(\.name) == ["A", "B", "C", "D", "E", "F", "G", "H"])
    }
}
