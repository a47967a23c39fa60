@testable import TraceJSON

/// Test helpers for the decoder: a `Decodable` that rebuilds any JSON document through the
/// `Decoder` API only, and the same normalization applied to what `JSONParser` builds, so that
/// "the decoder read the document exactly as the parser did" is one `==`.
///
/// Numbers are compared as the `Double` they decode to (their text is not visible through
/// `Decoder`); a number beyond `Double`'s range, which the decoder refuses as a `Double`,
/// becomes the string "out of range" on both sides. An object's member values are the values a
/// keyed container finds, so with duplicate names each member shows the last value, as
/// `JSONObject` lookups do.
indirect enum JSONDecodingMirror: Decodable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case outOfRange
    case string(String)
    case array([JSONDecodingMirror])
    case object([Member])

    struct Member: Equatable {
        var name: String
        var value: JSONDecodingMirror
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            self = .object(
                try object.allKeys.map {
                    Member(name: $0.stringValue, value: try object.decode(JSONDecodingMirror.self, forKey: $0))
                })
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONDecodingMirror] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONDecodingMirror.self)) }
            self = .array(elements)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let bool = try? single.decode(Bool.self) {
                self = .bool(bool)
            } else if let string = try? single.decode(String.self) {
                self = .string(string)
            } else if let number = try? single.decode(Double.self) {
                self = .number(number)
            } else {
                self = .outOfRange
            }
        }
    }

    /// What the decoder should make of a parsed value (a lone surrogate is U+FFFD to it).
    init(parsed value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let bool): self = .bool(bool)
        case .number(let text):
            if let number = Double(text), number.isFinite { self = .number(number) } else { self = .outOfRange }
        case .string(let string): self = .string(LoneSurrogates.repaired(string))
        case .array(let elements): self = .array(elements.map(JSONDecodingMirror.init(parsed:)))
        case .object(let object):
            self = .object(
                object.map { member in
                    Member(
                        name: LoneSurrogates.repaired(member.key),
                        value: JSONDecodingMirror(parsed: object[member.key] ?? .null))
                })
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let bool): "\(bool)"
        case .number(let number): "\(number)"
        case .outOfRange: "<out of range>"
        case .string(let string): "\"\(string)\""
        case .array(let elements): "[" + elements.map(\.description).joined(separator: ",") + "]"
        case .object(let members): "{" + members.map { "\"\($0.name)\":\($0.value)" }.joined(separator: ",") + "}"
        }
    }
}

/// Decodes `bytes` with the fast decoder; on a syntax error returns the `JSONParseError` the
/// decoder reported as `underlyingError` (the error must be that and nothing else).
enum DecodingOutcome: Equatable {
    case decoded(JSONDecodingMirror)
    case syntaxError(JSONParseError)
    case otherError(String)

    init(decoding bytes: [UInt8]) {
        do {
            self = .decoded(try JSONValueDecoder().decode(JSONDecodingMirror.self, from: bytes))
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, let parseError = context.underlyingError as? JSONParseError {
                self = .syntaxError(parseError)
            } else {
                self = .otherError("\(error)")
            }
        } catch {
            self = .otherError("\(error)")
        }
    }

    /// What the parser says about `bytes`, as the decoder should report it.
    init(parsing bytes: [UInt8]) {
        do throws(JSONParseError) {
            self = .decoded(JSONDecodingMirror(parsed: try JSONParser.parse(bytes)))
        } catch {
            self = .syntaxError(error)
        }
    }
}
