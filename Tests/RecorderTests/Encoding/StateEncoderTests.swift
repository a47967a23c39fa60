import Foundation
import Recorder
import TestSupport
import Testing

@Suite struct StateEncoderTests {
    struct Nested: Codable, Equatable {
        var id: Int
        var title: String
        var tags: [String]
        var price: Double?
        var flags: [Bool]
        var children: [Nested]
    }

    enum Shape: Codable, Equatable {
        case point
        case circle(radius: Double)
        case polygon([Int], closed: Bool)
    }

    struct Everything: Codable, Equatable {
        var int8: Int8 = -8, int16: Int16 = -16, int32: Int32 = -32, int64: Int64 = .min
        var uint8: UInt8 = 8, uint16: UInt16 = 16, uint32: UInt32 = 32, uint64: UInt64 = .max
        var int: Int = .max, uint: UInt = 7
        var float: Float = 0.1, double: Double = 0.1
        var optional: String? = nil
        var shapes: [Shape] = [.point, .circle(radius: 2.5), .polygon([1, 2, 3], closed: true)]
        var byName: [String: Int] = ["a": 1]
        var byNumber: [Int: String] = [7: "seven"]
        var unicode = "héllo \u{1F600} \u{0} \u{1F} \" \\ / \n\t"
        var empty: [Int] = []
        var nested: Nested = .init(
            id: 1, title: "t", tags: ["x"], price: 9.99, flags: [true, false],
            children: [
                .init(id: 2, title: "u", tags: [], price: nil, flags: [], children: [])
            ])
    }

    @Test func outputDecodesToTheSameValueWithJSONDecoder() throws {
        let value = Everything()
        let bytes = try StateEncoder().encode(value)
        let decoded = try JSONDecoder().decode(Everything.self, from: Data(bytes))
        #expect(decoded == value)
    }

    @Test func keysComeInDeclarationOrderAndNilIsLeftOut() throws {
        let text = try StateEncoder().encodeToString(
            Nested(id: 3, title: "a", tags: [], price: nil, flags: [true], children: []))
        #expect(text == #"{"id":3,"title":"a","tags":[],"flags":[true],"children":[]}"#)
    }

    @Test func enumsHaveTheSynthesizedShape() throws {
        let encoder = StateEncoder()
        #expect(try encoder.encodeToString(Shape.point) == #"{"point":{}}"#)
        #expect(try encoder.encodeToString(Shape.circle(radius: 1.5)) == #"{"circle":{"radius":1.5}}"#)
        #expect(
            try encoder.encodeToString(Shape.polygon([1], closed: false)) == #"{"polygon":{"_0":[1],"closed":false}}"#)
        #expect(
            try encoder.encodeToString([CatalogState.loading, .loaded(["a"])])
                == #"[{"loading":{}},{"loaded":{"_0":["a"]}}]"#)
    }

    @Test func stringsAreEscapedPerRFC8259() throws {
        let text = try StateEncoder().encodeToString("a\"b\\c/d\n\r\t\u{8}\u{C}\u{1}\u{1F}\u{7F}é\u{1F600}")
        #expect(text == "\"a\\\"b\\\\c/d\\n\\r\\t\\b\\f\\u0001\\u001f\u{7F}é\u{1F600}\"")
    }

    @Test func doublesReadBackExactly() throws {
        var generator = SystemRandomNumberGenerator()
        let encoder = StateEncoder()
        var samples: [Double] = [
            0, -0.0, 1, -1, 0.1, 1.0 / 3, .pi, 1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
            9_007_199_254_740_992, 9_007_199_254_740_994, 123_456_789_012,
        ]
        for _ in 0..<2_000 {
            samples.append(Double(bitPattern: generator.next() & ~(0x7FF << 52) | (UInt64.random(in: 0...0x7FE) << 52)))
        }
        for value in samples {
            let bytes = try encoder.encode([value])
            let back = try JSONDecoder().decode([Double].self, from: Data(bytes))
            #expect(back[0].bitPattern == value.bitPattern, "\(value) → \(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test func nonFiniteDoublesBecomeStrings() throws {
        let text = try StateEncoder().encodeToString([Double.nan, .infinity, -.infinity])
        #expect(text == #"["NaN","Infinity","-Infinity"]"#)
    }

    @Test func integersAtTheirLimits() throws {
        let text = try StateEncoder().encodeToString([Int64.min, Int64.max, 0, -1, 9, 10, 99, 100, 1_000_000])
        #expect(text == "[-9223372036854775808,9223372036854775807,0,-1,9,10,99,100,1000000]")
        #expect(try StateEncoder().encodeToString(UInt64.max) == "18446744073709551615")
    }

    @Test func redactionAppliesAtAnyDepth() throws {
        let encoder = StateEncoder(redactedKeys: ["password", "token", "pin", "circle"])
        let account = Account(
            name: "n", password: "p1", sessions: [.init(token: "t1", user: "u")], extra: ["pin": "0000"])
        let text = try encoder.encodeToString(account)
        #expect(
            text
                == #"{"name":"n","password":"<redacted>","sessions":[{"token":"<redacted>","user":"u"}],"extra":{"pin":"<redacted>"}}"#
        )
        // A redacted key whose value is a nested container (an enum case) swallows the whole value.
        #expect(
            try encoder.encodeToString([Shape.circle(radius: 3), .point]) == #"[{"circle":"<redacted>"},{"point":{}}]"#)
    }

