import Foundation
import Recorder
import TestSupport
import Testing

/// Pins the encoder's exact output against small reference implementations of its format
/// (written the simple way, here), over many generated values: the fast paths must not change
/// a byte.
@Suite struct StateEncoderFormatTests {
    // MARK: References

    /// The double format, as specified: NaN and infinities as strings; integral values below 2^53
    /// as integers (`-0.0` for negative zero); else the fewest fraction digits (1 to 6) that
    /// read back exactly, for magnitudes in [1e-6, 1e9); else `description`.
    static func referenceText(_ value: Double) -> String {
        if value.isNaN { return "\"NaN\"" }
        if value.isInfinite { return value < 0 ? "\"-Infinity\"" : "\"Infinity\"" }
        if value == value.rounded(.towardZero) && abs(value) < 9_007_199_254_740_992 {
            if value == 0 && value.sign == .minus { return "-0.0" }
            return String(Int64(value))
        }
        let magnitude = abs(value)
        if magnitude < 1e9 && magnitude >= 1e-6 {
            var scale = 1.0
            for digits in 1...6 {
                scale *= 10
                let scaled = (magnitude * scale).rounded()
                guard scaled / scale == magnitude else { continue }
                let whole = UInt64(scaled)
                let divisor = UInt64(scale)
                var fraction = String(whole % divisor)
                fraction = String(repeating: "0", count: digits - fraction.count) + fraction
                return (value < 0 ? "-" : "") + String(whole / divisor) + "." + fraction
            }
        }
        return value.description
    }

    /// RFC 8259 escaping, one scalar at a time.
    static func referenceQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    // MARK: Doubles

    @Test func doublesMatchTheReferenceFormatAndReadBackExactly() throws {
        var generator = SeededGenerator(seed: 6)
        var samples: [Double] = [
            0, -0.0, 0.1, 0.2, 0.3, 1e-6, -1e-6, 9.99e-7, 1e9, -1e9, 999_999_999.999999, 1e-7, 1.5e300,
            .leastNonzeroMagnitude, .greatestFiniteMagnitude, 9_007_199_254_740_992, -9_007_199_254_740_991,
            4_503_599_627_370_495.5, 0.5, 2.5, 1e15, 1e16, 1e21, 123.45, 9.99, 0.000001, 0.0000015,
            .nan, .infinity, -.infinity, .ulpOfOne, 1 + .ulpOfOne, 0.1 + 0.2,
        ]
        let scales: [Double] = [1, 10, 100, 1_000, 1e4, 1e5, 1e6, 1e7, 1e8]
        for _ in 0..<20_000 {
            switch generator.next() % 5 {
            case 0: samples.append(Double(bitPattern: generator.next()))
            case 1:
                samples.append(
                    Double(Int64(bitPattern: generator.next()) >> Int64(generator.next() % 64))
                        / scales[Int(generator.next() % 9)])
            case 2: samples.append(Double(generator.next() % 100_000) * 0.37 + 9.99)
            case 3:
                samples.append(
                    Double(
                        bitPattern: (generator.next() & 0x800F_FFFF_FFFF_FFFF)
                            | (UInt64(1_000 + generator.next() % 100) << 52)))
            default:
                samples.append(Double(generator.next() % 2_000_000_000) / 1e6 * (generator.next() % 2 == 0 ? 1 : -1))
            }
        }
        let encoder = StateEncoder()
        for chunk in stride(from: 0, to: samples.count, by: 500) {
            let values = Array(samples[chunk..<min(chunk + 500, samples.count)])
            let text = try encoder.encodeToString(values)
            #expect(text == "[" + values.map(Self.referenceText).joined(separator: ",") + "]")
            let finite = values.filter(\.isFinite)
            let back = try JSONDecoder().decode([Double].self, from: Data(try encoder.encode(finite)))
            #expect(back.map(\.bitPattern) == finite.map(\.bitPattern))
        }
    }

