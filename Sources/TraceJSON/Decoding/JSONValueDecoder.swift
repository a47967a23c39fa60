@_spi(RewindInternals) package import RewindSupport

/// Decodes `Decodable` values from JSON bytes, or from a `JSONValue`, like Foundation's
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
///
/// A `\uXXXX` escape of a lone UTF-16 surrogate (`"\ud800"`, valid JSON but no character)
/// decodes as U+FFFD REPLACEMENT CHARACTER in a `String`, as Swift repairs such text; `JSONParser`
/// keeps it distinct instead (see there). `JSONDecoder` refuses the whole document.
///
/// Where it differs from `JSONDecoder`: when an object repeats a member name, the last member
/// wins (as in `JSONObject`), not the first; a number too large for its type reports the
/// member's `codingPath`, not an empty one. Decoding from bytes reads `Date`, `Decimal`, `URL`,
/// `Data` and dictionaries keyed by a `String`-backed enum as the recorder writes them (an RFC
/// 3339 timestamp, read back to the exact `Double`; a number with its exact digits; a string;
/// base64; an object), and each also in its own `Codable` form (seconds since 2001, an object,
/// an array of bytes, an array of keys and values). Decoding from a `JSONValue` uses only their
/// own `Codable` forms.
public struct JSONValueDecoder: Sendable {
    /// Passed to the types being decoded as `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// A decoder with no `userInfo`.
    public init() {}

    /// Decodes a `T` from `value`: the value is written as the compact JSON it stands for and
    /// decoded from those bytes, so it decodes exactly as the same text read from a trace would
    /// (there is one decoder, the one for bytes). Costs one printing of the value.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try decode(T.self, from: JSONPrinter.compactUTF8(value))
    }

    /// Decodes a `T` from JSON bytes, such as `[UInt8]`, `ArraySlice<UInt8>` or `Data`: the fast
    /// way back from a recorded state to the app's type, several times faster than `JSONDecoder`
    /// on the same bytes. The bytes are checked exactly as `JSONParser` checks them, in the same
    /// pass that decodes, and no `JSONValue` is built. Invalid JSON throws
    /// `DecodingError.dataCorrupted` whose `underlyingError` is the `JSONParseError`.
    ///
    /// Calls reuse working memory from a small pool shared by the whole process, so there is no
    /// need to keep a decoder around, and calls from several threads at once are safe.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>) throws -> T {
        if Swift.type(of: bytes) == [UInt8].self {
            // The usual input, without the Optional<T> of withContiguousStorageIfAvailable (whose
            // metadata a generic function looks up on every call) and without a dynamic cast.
            return try knownTypeCast(bytes, to: [UInt8].self).withUnsafeBytes { try decode(T.self, from: $0) }
        }
        if Swift.type(of: bytes) == UnsafeRawBufferPointer.self {
            return try decode(T.self, from: knownTypeCast(bytes, to: UnsafeRawBufferPointer.self))
        }
        let decoded = try bytes.withContiguousStorageIfAvailable {
            try decode(T.self, from: UnsafeRawBufferPointer($0))
        }
        if let decoded { return decoded }
        return try Array(bytes).withUnsafeBytes { try decode(T.self, from: $0) }
    }

    /// Decodes a `T` from a member's bytes as the trace reader holds them.
    package func decode<T: Decodable>(_ type: T.Type, from bytes: ByteView) throws -> T {
        try decode(type, from: UnsafeRawBufferPointer(start: bytes.unsafeBaseAddress, count: bytes.count))
    }

    /// Decodes a `T` from the JSON bytes in `buffer`, with a decoder from the pool.
    func decode<T: Decodable>(_ type: T.Type, from buffer: UnsafeRawBufferPointer) throws -> T {
        let userInfo = self.userInfo
        return try JSONTapeDecoderPool.withDecoder { try $0.decode(T.self, from: buffer, userInfo: userInfo) }
    }
}
