@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing

@testable import TraceJSON

/// `ValueLocator.skipValid` (values stepped over by their quotes and brackets, unchecked) ends a
/// valid JSON value where `JSONSyntax.skipValue` (which checks it) ends it, and `locate` finds
/// what `StatePath.resolve(in:)` finds in the parsed value.
@Suite struct ValueLocatorTests {
    /// A random valid JSON text, with escapes (quotes and backslashes among them), whitespace,
    /// numbers in every form and nested containers.
    static func text(_ random: inout SeededGenerator, depth: Int = 0) -> String {
        let space = [" ", "", "", "\n\t "].randomElement(using: &random)!
        switch Int.random(in: 0..<(depth < 3 ? 9 : 6), using: &random) {
        case 0: return ["true", "false", "null"].randomElement(using: &random)!
        case 1: return ["0", "-1", "12.5", "1e400", "-0.25E-3", "7"].randomElement(using: &random)!
        case 2, 3, 4:
            let pieces = [#"\""#, #"\\"#, "a", "é", #"\u0041"#, "]", "}", ",", #"\/"#, " ", "\\\\\\\""]
            let count = Int.random(in: 0...4, using: &random)
            return "\"" + (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined() + "\""
        case 5: return "[]"
        case 6, 7:
            let members = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                text(&random, depth: 5) + space + ":" + space + text(&random, depth: depth + 1)
            }
            // Member names are strings: keep only those whose name is one.
            let valid = members.filter { $0.hasPrefix("\"") }
            return "{" + space + valid.joined(separator: "," + space) + space + "}"
        default:
            let elements = (0..<Int.random(in: 1...3, using: &random)).map { _ in text(&random, depth: depth + 1) }
            return "[" + space + elements.joined(separator: space + "," + space) + space + "]"
        }
    }

    @Test(arguments: UInt64(1)...40)
    func validValuesEndWhereTheCheckingScannerEndsThem(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<50 {
            let value = Self.text(&random)
            let bytes = Array((value + [",1]", "}", " ,", ""].randomElement(using: &random)!).utf8)
            try bytes.withUnsafeBytes { buffer in
                let checked = try JSONSyntax.skipValue(in: buffer, at: 0)
                #expect(ValueLocator.skipValid(ByteView(buffer), at: 0, end: buffer.count) == checked, "\(value)")
            }
        }
    }

    @Test(arguments: UInt64(1)...10)
    func anyBytesEndInsideTheRangeOrNowhere(seed: UInt64) {
        // Not JSON (a line cut short, a file changed while read): no crash, no end past the range.
        var random = SeededGenerator(seed: seed)
        let alphabet = Array(#"{}[]",:\ a1"#.utf8)
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0...24, using: &random)).map { _ in alphabet.randomElement(using: &random)!
            }
            bytes.withUnsafeBytes { buffer in
                for start in 0..<buffer.count {
                    let end = Int.random(in: start...buffer.count, using: &random)
                    if let found = ValueLocator.skipValid(ByteView(buffer), at: start, end: end) {
                        #expect(found > start && found <= end, "\(bytes) from \(start) to \(end)")
                    }
                }
            }
        }
    }

    @Test(arguments: UInt64(1)...20)
    func locatedValuesAreThoseThePathResolvesTo(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<30 {
            let text = Self.text(&random)
            guard let parsed = try? JSONParser.parse(Array(text.utf8)) else { continue }
            let json = try JSONText(validating: Array(text.utf8))
            for path in Self.paths(in: parsed, random: &random) {
                let found = StatePath(path).resolve(in: json).flatMap { try? JSONParser.parse($0.bytes) }
                #expect(found == StatePath(path).resolve(in: parsed), "\(text) at \(path)")
            }
        }
    }

    /// Paths into `value`: to its members and elements, and some that lead nowhere.
    static func paths(in value: JSONValue, random: inout SeededGenerator) -> [[StatePath.Component]] {
        var paths: [[StatePath.Component]] = [[.key("missing")], [.index(9)]]
        switch value {
        case .object(let object):
            for key in object.keys {
                paths.append([.key(key)])
                if let member = object[key] {
                    paths += Self.paths(in: member, random: &random).prefix(3).map { [.key(key)] + $0 }
                }
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                paths.append([.index(index)])
                paths.append([.key(String(index))])
                paths += Self.paths(in: element, random: &random).prefix(3).map { [.index(index)] + $0 }
            }
        default: break
        }
        return paths
    }

    /// `normalize` spells a path as the value reads it: a decimal name in an array becomes an
    /// index (past the array's end too), and the components past where the path leads nowhere,
    /// or past a name that no array reads as an index, are kept as written.
    @Test func normalizeSpellsArrayNamesAsIndexes() {
        let text = Array(#"{"lines": [{"sku": "a"}, {"sku": "b"}], "note": "x"}"#.utf8)
        func normalized(_ components: [StatePath.Component]) -> [StatePath.Component] {
            text.withUnsafeBytes { ValueLocator.normalize(components[...], in: ByteView($0), range: 0..<$0.count) }
        }
        #expect(normalized([.key("lines"), .key("1"), .key("sku")]) == [.key("lines"), .index(1), .key("sku")])
        #expect(normalized([.key("lines"), .key("5"), .key("1")]) == [.key("lines"), .index(5), .key("1")])
        #expect(normalized([.key("lines"), .key("x"), .key("1")]) == [.key("lines"), .key("x"), .key("1")])
        #expect(normalized([.key("note"), .key("0")]) == [.key("note"), .key("0")])
        #expect(normalized([.key("missing"), .key("0")]) == [.key("missing"), .key("0")])
    }
}