    @Test func floatsReadBackExactly() throws {
        var generator = SeededGenerator(seed: 7)
        var samples: [Float] = [0, 0.1, 16_777_216, 16_777_215.5, -3, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        for _ in 0..<5_000 {
            let value = Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()))
            if value.isFinite { samples.append(value) }
        }
        let back = try JSONDecoder().decode([Float].self, from: Data(try StateEncoder().encode(samples)))
        #expect(back.map(\.bitPattern) == samples.map(\.bitPattern))
        #expect(
            try StateEncoder().encodeToString([Float(-0.0), 3, .nan, -.infinity]) == #"[-0.0,3,"NaN","-Infinity"]"#)
    }

    // MARK: Integers

    @Test func integersMatchTheirDescriptions() throws {
        var generator = SeededGenerator(seed: 8)
        var values: [Int64] = [.min, .max, 0, -1, 1, 9, 10, 99, 100, 101, 999, 1_000, -10, -99, -100]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power]
        }
        for _ in 0..<5_000 { values.append(Int64(bitPattern: generator.next()) >> Int64(generator.next() % 64)) }
        let encoder = StateEncoder()
        #expect(try encoder.encodeToString(values) == "[" + values.map(String.init).joined(separator: ",") + "]")
        let unsigned = values.map { UInt64(bitPattern: $0) } + [.max]
        #expect(try encoder.encodeToString(unsigned) == "[" + unsigned.map(String.init).joined(separator: ",") + "]")
        let small = values.map { Int8(truncatingIfNeeded: $0) }
        #expect(try encoder.encodeToString(small) == "[" + small.map(String.init).joined(separator: ",") + "]")
    }

    // MARK: Strings

    @Test func everyControlCharacterIsEscapedAtEveryPositionAndLength() throws {
        let encoder = StateEncoder()
        var strings: [String] = []
        // Each of the bytes that need escaping, alone and at each position of strings of 1 to 40
        // bytes (short strings, the 16-byte boundary, and the word-at-a-time path).
        let special = (0..<0x20).map { Character(UnicodeScalar(UInt8($0))) } + ["\"", "\\"]
        for character in special {
            for length in 1...40 {
                for position in 0..<length {
                    var text = String(repeating: "a", count: length - 1)
                    text.insert(character, at: text.index(text.startIndex, offsetBy: position))
                    strings.append(text)
                }
            }
        }
        for chunk in stride(from: 0, to: strings.count, by: 400) {
            let values = Array(strings[chunk..<min(chunk + 400, strings.count)])
            #expect(
                try encoder.encodeToString(values) == "[" + values.map(Self.referenceQuoted).joined(separator: ",")
                    + "]")
        }
    }

    @Test func randomStringsAreEscapedLikeTheReference() throws {
        var generator = SeededGenerator(seed: 9)
        let alphabet: [UnicodeScalar] =
            (0..<0x80).map { UnicodeScalar(UInt8($0)) }
            + ["é", "—", "«", "\u{1F600}", "\u{FEFF}", "\u{2028}", "\u{7F}", "\u{10FFFF}"]
        var strings = [
            "", "a", "ab", "abc", "abcd", "abcdefg", "abcdefgh", "abcdefghi", String(repeating: "x", count: 16),
            String(repeating: "y", count: 17),
        ]
        for _ in 0..<4_000 {
            let length = Int(generator.next() % 48)
            var scalars = String.UnicodeScalarView()
            let plain = generator.next() % 2 == 0
            for _ in 0..<length {
                scalars.append(
                    plain
                        ? UnicodeScalar(UInt8(0x20 + generator.next() % 0x5F))
                        : alphabet[Int(generator.next() % UInt64(alphabet.count))])
            }
            strings.append(String(scalars))
        }
        let encoder = StateEncoder()
        #expect(
            try encoder.encodeToString(strings) == "[" + strings.map(Self.referenceQuoted).joined(separator: ",") + "]")
        // The same strings as keys (a dictionary with one member, so the order is known).
        for text in strings.prefix(1_000) {
            #expect(try encoder.encodeToString([text: 1]) == "{" + Self.referenceQuoted(text) + ":1}")
        }
    }

    @Test func bridgedAndSubstringBackedStringsAreWritten() throws {
        let long = String(repeating: "déjà vu \u{1}", count: 50)
        let pieces = [String(long.dropFirst(3)), String(long.prefix(20)), NSString(string: "ns \"string\"") as String]
        #expect(
            try StateEncoder().encodeToString(pieces) == "[" + pieces.map(Self.referenceQuoted).joined(separator: ",")
                + "]")
    }

    // MARK: Structure

    struct Deep: Encodable {
        var level: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(level, forKey: .level)
            if level > 0 {
                try container.encode(Deep(level: level - 1), forKey: .child)
                var list = container.nestedUnkeyedContainer(forKey: .list)
                try list.encode(level)
                var inner = list.nestedContainer(keyedBy: Keys.self)
                try inner.encode(-level, forKey: .level)
            }
        }
        enum Keys: String, CodingKey { case level, child, list }
    }

    static func deepText(_ level: Int) -> String {
        level == 0
            ? #"{"level":0}"#
            : #"{"level":\#(level),"child":\#(deepText(level - 1)),"list":[\#(level),{"level":-\#(level)}]}"#
    }

    @Test func deepNestingClosesEveryFrame() throws {
        let encoder = StateEncoder()
        for depth in [0, 1, 2, 63, 64, 65, 300] {
            #expect(try encoder.encodeToString(Deep(level: depth)) == Self.deepText(depth))
        }
        // Deeply nested arrays, and the encoder still in shape afterwards.
        var nested: [[[[[[Int]]]]]] = [[[[[[1, 2], []]]]], []]
        nested.append([[[[[3]]]]])
        #expect(try encoder.encodeToString(nested) == "[[[[[[1,2],[]]]]],[],[[[[[3]]]]]]")
        #expect(try encoder.encodeToString(Deep(level: 2)) == Self.deepText(2))
    }

    /// A key type per index, so a state can use more key types than the container cache keeps.
    struct IndexKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    struct Wide: Encodable {
        var width: Int
        var depth: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: IndexKey.self)
            for index in 0..<width {
                if depth > 0 {
                    try container.encode(
                        Wide(width: width, depth: depth - 1), forKey: IndexKey(stringValue: "k\(index)"))
                } else {
                    try container.encode(index, forKey: IndexKey(stringValue: "k\(index)"))
                }
            }
        }
    }

    enum K1: String, CodingKey { case a, b }
    enum K2: String, CodingKey { case a, b }
    enum K3: String, CodingKey { case a, b }
    struct Mixed: Encodable {
        var depth: Int
        func encode(to encoder: any Encoder) throws {
            // Three key types take turns at the same depths, so cached containers are shared
            // between types and frames in every combination.
            switch depth % 3 {
            case 0:
                var container = encoder.container(keyedBy: K1.self)
                try container.encode(depth, forKey: .a)
                if depth > 0 { try container.encode([Mixed(depth: depth - 1), Mixed(depth: depth - 1)], forKey: .b) }
            case 1:
                var container = encoder.container(keyedBy: K2.self)
                if depth > 0 { try container.encode(Mixed(depth: depth - 1), forKey: .b) }
                try container.encode(depth, forKey: .a)
            default:
                var container = encoder.container(keyedBy: K3.self)
                var nested = container.nestedContainer(keyedBy: K1.self, forKey: .a)
                try nested.encode(depth, forKey: .a)
                if depth > 0 { try container.encode(Mixed(depth: depth - 1), forKey: .b) }
            }
        }
    }

    @Test func containersOfManyKeyTypesAtManyDepthsMatchJSONEncoder() throws {
        let encoder = StateEncoder()
        for _ in 0..<3 {
            let mixed = Mixed(depth: 9)
            let ours = try JSONSerialization.jsonObject(with: Data(try encoder.encode(mixed))) as? NSDictionary
            let foundation = try JSONSerialization.jsonObject(with: JSONEncoder().encode(mixed)) as? NSDictionary
            #expect(ours != nil && ours == foundation)
        }
        let wide = Wide(width: 3, depth: 5)
        let ours = try JSONSerialization.jsonObject(with: Data(try encoder.encode(wide))) as? NSDictionary
        let foundation = try JSONSerialization.jsonObject(with: JSONEncoder().encode(wide)) as? NSDictionary
        #expect(ours != nil && ours == foundation)
    }

    // MARK: Redaction

    @Test func redactionComparesKeysAsSwiftStringsDo() throws {
        // U+212A KELVIN SIGN is canonically equivalent to "K": `Set<String>` treats the keys as
        // equal, so the redaction must too, whatever their UTF-8 lengths.
        let encoder = StateEncoder(redactedKeys: ["Key", "caf\u{E9}", "pin"])
        #expect(try encoder.encodeToString(["\u{212A}ey": 1]) == #"{"\#u{212A}ey":"<redacted>"}"#)
        #expect(try encoder.encodeToString(["cafe\u{301}": 1]) == #"{"cafe\#u{301}":"<redacted>"}"#)
        #expect(try encoder.encodeToString(["Key": 1]) == #"{"Key":"<redacted>"}"#)
        #expect(try encoder.encodeToString(["Kex": 1]) == #"{"Kex":1}"#)
        #expect(try encoder.encodeToString(["pins": 1]) == #"{"pins":1}"#)
        #expect(try encoder.encodeToString(["pin": [1, 2]]) == #"{"pin":"<redacted>"}"#)
        let asciiOnly = StateEncoder(redactedKeys: Redaction(["token"], sensitiveKeys: false))
        #expect(
            try asciiOnly.encodeToString(
                ["token": "t", "tokens": "u"].sorted(by: { $0.key < $1.key }).map { [$0.key: $0.value] })
                == #"[{"token":"<redacted>"},{"tokens":"u"}]"#)
    }

    @Test func aRedactedKeyWithAnEmptyNameAndLongNames() throws {
        let long = String(repeating: "k", count: 80)
        let encoder = StateEncoder(redactedKeys: ["", .key(long)])
        #expect(try encoder.encodeToString(["": 1]) == #"{"":"<redacted>"}"#)
        #expect(try encoder.encodeToString([long: 1]) == "{\"\(long)\":\"<redacted>\"}")
        #expect(try encoder.encodeToString([long + "k": 1]) == "{\"\(long)k\":1}")
    }
}
