/// The keyed container of `JSONTreeDecoder`: an object's members, looked up by name (the last
/// member with a name wins, as `JSONObject` does).
struct JSONKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: JSONTreeDecoder
    let object: JSONObject
    /// The container's own path when nested in another container; nil: the decoder's current path.
    let prefix: [JSONCodingPathElement]?

    var codingPath: [any CodingKey] { decoder.basePath(prefix).codingKeys }

    var allKeys: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(object.count)
        for name in object.keys {
            if let key = Key(stringValue: name) { keys.append(key) }
        }
        return keys
    }

    func contains(_ key: Key) -> Bool {
        object.lastPosition(of: key.stringValue) != nil
    }

    /// The value of `key`, or `keyNotFound`.
    @inline(__always)
    private func member(_ key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return value
    }

    /// The value of `key`, or nil when it is missing or null.
    @inline(__always)
    private func optionalMember(_ key: Key) -> JSONValue? {
        guard let value = object[key.stringValue] else { return nil }
        if case .null = value { return nil }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try member(key) { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decoder.unboxBool(member(key), at: .key(key), prefix: prefix)
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.unboxString(member(key), at: .key(key), prefix: prefix)
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.unboxFloat(member(key), as: Double.self, at: .key(key), prefix: prefix)
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.unboxFloat(member(key), as: Float.self, at: .key(key), prefix: prefix)
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try decoder.unboxInteger(member(key), as: Int.self, at: .key(key), prefix: prefix)
    }

    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try decoder.unboxInteger(member(key), as: Int8.self, at: .key(key), prefix: prefix)
    }

    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try decoder.unboxInteger(member(key), as: Int16.self, at: .key(key), prefix: prefix)
    }

    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try decoder.unboxInteger(member(key), as: Int32.self, at: .key(key), prefix: prefix)
    }

    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try decoder.unboxInteger(member(key), as: Int64.self, at: .key(key), prefix: prefix)
    }

    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try decoder.unboxInteger(member(key), as: UInt.self, at: .key(key), prefix: prefix)
    }

    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try decoder.unboxInteger(member(key), as: UInt8.self, at: .key(key), prefix: prefix)
    }

    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try decoder.unboxInteger(member(key), as: UInt16.self, at: .key(key), prefix: prefix)
    }

    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try decoder.unboxInteger(member(key), as: UInt32.self, at: .key(key), prefix: prefix)
    }

    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try decoder.unboxInteger(member(key), as: UInt64.self, at: .key(key), prefix: prefix)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unbox(member(key), as: T.self, at: .key(key), prefix: prefix)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = optionalMember(key) else { return nil }
        return try decoder.unboxBool(value, at: .key(key), prefix: prefix)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = optionalMember(key) else { return nil }
        return try decoder.unboxString(value, at: .key(key), prefix: prefix)
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let value = optionalMember(key) else { return nil }
        return try decoder.unboxFloat(value, as: Double.self, at: .key(key), prefix: prefix)
    }

    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let value = optionalMember(key) else { return nil }
        return try decoder.unboxFloat(value, as: Float.self, at: .key(key), prefix: prefix)
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let value = optionalMember(key) else { return nil }
        return try decoder.unboxInteger(value, as: Int.self, at: .key(key), prefix: prefix)
    }

    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        guard let value = optionalMember(key) else { return nil }
        return try decoder.unboxInteger(value, as: Int8.self, at: .key(key), prefix: prefix)
    }

    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        guard let value = optionalMember(key) else { return nil }
        return try decoder.unboxInteger(value, as: Int16.self, at: .key(key), prefix: prefix)
    }

    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        guard let value = optionalMember(key) else { return nil }
        return try decoder.unboxInteger(value, as: Int32.self, at: .key(key), prefix: prefix)
    }

    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        guard let value = optionalMember(key) else { return nil }
        return try decoder.unboxInteger(value, as: Int64.self, at: .key(key), prefix: prefix)
    }

    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        guard let value = optionalMember(key) else { return nil }
        return try decoder.unboxInteger(value, as: UInt.self, at: .key(key), prefix: prefix)
    }

    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        guard let value = optionalMember(key) else { return nil }
        return try decoder.unboxInteger(value, as: UInt8.self, at: .key(key), prefix: prefix)
    }

    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        guard let value = optionalMember(key) else { return nil }
        return try decoder.unboxInteger(value, as: UInt16.self, at: .key(key), prefix: prefix)
    }

    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        guard let value = optionalMember(key) else { return nil }
        return try decoder.unboxInteger(value, as: UInt32.self, at: .key(key), prefix: prefix)
    }

    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        guard let value = optionalMember(key) else { return nil }
        return try decoder.unboxInteger(value, as: UInt64.self, at: .key(key), prefix: prefix)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = optionalMember(key) else { return nil }
        return try decoder.unbox(value, as: T.self, at: .key(key), prefix: prefix)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(
            try decoder.keyedContainer(
                member(key), keyedBy: NestedKey.self, at: .key(key), prefix: prefix, nested: true))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.unkeyedContainer(member(key), at: .key(key), prefix: prefix, nested: true)
    }

    func superDecoder() throws -> any Decoder {
        decoder.subdecoder(
            object[JSONCodingKey.superKey.stringValue] ?? .null, at: .key(JSONCodingKey.superKey), prefix: prefix)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.subdecoder(object[key.stringValue] ?? .null, at: .key(key), prefix: prefix)
    }
}
