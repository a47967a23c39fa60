/// The types the encoder knows by a conformance, so that one conformance lookup per type (the
/// first time the type comes by, in `TypeTable`) tells how to write its values and whether the
/// memo may keep them (each lookup scans the conformance records of the whole process once).
///
/// - Arrays, dictionaries and sets can be remembered by their storage (`EncodingMemo`), unless
///   their elements are classes.
/// - Dictionaries and sets, whose iteration order Swift randomizes per process, are written
///   through their own `encode(to:)` and then put in a stable order (`StableOrder`), so that the
///   same state gives the same bytes in every run: a dictionary's members by the bytes of their
///   keys, a set's elements by their JSON. A dictionary keyed by a `String`-backed enum
///   (`enum Field: String`) becomes a JSON object, the keys as names, where they are readable
///   and redaction sees them; Swift's own `Codable` writes it as an array of key, value, key,
///   value (unless the enum is `CodingKeyRepresentable`), which hides the keys. Other keys that
///   are not names keep that array form, the pairs sorted by the JSON of their keys.
/// - A `Secret` is written as `"<redacted>"`, and never remembered (the memo would keep its
///   bytes).
protocol RecordedEncoding {
    /// How values of this type are written.
    static var recordedWriting: TypeTable.Writing { get }
    /// How the memo may remember values of this type.
    static var recordedMemo: EncodingMemo.Kind { get }
}

extension Array: RecordedEncoding {
    static var recordedWriting: TypeTable.Writing { .plain }
    static var recordedMemo: EncodingMemo.Kind { Element.self is AnyObject.Type ? .never : .storage }
}

extension Dictionary: RecordedEncoding {
    static var recordedWriting: TypeTable.Writing {
        if Key.self == String.self || Key.self == Int.self { return .dictionary }
        if #available(macOS 12.3, iOS 15.4, watchOS 8.5, tvOS 15.4, *), Key.self is any CodingKeyRepresentable.Type {
            return .dictionary
        }
        if let raw = Key.self as? any RawRepresentable.Type, Self.isStringBacked(raw) { return .namedPairs }
        return .dictionary
    }

    static var recordedMemo: EncodingMemo.Kind {
        Key.self is AnyObject.Type || Value.self is AnyObject.Type ? .never : .storage
    }

    private static func isStringBacked<Raw: RawRepresentable>(_: Raw.Type) -> Bool {
        Raw.RawValue.self == String.self
    }
}

extension Set: RecordedEncoding {
    static var recordedWriting: TypeTable.Writing { .set }
    static var recordedMemo: EncodingMemo.Kind { Element.self is AnyObject.Type ? .never : .storage }
}

extension Secret: RecordedEncoding {
    static var recordedWriting: TypeTable.Writing { .secret }
    static var recordedMemo: EncodingMemo.Kind { .never }
}
