import Foundation
import Testing

@testable import TraceJSON

/// `JSONValueDecoder` reads what Foundation's `JSONEncoder` and synthesized `Codable` write.
@Suite struct JSONValueDecoderTests {
    struct Item: Codable, Equatable {
        var id: Int
        var name: String
        var price: Double
        var tags: [String]
        var note: String?
    }

    enum Phase: Codable, Equatable {
        case idle
        case loading
        case loaded([Item])
        case failed(message: String, code: Int?)
        case pair(Int, String)
    }

    struct Numbers: Codable, Equatable {
        var i8: Int8, i16: Int16, i32: Int32, i64: Int64
        var u: UInt, u8: UInt8, u16: UInt16, u32: UInt32, u64: UInt64
        var float: Float, double: Double
        var flag: Bool
    }

    struct State: Codable, Equatable {
        var phase: Phase
        var history: [Phase]
        var selected: Int?
        var byID: [Int: Item]
        var byName: [String: [Int]]
        var matrix: [[Double]]
        var optionals: [Int?]
        var nested: Nested

        struct Nested: Codable, Equatable {
            var level: Int
            var child: [Nested]
        }
    }

    static func sampleState() -> State {
        let items = (0..<5).map {
            Item(id: $0, name: "item \($0) é", price: Double($0) * 0.1, tags: ["t\($0)"], note: $0 % 2 == 0 ? nil : "n")
        }
        return State(
            phase: .loaded(items),
            history: [
                .idle, .loading, .failed(message: "offline", code: nil), .failed(message: "x", code: 503),
                .pair(1, "one"),
            ],
            selected: nil,
            byID: [1234: items[1], -5: items[2]],
            byName: ["a": [1, 2], "": []],
            matrix: [[1.5, -2], [], [1e300]],
            optionals: [1, nil, 3],
            nested: .init(level: 0, child: [.init(level: 1, child: [.init(level: 2, child: [])])]))
    }

    private func roundTrip<T: Codable & Equatable>(_ value: T) throws {
        let data = try JSONEncoder().encode(value)
        #expect(try JSONValueDecoder().decode(T.self, from: [UInt8](data)) == value)
        #expect(try JSONValueDecoder().decode(T.self, from: data) == value)
        #expect(try JSONValueDecoder().decode(T.self, from: JSONParser.parse(data)) == value)
    }

    @Test func roundTripsRepresentativeTypes() throws {
        try roundTrip(Self.sampleState())
        try roundTrip([Phase.idle, .loading, .loaded([]), .pair(-1, "")])
        try roundTrip(["k": [1: "one", 2: "two"]])
        try roundTrip([Int?.none, 5])
        try roundTrip("plain string")
        try roundTrip(42)
        try roundTrip(
            Numbers(
                i8: -128, i16: .max, i32: .min, i64: .min, u: .max, u8: 255, u16: 1, u32: .max, u64: .max,
                float: 1.25, double: -0.0, flag: true))
    }

