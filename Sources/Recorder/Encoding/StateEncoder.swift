/// Encodes `Encodable` values to JSON bytes, the way a trace records states.
///
/// It writes bytes directly into one reused buffer as `encode(to:)` runs, with no intermediate
/// tree, which makes it many times faster than Foundation's `JSONEncoder` (see the README's
/// "Performance" section). The output is compact JSON, the same bytes for the same value in
/// every process:
/// - keys in the order the type encodes them (declaration order for synthesized `Codable`);
/// - a dictionary's members sorted by key, a set's elements sorted by their JSON; a dictionary
///   keyed by a `String`-backed enum as an object (Swift's `Codable` writes an array of key,
///   value, key, value);
/// - strings escaped per RFC 8259, non-ASCII written as UTF-8;
/// - doubles in the shortest form that reads back as the same value; NaN and infinities as the
///   strings `"NaN"`, `"Infinity"`, `"-Infinity"` (JSON has no such numbers);
/// - `Date` as an RFC 3339 timestamp in UTC with the fraction digits that read back exactly,
///   `Decimal` as a number with its exact digits, `URL` as its string, `Data` as
///   base64 (see <doc:RecordingAStore>, "Reading recorded values back");
/// - a `nil` optional member left out, as `JSONEncoder` does;
/// - a ``Secret``, and the value of any key that `redactedKeys` covers, at any depth, replaced
///   by `"<redacted>"`.
///
/// A `StateEncoder` is not thread-safe: use one per thread, or guard it with a lock (the
/// recorder keeps its own under its lock).
public final class StateEncoder {
    let encoder: StreamingEncoder

    /// Creates an encoder.
    /// - Parameter redactedKeys: the keys whose values are written as `"<redacted>"`.
    public init(redactedKeys: Redaction = []) {
        encoder = StreamingEncoder(redaction: redactedKeys)
    }

    /// An encoder that writes every value, a ``Secret``'s too, and redacts nothing: for what
    /// never leaves the process. Time travel (the TimeTravel library) encodes a live state with
    /// it to keep the values that a trace holds only as `"<redacted>"`.
    package init(revealingSecrets: Void) {
        encoder = StreamingEncoder(redaction: .none)
        encoder.context.state.pointee.revealsSecrets = true
    }

    /// Returns the JSON bytes of `value`.
    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        try withEncoded(value) { Array($0) }
    }

    /// Returns the JSON text of `value`.
    public func encodeToString<T: Encodable>(_ value: T) throws -> String {
        try withEncoded(value) { String(decoding: $0, as: UTF8.self) }
    }

    /// Encodes `value` and hands its bytes to `body`, without copying them. The bytes are valid
    /// only inside `body`.
    public func withEncoded<T: Encodable, R>(_ value: T, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        encoder.reset(to: 0)
        do {
            try encoder.appendValue(value)
        } catch {
            encoder.reset(to: 0)
            throw error
        }
        defer { encoder.output.shrinkIfLarge() }
        return try body(encoder.output.bytes)
    }
}
