/// A value the recorder never writes: wherever it sits in a state or an action's arguments
/// (under any key, in an array, as an unlabeled enum payload), the trace holds `"<redacted>"`.
///
/// ```swift
/// enum LoginState: Codable, Equatable, Sendable {
///     case editing
///     case submitting(Secret<String>)   // recorded as {"submitting":{"_0":"<redacted>"}}
/// }
/// ```
///
/// Unlike a key in ``Redaction``, this cannot be forgotten at the recorder: the type itself says
/// what is secret. Everywhere else it is its value: it encodes and decodes as the bare value with
/// any other encoder (an app's own `JSONEncoder` writes `"hunter2"`, not an object), compares
/// as the value, and prints as `<redacted>` so that it does not leak into logs either.
/// Decoding a recorded state back (`TraceFile.state(of:atStep:as:)`) gives the text
/// `"<redacted>"`, so only a `Secret<String>` reads back, and with that text.
public struct Secret<Value>: CustomStringConvertible, CustomReflectable {
    /// The secret value.
    public var value: Value

    /// Wraps `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// `<redacted>`: the value is not printed (by `print`, `String(describing:)` or
    /// `String(reflecting:)`).
    public var description: String { "<redacted>" }

    /// A mirror with no children, so `dump` and the debugger's summaries do not show the value.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension Secret: Sendable where Value: Sendable {}
extension Secret: Equatable where Value: Equatable {}

extension Secret: Encodable where Value: Encodable {
    /// Encodes the bare value, or `"<redacted>"` for the recorder's encoder.
    public func encode(to encoder: any Encoder) throws {
        // The recorder's encoder recognizes a `Secret` before calling this (`RecordedEncoding`);
        // this covers an encoder it hands out that is asked to encode a secret directly.
        if let recording = encoder as? any RedactingEncoder {
            recording.appendRedacted()
            return
        }
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

extension Secret: Decodable where Value: Decodable {
    /// Decodes the bare value.
    public init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(Value.self)
    }
}

/// A `Secret` whose value an encoding that stays in the process may write (`StateEncoder`'s
/// `revealingSecrets`).
protocol RevealableSecret {
    func encodeValue(in context: EncodingContext) throws
}

extension Secret: RevealableSecret where Value: Encodable {
    func encodeValue(in context: EncodingContext) throws {
        try context.encodeValue(value)
    }
}

/// The recorder's encoders, which write a secret as `"<redacted>"`.
protocol RedactingEncoder {
    func appendRedacted()
}
