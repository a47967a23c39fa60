/// Types the recorder writes its own way instead of through their `encode(to:)`: dictionaries
/// and sets, whose iteration order Swift randomizes per process, written in a stable order so
/// that the same state gives the same bytes in every run.
///
/// - A dictionary's members come sorted by key: strings by `<` (the order of `String`'s
///   comparison), integer keys by value. Keys that are strings, `Int`s, `CodingKeyRepresentable`
///   or `String`-backed enums (`enum Field: String`) are written as a JSON object, the keys as
///   names, where they are readable and redaction sees them; Swift's own `Codable` writes the
///   last kind as an array of key, value, key, value, which hides the keys. Other keys keep
///   that array form, the pairs sorted by the JSON of their keys.
/// - A set's elements come sorted by their JSON bytes.
///
/// The encoder's type table finds the conformance once per type (see `TypeTable`).
protocol RecordedEncoding {
    /// Writes the value at `pointer`, which is a `Self`.
    static func encodeRecorded(at pointer: UnsafeRawPointer, to context: EncodingContext) throws
}

extension Dictionary: RecordedEncoding where Key: Encodable, Value: Encodable {
    static func encodeRecorded(at pointer: UnsafeRawPointer, to context: EncodingContext) throws {
        try context.encodeDictionary(pointer.assumingMemoryBound(to: Self.self).pointee)
    }
}

extension Set: RecordedEncoding where Element: Encodable {
    static func encodeRecorded(at pointer: UnsafeRawPointer, to context: EncodingContext) throws {
        try context.encodeSet(pointer.assumingMemoryBound(to: Self.self).pointee)
    }
}

extension EncodingContext {
    /// Writes `dictionary` with its members sorted by key.
    func encodeDictionary<Key: Encodable, Value: Encodable>(_ dictionary: [Key: Value]) throws {
        if Key.self == Int.self {
            let members = dictionary.indices.sorted {
                knownCast(dictionary[$0].key, to: Int.self) < knownCast(dictionary[$1].key, to: Int.self)
            }
            try encodeMembers(members.map { (String(knownCast(dictionary[$0].key, to: Int.self)), $0) }, of: dictionary)
            return
        }
        guard let name = Self.keyName(for: Key.self) else {
            try encodePairs(dictionary)
            return
        }
        let members = dictionary.indices.map { (name(dictionary[$0].key), $0) }.sorted { $0.0 < $1.0 }
        try encodeMembers(members, of: dictionary)
    }

    /// How a key of type `Key` is written as a JSON object's member name; nil when it is not.
    /// (The conformances are opened once per dictionary, not cast per key.)
    private static func keyName<Key>(for _: Key.Type) -> ((Key) -> String)? {
        if Key.self == String.self { return { knownCast($0, to: String.self) } }
        if #available(macOS 12.3, iOS 15.4, watchOS 8.5, tvOS 15.4, *),
            let representable = Key.self as? any CodingKeyRepresentable.Type
        {
            return codingKeyName(representable, for: Key.self)
        }
        if let raw = Key.self as? any RawRepresentable.Type { return rawKeyName(raw, for: Key.self) }
        return nil
    }

    @available(macOS 12.3, iOS 15.4, watchOS 8.5, tvOS 15.4, *)
    private static func codingKeyName<Representable: CodingKeyRepresentable, Key>(
        _: Representable.Type, for _: Key.Type
    ) -> (Key) -> String {
        { knownCast($0, to: Representable.self).codingKey.stringValue }
    }

    /// For a `String`-backed key: its raw value.
    private static func rawKeyName<Raw: RawRepresentable, Key>(_: Raw.Type, for _: Key.Type) -> ((Key) -> String)? {
        guard Raw.RawValue.self == String.self else { return nil }
        return { knownCast(knownCast($0, to: Raw.self).rawValue, to: String.self) }
    }

    /// Writes `{"name":value,...}` in the order of `members`.
    private func encodeMembers<Key, Value: Encodable>(
        _ members: [(String, Dictionary<Key, Value>.Index)], of dictionary: [Key: Value]
    ) throws {
        let output = self.output
        output.append(UInt8(ascii: "{"))
        var first = true
        for (name, index) in members {
            if first { first = false } else { output.append(UInt8(ascii: ",")) }
            if writeKey(name) { try encodeValue(dictionary[index].value) }
        }
        output.append(UInt8(ascii: "}"))
    }

    /// Writes `[key,value,key,value,...]`, as Swift's `Codable` does for keys that are not
    /// names, with the pairs sorted by the JSON of their keys.
    private func encodePairs<Key: Encodable, Value: Encodable>(_ dictionary: [Key: Value]) throws {
        let output = self.output
        let mark = output.count
        var pairs: [(key: Range<Int>, pair: Range<Int>)] = []
        pairs.reserveCapacity(dictionary.count)
        for (key, value) in dictionary {
            let start = output.count
            try encodeValue(key)
            let keyEnd = output.count
            output.append(UInt8(ascii: ","))
            try encodeValue(value)
            pairs.append((start..<keyEnd, start..<output.count))
        }
        rewriteSorted(from: mark, runs: pairs.map { ($0.key, $0.pair) })
    }

    /// Writes `set` with its elements sorted by their JSON.
    func encodeSet<Element: Encodable>(_ set: Set<Element>) throws {
        let output = self.output
        let mark = output.count
        var elements: [(Range<Int>, Range<Int>)] = []
        elements.reserveCapacity(set.count)
        for element in set {
            let start = output.count
            try encodeValue(element)
            elements.append((start..<output.count, start..<output.count))
        }
        rewriteSorted(from: mark, runs: elements)
    }

    /// Replaces the runs written since `mark` (each `written`, compared by its `order` bytes, then
    /// by all of it) with `[run,run,...]` in sorted order.
    private func rewriteSorted(from mark: Int, runs: [(order: Range<Int>, written: Range<Int>)]) {
        let output = self.output
        let written = Array(output.bytes(from: mark))
        let sorted = written.withUnsafeBytes { bytes in
            runs.sorted { left, right in
                let byOrder = Self.compare(bytes, left.order, right.order, from: mark)
                return byOrder != 0 ? byOrder < 0 : Self.compare(bytes, left.written, right.written, from: mark) < 0
            }
        }
        output.count = mark
        output.append(UInt8(ascii: "["))
        written.withUnsafeBytes { bytes in
            for (position, run) in sorted.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                output.append(
                    UnsafeRawBufferPointer(
                        rebasing: bytes[(run.written.lowerBound - mark)..<(run.written.upperBound - mark)]))
            }
        }
        output.append(UInt8(ascii: "]"))
    }

    /// Compares two runs of `bytes` (offsets counted from `mark`) byte by byte, shorter first on
    /// a tie: negative, zero or positive.
    private static func compare(
        _ bytes: UnsafeRawBufferPointer, _ left: Range<Int>, _ right: Range<Int>, from mark: Int
    )
        -> Int
    {
        let leftBytes = bytes[(left.lowerBound - mark)..<(left.upperBound - mark)]
        let rightBytes = bytes[(right.lowerBound - mark)..<(right.upperBound - mark)]
        for (a, b) in zip(leftBytes, rightBytes) where a != b { return a < b ? -1 : 1 }
        return leftBytes.count - rightBytes.count
    }
}
