/// Decodes `Decodable` values from a `JSONValue`, or from JSON bytes, like Foundation's
/// `JSONDecoder` with its default strategies, and faster.
///
/// It reads what synthesized `Codable` conformances and the recorder write: structs as objects,
/// enums with associated values as `{"loaded":{"_0":[...]}}` and `{"loading":{}}`, optionals as
/// a missing member or `null`, dictionaries with `String` or `Int` keys as objects with string
/// names (`{"1234": ...}`), arrays. Integers must be whole and in range (`1.0` and `1e2` are
/// whole; `1.5` and `300` for `Int8` are errors). `Double` and `Float` read any number that is
/// in their range, and also the strings `"NaN"`, `"Infinity"` and `"-Infinity"`, which is how
/// non-finite values are written. Errors are `DecodingError`s with the `codingPath` of the
/// value at fault.
public struct JSONValueDecoder: Sendable {
    /// Passed to the types being decoded as `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// A decoder with no `userInfo`.
    public init() {}

    /// Decodes a `T` from `value`.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        let decoder = JSONTreeDecoder(value: value, path: [], userInfo: userInfo)
        return try decoder.unbox(value, as: T.self, at: nil, prefix: nil)
    }

    /// Parses `bytes` with `JSONParser` and decodes a `T` from the result. Invalid JSON throws
    /// `DecodingError.dataCorrupted` whose `underlyingError` is the `JSONParseError`.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>) throws -> T {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [], debugDescription: "The given data was not valid JSON: \(error)", underlyingError: error))
        }
        return try decode(type, from: value)
    }
}
