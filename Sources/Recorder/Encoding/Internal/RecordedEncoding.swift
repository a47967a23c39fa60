/// Dictionaries and sets, whose iteration order Swift randomizes per process: the encoder writes
/// them through their own `encode(to:)` and then puts their members in a stable order
/// (`StableOrder`), so that the same state gives the same bytes in every run. The conformances
/// below only tell, once per type (`TypeTable`), which kind a type is.
///
/// - A dictionary's members come sorted by the bytes of their keys. A dictionary keyed by a
///   `String`-backed enum (`enum Field: String`) is written as a JSON object, the keys as names,
///   where they are readable and redaction sees them; Swift's own `Codable` writes it as an
///   array of key, value, key, value (unless the enum is `CodingKeyRepresentable`), which hides
///   the keys. Other keys that are not names keep that array form, the pairs sorted by the JSON
///   of their keys.
/// - A set's elements come sorted by their JSON bytes.
protocol RecordedEncoding {
    /// How values of this type are put in order.
    static var recordedWriting: TypeTable.Writing { get }
}

extension Dictionary: RecordedEncoding where Key: Encodable, Value: Encodable {
    static var recordedWriting: TypeTable.Writing {
        if Key.self == String.self || Key.self == Int.self { return .dictionary }
        if #available(macOS 12.3, iOS 15.4, watchOS 8.5, tvOS 15.4, *), Key.self is any CodingKeyRepresentable.Type {
            return .dictionary
        }
        if let raw = Key.self as? any RawRepresentable.Type, Self.isStringBacked(raw) { return .namedPairs }
        return .dictionary
    }

    private static func isStringBacked<Raw: RawRepresentable>(_: Raw.Type) -> Bool {
        Raw.RawValue.self == String.self
    }
}

extension Set: RecordedEncoding where Element: Encodable {
    static var recordedWriting: TypeTable.Writing { .set }
}