    @Test func enumShapes() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decode(Phase.self, from: Array(#"{"loading":{}}"#.utf8)) == .loading)
        #expect(try decoder.decode(Phase.self, from: Array(#"{"pair":{"_0":7,"_1":"s"}}"#.utf8)) == .pair(7, "s"))
        #expect(
            try decoder.decode(
                Phase.self, from: Array(#"{"loaded":{"_0":[{"id":1,"name":"a","price":2,"tags":[]}]}}"#.utf8))
                == .loaded([Item(id: 1, name: "a", price: 2, tags: [], note: nil)]))
        #expect(throws: DecodingError.self) { try decoder.decode(Phase.self, from: Array(#"{"unknown":{}}"#.utf8)) }
        #expect(throws: DecodingError.self) {
            try decoder.decode(Phase.self, from: Array(#"{"idle":{},"loading":{}}"#.utf8))
        }
    }

    @Test func optionalsMissingOrNull() throws {
        let decoder = JSONValueDecoder()
        let missing = try decoder.decode(Item.self, from: Array(#"{"id":1,"name":"a","price":1,"tags":[]}"#.utf8))
        let null = try decoder.decode(
            Item.self, from: Array(#"{"id":1,"name":"a","price":1,"tags":[],"note":null}"#.utf8))
        #expect(missing.note == nil && null.note == nil)
        #expect(try decoder.decode([Int?].self, from: Array("[null,2]".utf8)) == [nil, 2])
    }

    @Test func dictionariesWithIntKeys() throws {
        let decoded = try JSONValueDecoder().decode([Int: String].self, from: Array(#"{"1234":"a","-1":"b"}"#.utf8))
        #expect(decoded == [1234: "a", -1: "b"])
        let foundation = try JSONDecoder().decode([Int: String].self, from: Data(#"{"1234":"a","-1":"b"}"#.utf8))
        #expect(decoded == foundation)
        #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode([Int: String].self, from: Array(#"{"x":"a"}"#.utf8))
        }
    }

    @Test func integersAreExact() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decode(Int.self, from: Array("1.0".utf8)) == 1)
        #expect(try decoder.decode(Int.self, from: Array("12e2".utf8)) == 1200)
        #expect(try decoder.decode(Int64.self, from: Array("-9223372036854775808".utf8)) == .min)
        #expect(try decoder.decode(UInt64.self, from: Array("18446744073709551615".utf8)) == .max)
        for (text, type) in [
            ("128", Int8.self as any Decodable.Type), ("-1", UInt.self), ("1.5", Int.self),
            ("9223372036854775808", Int.self), ("1e30", Int64.self), ("18446744073709551616", UInt64.self),
            ("\"1\"", Int.self), ("true", Int.self), ("1e-5", Int32.self),
        ] {
            #expect(throws: DecodingError.self, "\(text) as \(type)") {
                _ = try decoder.decode(type, from: Array(text.utf8))
            }
        }
    }

    @Test func floatingPoint() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decode(Double.self, from: Array("0.1".utf8)) == 0.1)
        #expect(try decoder.decode(Double.self, from: Array("-2.5E-3".utf8)) == -0.0025)
        #expect(try decoder.decode(Double.self, from: Array(#""Infinity""#.utf8)) == .infinity)
        #expect(try decoder.decode(Double.self, from: Array(#""-Infinity""#.utf8)) == -.infinity)
        #expect(try decoder.decode(Double.self, from: Array(#""NaN""#.utf8)).isNaN)
        #expect(try decoder.decode(Float.self, from: Array(#""NaN""#.utf8)).isNaN)
        #expect(try decoder.decode([Float].self, from: Array("[1.5,2]".utf8)) == [1.5, 2])
        #expect(throws: DecodingError.self) { try decoder.decode(Double.self, from: Array("1e400".utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(Float.self, from: Array("1e39".utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(Double.self, from: Array(#""nan""#.utf8)) }
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        let data = try encoder.encode([1.5, .infinity, -.infinity])
        #expect(try decoder.decode([Double].self, from: data) == [1.5, .infinity, -.infinity])
    }

    private func decodingError<T: Decodable>(_ type: T.Type, _ text: String) -> DecodingError? {
        do {
            _ = try JSONValueDecoder().decode(type, from: Array(text.utf8))
            return nil
        } catch {
            return error as? DecodingError
        }
    }

    private func path(_ context: DecodingError.Context) -> [String] {
        context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
    }

    @Test func typeMismatchHasCodingPath() throws {
        let text = #"{"phase":{"loaded":{"_0":[{"id":1,"name":"a","price":1,"tags":[3]}]}}}"#
        guard case .typeMismatch(let type, let context) = decodingError(State.self, text) else {
            Issue.record("expected a type mismatch")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(String.self))
        #expect(path(context) == ["phase", "loaded", "_0", "[0]", "tags", "[0]"])
    }

    @Test func missingKeyHasCodingPath() throws {
        guard
            case .keyNotFound(let key, let context) = decodingError(
                [Item].self, #"[{"id":1,"name":"a","price":1,"tags":[]},{"id":2}]"#)
        else {
            Issue.record("expected a missing key")
            return
        }
        #expect(key.stringValue == "name")
        #expect(path(context) == ["[1]"])
    }

    @Test func overflowAndNullHaveCodingPaths() throws {
        guard case .dataCorrupted(let context) = decodingError(Numbers.self, #"{"i8":300}"#) else {
            Issue.record("expected corrupted data")
            return
        }
        #expect(path(context) == ["i8"])
        #expect(context.debugDescription.contains("300"))
        guard case .valueNotFound(_, let nullContext) = decodingError([String: Int].self, #"{"a":null}"#) else {
            Issue.record("expected a missing value")
            return
        }
        #expect(path(nullContext) == ["a"])
    }

    @Test func invalidJSONIsDataCorrupted() throws {
        guard case .dataCorrupted(let context) = decodingError(Int.self, "[1,]") else {
            Issue.record("expected corrupted data")
            return
        }
        #expect(context.underlyingError is JSONParseError)
        #expect(context.debugDescription.contains("line 1, column 4"))
    }

    @Test func decodesLikeFoundationOnSameBytes() throws {
        let data = try JSONEncoder().encode(Self.sampleState())
        let ours = try JSONValueDecoder().decode(State.self, from: data)
        let theirs = try JSONDecoder().decode(State.self, from: data)
        #expect(ours == theirs)
    }
}