    @Test func aValueThatEncodesNothingIsAnEmptyObject() throws {
        struct Silent: Encodable { func encode(to encoder: any Encoder) throws {} }
        struct Holder: Encodable {
            var silent = Silent()
            var after = 1
        }
        #expect(try StateEncoder().encodeToString(Holder()) == #"{"silent":{},"after":1}"#)
    }

    @Test func aConformanceThatAsksForItsContainerTwiceGetsOneObject() throws {
        struct Twice: Encodable {
            enum Keys: String, CodingKey { case a, b }
            func encode(to encoder: any Encoder) throws {
                var first = encoder.container(keyedBy: Keys.self)
                try first.encode(1, forKey: .a)
                var second = encoder.container(keyedBy: Keys.self)
                try second.encode(2, forKey: .b)
            }
        }
        #expect(try StateEncoder().encodeToString([Twice(), Twice()]) == #"[{"a":1,"b":2},{"a":1,"b":2}]"#)
    }

    @Test func theEncoderIsReusableAfterAnError() throws {
        let encoder = StateEncoder()
        #expect(throws: Fussy.Refused.self) { try encoder.encode(Fussy(fail: true)) }
        #expect(
            try encoder.encodeToString(Nested(id: 1, title: "", tags: [], price: 1, flags: [], children: []))
                == #"{"id":1,"title":"","tags":[],"price":1,"flags":[],"children":[]}"#)
    }

    @Test func largeValuesGrowTheBuffer() throws {
        let big = (0..<50_000).map { "item \($0)" }
        let bytes = try StateEncoder().encode(big)
        #expect(try JSONDecoder().decode([String].self, from: Data(bytes)) == big)
    }

    /// Keyed containers of two key types, alternating with depth, each with a nested keyed
    /// container of the other type; siblings of both types side by side at one depth.
    struct Layered: Encodable {
        var depth: Int
        enum Even: String, CodingKey { case depth, side, children }
        enum Odd: String, CodingKey { case level, side, children }

        func encode(to encoder: any Encoder) throws {
            if depth % 2 == 0 {
                try encode(to: encoder, number: Even.depth, side: .side, children: .children, sideKey: Odd.level)
            } else {
                try encode(to: encoder, number: Odd.level, side: .side, children: .children, sideKey: Even.depth)
            }
        }

        private func encode<Own: CodingKey, Other: CodingKey>(
            to encoder: any Encoder, number: Own, side: Own, children: Own, sideKey: Other
        ) throws {
            var container = encoder.container(keyedBy: Own.self)
            try container.encode(depth, forKey: number)
            var nested = container.nestedContainer(keyedBy: Other.self, forKey: side)
            try nested.encode("side \(depth)", forKey: sideKey)
            if depth > 0 {
                try container.encode([Layered(depth: depth - 1), Layered(depth: max(depth - 2, 0))], forKey: children)
            }
        }
    }

    @Test(arguments: [0, 1, 5, 12])
    func keyedContainersOfAlternatingTypesAtEveryDepthWriteWhatJSONEncoderWrites(depth: Int) throws {
        let expected = try JSONSerialization.jsonObject(with: JSONEncoder().encode(Layered(depth: depth))) as? NSObject
        let encoder = StateEncoder()
        for round in 0..<3 {  // the same encoder again: it hands out the containers it kept
            let bytes = try encoder.encode(Layered(depth: depth))
            let ours = try JSONSerialization.jsonObject(with: Data(bytes)) as? NSObject
            #expect(ours != nil && ours == expected, "round \(round)")
        }
    }
}
