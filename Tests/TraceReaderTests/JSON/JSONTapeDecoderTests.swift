import Foundation
import Testing

@testable import TraceJSON

/// `JSONValueDecoder.decode(_:from:)` on bytes reads the same values as Foundation's
/// `JSONDecoder` on the same bytes, for the shapes app states take.
@Suite struct JSONTapeDecoderTests {

    /// Encodes `value` with `JSONEncoder` and decodes it back with ours.
    private func roundTrips<T: Codable & Equatable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let data = try JSONEncoder().encode(value)
        #expect(try JSONValueDecoder().decode(T.self, from: [UInt8](data)) == value, sourceLocation: sourceLocation)
        #expect(try JSONValueDecoder().decode(T.self, from: data) == value, sourceLocation: sourceLocation)
    }

    struct Scalars: Codable, Equatable {
        var bool: Bool
        var string: String
        var double: Double
        var float: Float
        var int: Int, int8: Int8, int16: Int16, int32: Int32, int64: Int64
        var uint: UInt, uint8: UInt8, uint16: UInt16, uint32: UInt32, uint64: UInt64
    }

    @Test func scalarsAtTheirLimits() throws {
        try roundTrips(
            Scalars(
                bool: true, string: "", double: -1.7976931348623157e308, float: 3.4028235e38,
                int: .min, int8: .min, int16: .min, int32: .min, int64: .min,
                uint: .max, uint8: .max, uint16: .max, uint32: .max, uint64: .max))
        try roundTrips(
            Scalars(
                bool: false, string: "x", double: .leastNonzeroMagnitude, float: .leastNonzeroMagnitude, int: .max,
                int8: .max, int16: .max, int32: .max, int64: .max,
                uint: 0, uint8: 0, uint16: 0, uint32: 0, uint64: 0))
    }

    struct Optionals: Codable, Equatable {
        var plain: Int?
        var nested: Int??
        var list: [Int?]?
        var map: [String: Int?]
        var text: String?
    }

    @Test func nestedOptionals() throws {
        for json in [
            #"{"map":{}}"#,
            #"{"plain":null,"nested":null,"list":null,"map":{"a":null},"text":null}"#,
            #"{"plain":1,"nested":2,"list":[null,3,null],"map":{"a":4,"b":null},"text":"t"}"#,
        ] {
            try decodesLikeFoundation(Optionals.self, json)
        }
        try decodesLikeFoundation([Int??].self, "[null,1]")
        try decodesLikeFoundation(String?.self, "null")
        try decodesLikeFoundation(String?.self, #""x""#)
    }

    enum Phase: Codable, Equatable, Sendable {
        case idle
        case loaded([Item])
        case failed(message: String, code: Int?)
        case pair(Int, String)
    }

    struct Item: Codable, Equatable, Sendable {
        var id: Int
        var name: String
        var price: Double
        var tags: [String]
        var note: String?
    }

    struct State: Codable, Equatable, Sendable {
        var phase: Phase
        var history: [Phase]
        var byID: [Int: Item]
        var byName: [String: [Double]]
        var matrix: [[Int]]
        var flags: [Bool]
        var set: Set<String>
        var nested: Nested

        struct Nested: Codable, Equatable, Sendable {
            var level: Int
            var children: [Nested]
        }
    }

    static func sampleState(items: Int) -> State {
        let list = (0..<items).map { (index: Int) -> Item in
            let name: String = index % 3 == 0 ? "caf\u{E9} \(index)" : "item \(index)"
            let tags: [String] = index % 2 == 0 ? ["new", "sale"] : []
            let note: String? = index % 4 == 0 ? nil : "n\(index)"
            return Item(id: index, name: name, price: Double(index * 37 + 99) / 100, tags: tags, note: note)
        }
        return State(
            phase: .loaded(list),
            history: [.idle, .failed(message: "offline", code: nil), .failed(message: "x", code: 503), .pair(-1, "")],
            byID: Dictionary(uniqueKeysWithValues: list.map { ($0.id * 1000 - 5, $0) }),
            byName: ["a": [0.1, -2.5e-3, 1e300], "": []],
            matrix: [[1, -2], [], [Int.max]],
            flags: [true, false],
            set: ["x", "y"],
            nested: .init(level: 0, children: [.init(level: 1, children: [.init(level: 2, children: [])])]))
    }

    @Test(arguments: [0, 3, 200])
    func appStatesDecodeLikeFoundation(items: Int) throws {
        let data = try JSONEncoder().encode(Self.sampleState(items: items))
        let ours = try JSONValueDecoder().decode(State.self, from: [UInt8](data))
        #expect(ours == (try JSONDecoder().decode(State.self, from: data)))
        #expect(ours == Self.sampleState(items: items))
    }

    @Test func enumShapesAsSynthesized() throws {
        try decodesLikeFoundation(Phase.self, #"{"idle":{}}"#)
        try decodesLikeFoundation(Phase.self, #"{"loaded":{"_0":[{"id":1,"name":"a","price":2.5,"tags":["t"]}]}}"#)
        try decodesLikeFoundation(Phase.self, #"{"failed":{"message":"m"}}"#)
        try decodesLikeFoundation(Phase.self, #"{"pair":{"_0":1,"_1":"one"}}"#)
        try decodesLikeFoundation([Phase].self, #"[{"idle":{}},{"idle":{}},{"pair":{"_1":"b","_0":2}}]"#)
    }

    @Test func membersInAnyOrderAndUnknownMembers() throws {
        try decodesLikeFoundation(
            Item.self, #"{"tags":[],"price":1,"extra":{"deep":[1,{"x":null}]},"name":"n","id":7,"more":"z"}"#)
        try decodesLikeFoundation(
            [Item].self,
            #"[{"note":"a","tags":["x"],"id":1,"name":"n","price":0},{"id":2,"name":"m","price":1,"tags":[]}]"#)
    }

    @Test func intKeyedAndStringKeyedDictionaries() throws {
        try decodesLikeFoundation([Int: String].self, #"{"1234":"a","-5":"b","0":"c"}"#)
        try decodesLikeFoundation([String: Int].self, #"{"b":1,"a":2,"":3,"é":4}"#)
        try decodesLikeFoundation([String: [Int: Bool]].self, #"{"x":{"1":true},"y":{}}"#)
        let large = "{" + (0..<500).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        try decodesLikeFoundation([String: Int].self, large)
        #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode([Int: String].self, from: Array(#"{"x":"a"}"#.utf8))
        }
    }

    @Test func unicodeAndEscapes() throws {
        let texts = [
            #""plain""#, #""caf\u00e9 \u00E9""#, #""\ud83d\ude00 \uD83D\uDE00""#, #""\"\\\/\b\f\n\r\t""#,
            "\"raw caf\u{E9} \u{1F600} \u{4E2D}\"", #""a\u0000b""#,
            "\"" + String(repeating: "long ", count: 40) + "\"",
        ]
        for text in texts {
            try decodesLikeFoundation(String.self, text)
            try decodesLikeFoundation([String].self, "[" + text + "," + text + "]")
        }
        // A lone surrogate escape is valid JSON text but no character: U+FFFD in a decoded
        // String (JSONDecoder refuses the document).
        let lone = #"["lone \ud800 and \udc00 surrogates"]"#
        #expect(
            try JSONValueDecoder().decode([String].self, from: Array(lone.utf8)) == [
                "lone \u{FFFD} and \u{FFFD} surrogates"
            ])
        // The parser keeps them apart instead (see `LoneSurrogates`).
        #expect(JSONPrinter.compact(try JSONParser.parse(lone)) == lone)
    }

    struct Named: Codable, Equatable {
        var name: String
        // swift-format-ignore: IdentifiersMustBeASCII
        // A non-ASCII member name on purpose: the test decodes it from escaped and decomposed keys.
        var café: Int
    }

    @Test func memberNamesWithEscapesOrCanonicalEquivalents() throws {
        // Names match as Swift strings do: an escape or a decomposed é names the same member.
        try decodesLikeFoundation(Named.self, #"{"na\u006de":"n","caf\u00e9":1}"#)
        try decodesLikeFoundation(Named.self, "{\"name\":\"n\",\"cafe\u{301}\":2}")
        try decodesLikeFoundation(
            [Named].self, "[{\"name\":\"a\",\"caf\u{E9}\":1},{\"n\\u0061me\":\"b\",\"cafe\u{301}\":2}]")
    }

    @Test func integersAreExactAndInRange() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decode([Int].self, from: Array("[1.0,12e2,-0,1E+1]".utf8)) == [1, 1200, 0, 10])
        #expect(try decoder.decode(UInt8.self, from: Array("-0".utf8)) == 0)
        #expect(
            try decoder.decode([Int64].self, from: Array("[-9223372036854775808,9223372036854775807]".utf8)) == [
                .min, .max,
            ])
        for (text, type) in [
            ("9223372036854775808", Int.self as any (Decodable & Sendable).Type), ("-9223372036854775809", Int.self),
            ("18446744073709551616", UInt64.self), ("123456789012345678901234567890", Int.self),
            ("1e19", Int64.self), ("256", UInt8.self), ("-1", UInt.self), ("0.5", Int.self), ("1e-1", Int.self),
        ] {
            expectNotRepresentable(text, as: type)
        }
    }

    /// `[text]` as `[T]`: refused by both decoders; ours says why, at element 0.
    private func expectNotRepresentable<T: Decodable>(
        _ text: String, as type: T.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try JSONValueDecoder().decode([T].self, from: Array("[\(text)]".utf8))
            Issue.record("\(text) decoded as \(T.self)", sourceLocation: sourceLocation)
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.map(\.intValue) == [0], sourceLocation: sourceLocation)
            #expect(context.debugDescription.contains(text), sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(text) as \(T.self): \(error)", sourceLocation: sourceLocation)
        }
        #expect(throws: DecodingError.self, sourceLocation: sourceLocation) {
            try JSONDecoder().decode([T].self, from: Data("[\(text)]".utf8))
        }
    }

    @Test func doublesAreCorrectlyRounded() throws {
        // Short decimals take a fast path; long ones the C library: both must match JSONDecoder
        // and `Double(String)` bit for bit.
        var generator = JSONTapeSyntaxTests.Generator(state: 42)
        var values: [Double] = [
            0, -0.0, 0.1, 0.2, 0.3, 1e22, 1e23, 9007199254740992.0.nextUp, 123_456_789_012_345_680,
            .leastNonzeroMagnitude,
            .leastNormalMagnitude, .greatestFiniteMagnitude, 4.35, 9.99, 100.01, 1e-22, 8.41e21, 2.5e-3,
        ]
        for _ in 0..<2000 {
            values.append(Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF))  // finite, positive
            values.append(-Double(Int(generator.below(1_000_000))) / 100)
            values.append(Double(Int(generator.below(1 << 30))) * 1e-7)
        }
        let data = try JSONEncoder().encode(values)
        let ours = try JSONValueDecoder().decode([Double].self, from: [UInt8](data))
        let theirs = try JSONDecoder().decode([Double].self, from: data)
        #expect(ours.map(\.bitPattern) == theirs.map(\.bitPattern))
        #expect(ours.map(\.bitPattern) == values.map(\.bitPattern))
        for text in ["1e400", "-1e400", "1e309"] {
            #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Double.self, from: Array(text.utf8)) }
        }
        for text in [
            "0.000001", "1.5", "-3.25e2", "12345678.5", "1e-7", "3.4028234663852886e38", "9007199254740993",
            "123456789012345678",
        ] {
            #expect(try JSONValueDecoder().decode(Float.self, from: Array(text.utf8)) == Float(text))
            #expect(try JSONValueDecoder().decode(Double.self, from: Array(text.utf8)) == Double(text))
        }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Float.self, from: Array("1e39".utf8)) }
    }

    @Test func nonFiniteValuesAsStrings() throws {
        let json = #"[1.5,"NaN","Infinity","-Infinity"]"#
        let ours = try JSONValueDecoder().decode([Double].self, from: Array(json.utf8))
        let foundation = JSONDecoder()
        foundation.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        let theirs = try foundation.decode([Double].self, from: Data(json.utf8))
        #expect(ours.map(\.bitPattern) == theirs.map(\.bitPattern))
        #expect(try JSONValueDecoder().decode(Float.self, from: Array(#""-Infinity""#.utf8)) == -.infinity)
        #expect(try JSONValueDecoder().decode(Double.self, from: Array(#""N\u0061N""#.utf8)).isNaN)
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Double.self, from: Array(#""inf""#.utf8)) }
    }

    struct Pair: Codable, Equatable {
        var a: Int
        var b: String?
    }

    @Test func duplicateNamesLastOneWinsAsInJSONObject() throws {
        let json = #"{"a":1,"b":"x","a":2}"#
        let fromBytes = try JSONValueDecoder().decode(Pair.self, from: Array(json.utf8))
        #expect(fromBytes == Pair(a: 2, b: "x"))
        #expect(fromBytes == (try JSONValueDecoder().decode(Pair.self, from: JSONParser.parse(json))))
        // Past the small-object path too.
        let many = "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k7\":700}"
        let dictionary = try JSONValueDecoder().decode([String: Int].self, from: Array(many.utf8))
        #expect(dictionary["k7"] == 700 && dictionary.count == 40)
        #expect(dictionary == (try JSONValueDecoder().decode([String: Int].self, from: JSONParser.parse(many))))
    }

    @Test func superclassesThroughSuperDecoder() throws {
        let derived = Derived(base: 1, extra: "e")
        let data = try JSONEncoder().encode(derived)
        let ours = try JSONValueDecoder().decode(Derived.self, from: [UInt8](data))
        #expect(ours.base == 1 && ours.extra == "e")
        // A missing "super" member is read as null, as JSONDecoder does.
        let missing = try JSONValueDecoder().decode(Derived.self, from: Array(#"{"extra":"only"}"#.utf8))
        #expect(missing.base == nil && missing.extra == "only")
    }

    class Base: Codable {
        var base: Int?
        init(base: Int?) { self.base = base }
    }

    final class Derived: Base {
        var extra: String
        enum CodingKeys: String, CodingKey { case extra }
        init(base: Int?, extra: String) {
            self.extra = extra
            super.init(base: base)
        }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            extra = try container.decode(String.self, forKey: .extra)
            let superDecoder = try container.superDecoder()
            if try superDecoder.singleValueContainer().decodeNil() {
                super.init(base: nil)
            } else {
                try super.init(from: superDecoder)
            }
        }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(extra, forKey: .extra)
            try super.encode(to: container.superEncoder())
        }
    }

    /// A hand-written conformance that uses containers out of order: two nested containers alive
    /// at once, the outer one used between them, a container asked for twice, and an unkeyed
    /// container walked by hand.
    struct Interleaved: Decodable, Equatable {
        var first: Int
        var second: Int
        var top: String
        var again: String
        var list: [String]
        var count: Int?

        enum Keys: String, CodingKey { case a, b, top, list }
        enum Inner: String, CodingKey { case value }

        init(from decoder: any Decoder) throws {
            let outer = try decoder.container(keyedBy: Keys.self)
            let a = try outer.nestedContainer(keyedBy: Inner.self, forKey: .a)
            let b = try outer.nestedContainer(keyedBy: Inner.self, forKey: .b)
            top = try outer.decode(String.self, forKey: .top)
            second = try b.decode(Int.self, forKey: .value)
            first = try a.decode(Int.self, forKey: .value)
            again = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .top)
            var unkeyed = try outer.nestedUnkeyedContainer(forKey: .list)
            count = unkeyed.count
            var list: [String] = []
            while !unkeyed.isAtEnd {
                if try unkeyed.decodeNil() {
                    list.append("-")
                } else if let nested = try? unkeyed.nestedContainer(keyedBy: Inner.self) {
                    list.append(String(try nested.decode(Int.self, forKey: .value)))
                } else {
                    list.append(try unkeyed.decode(String.self))
                }
            }
            self.list = list
        }
    }

    @Test func containersUsedOutOfOrder() throws {
        let json = #"{"list":["x",null,{"value":9},"y"],"b":{"value":2},"top":"t","a":{"value":1}}"#
        try decodesLikeFoundation(Interleaved.self, json)
        try decodesLikeFoundation(
            [Interleaved].self, "[" + json + "," + json.replacingOccurrences(of: "9", with: "8") + "]")
    }

    /// Keeps a container per element alive until all are made, then reads them in reverse.
    struct ManyAlive: Decodable, Equatable {
        var values: [Int]
        enum Inner: String, CodingKey { case value }
        init(from decoder: any Decoder) throws {
            var unkeyed = try decoder.unkeyedContainer()
            var containers: [KeyedDecodingContainer<Inner>] = []
            while !unkeyed.isAtEnd { containers.append(try unkeyed.nestedContainer(keyedBy: Inner.self)) }
            values = try containers.reversed().map { try $0.decode(Int.self, forKey: .value) }
        }
    }

    @Test func manyContainersAliveAtOnce() throws {
        let json = "[" + (0..<300).map { #"{"value":\#($0)}"# }.joined(separator: ",") + "]"
        try decodesLikeFoundation(ManyAlive.self, json)
        try decodesLikeFoundation([ManyAlive].self, "[" + json + "," + json + "]")
    }

    /// Records the coding paths it sees, to compare them with JSONDecoder's.
    struct PathRecorder: Decodable, Equatable {
        var paths: [String]
        init(from decoder: any Decoder) throws {
            var paths = [Self.render(decoder.codingPath)]
            if let keyed = try? decoder.container(keyedBy: JSONDecodingMirror.AnyKey.self) {
                paths.append("keyed " + Self.render(keyed.codingPath))
                for key in keyed.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                    paths += try keyed.decode(PathRecorder.self, forKey: key).paths
                }
            } else if var unkeyed = try? decoder.unkeyedContainer() {
                paths.append("unkeyed " + Self.render(unkeyed.codingPath))
                while !unkeyed.isAtEnd { paths += try unkeyed.decode(PathRecorder.self).paths }
            }
            self.paths = paths
        }
        static func render(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
    }

    @Test func codingPathsSeenByConformancesMatchFoundation() throws {
        try decodesLikeFoundation(PathRecorder.self, #"{"a":[1,{"b":[[],{"c":null}]}],"d":{"e":{"f":"g"}},"h":"i"}"#)
    }

    @Test func userInfoReachesConformances() throws {
        var decoder = JSONValueDecoder()
        let key = try #require(CodingUserInfoKey(rawValue: "unit"))
        decoder.userInfo[key] = "cents"
        #expect(try decoder.decode(UserInfoReader.self, from: Array("{}".utf8)).unit == "cents")
        #expect(try JSONValueDecoder().decode(UserInfoReader.self, from: Array("{}".utf8)).unit == nil)
    }

    struct UserInfoReader: Decodable {
        var unit: String?
        init(from decoder: any Decoder) throws {
            unit = CodingUserInfoKey(rawValue: "unit").flatMap { decoder.userInfo[$0] as? String }
        }
    }

    @Test func inputsOtherThanArrays() throws {
        let json = Array(#"{"a":5,"b":null}"#.utf8)
        let expected = Pair(a: 5, b: nil)
        #expect(try JSONValueDecoder().decode(Pair.self, from: json[...]) == expected)
        #expect(try JSONValueDecoder().decode(Pair.self, from: Data(json)) == expected)
        #expect(try JSONValueDecoder().decode(Pair.self, from: AnyCollection(json)) == expected)
        let fromBuffer = try json.withUnsafeBytes { buffer in try JSONValueDecoder().decode(Pair.self, from: buffer) }
        #expect(fromBuffer == expected)
        // Part of a larger buffer: nothing past the slice is read.
        let line = Array(#"xx{"a":6}yy"#.utf8)
        #expect(try JSONValueDecoder().decode(Pair.self, from: line[2..<9]) == Pair(a: 6, b: nil))
    }

    @Test func manyDecodesOneAfterAnotherAndAtOnce() async throws {
        // Decoders are reused between calls; values of one document never leak into the next.
        let states = (0..<6).map { Self.sampleState(items: $0 * 7) }
        let documents = try states.map { [UInt8](try JSONEncoder().encode($0)) }
        for round in 0..<3 {
            for (index, document) in documents.enumerated().reversed() {
                #expect(try JSONValueDecoder().decode(State.self, from: document) == states[index], "round \(round)")
                #expect(
                    try JSONValueDecoder().decode(Phase.self, from: Array(#"{"pair":{"_0":3,"_1":"p"}}"#.utf8))
                        == .pair(3, "p"))
            }
        }
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var allEqual = true
                    for round in 0..<20 {
                        let index = (task + round) % documents.count
                        let decoded = try JSONValueDecoder().decode(State.self, from: documents[index])
                        allEqual = allEqual && decoded == states[index]
                    }
                    return allEqual
                }
            }
            for try await allEqual in group { #expect(allEqual) }
        }
    }

    /// Calls `JSONValueDecoder` from inside `init(from:)`.
    struct Reentrant: Decodable, Equatable {
        var inner: Pair
        var outer: Int
        enum Keys: String, CodingKey { case json, outer }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            let json = try container.decode(String.self, forKey: .json)
            inner = try JSONValueDecoder().decode(Pair.self, from: Array(json.utf8))
            outer = try container.decode(Int.self, forKey: .outer)
        }
    }

    @Test func decodingInsideDecoding() throws {
        let value = try JSONValueDecoder().decode(
            Reentrant.self, from: Array(#"{"json":"{\"a\":3,\"b\":\"in\"}","outer":4}"#.utf8))
        #expect(value.inner == Pair(a: 3, b: "in") && value.outer == 4)
    }
}
