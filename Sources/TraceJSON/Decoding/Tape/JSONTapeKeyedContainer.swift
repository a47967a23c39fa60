/// The keyed container of `JSONTapeDecoder`: an object's members, looked up by name (the last
/// member with a name wins, as in `JSONObject`). It is only the decoder and a slot number; what
/// it stands for is in the slot (see `JSONTapeKeyedSlot`), where lookups can update it.
struct JSONTapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// The decoder's state, for everything but nested values (a pointer, not the decoder: a
    /// call on an `unowned(unsafe)` class reference costs a retain and a release).
    let state: UnsafeMutablePointer<JSONTapeState>
    /// For nested values and containers. Valid during the `decode` call, like the container.
    unowned(unsafe) let decoder: JSONTapeDecoder
    let slot: Int

    init(decoder: JSONTapeDecoder, slot: Int) {
        state = decoder.state
        self.decoder = decoder
        self.slot = slot
    }

    /// The coding-path node of the object.
    private var node: Int {
        @inline(__always) get { state.pointee.slots[slot].node }
    }

    var codingPath: [any CodingKey] { state.pointee.codingPath(node) }

    var allKeys: [Key] { state.pointee.allKeys(slot: slot, as: Key.self) }

    func contains(_ key: Key) -> Bool {
        state.pointee.member(key, slot: slot) != nil
    }

    /// The tape index of the value of `key`, or `keyNotFound`.
    @inline(__always)
    private func member(_ key: Key) throws -> Int {
        guard let index = state.pointee.member(key, slot: slot) else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return index
    }

    /// The tape index of the value of `key`, or nil when it is missing or null.
    @inline(__always)
    private func optionalMember(_ key: Key) -> Int? {
        guard let index = state.pointee.member(key, slot: slot),
            state.pointee.tape[index].kind != .null
        else { return nil }
        return index
    }

    /// The step from the object to the member whose value is at `index` (its name is just before).
    @inline(__always)
    private func step(_ index: Int) -> JSONTapeStep {
        .member(nameAt: index &- 1, Key.self)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        state.pointee.tape[try member(key)].kind == .null
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let index = try member(key)
        return try state.pointee.decodeBool(at: index, node, step(index))
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let index = try member(key)
        return try state.pointee.decodeString(at: index, node, step(index))
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try float(key, as: Double.self) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try float(key, as: Float.self) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key, as: Int.self) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key, as: Int8.self) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key, as: Int16.self) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key, as: Int32.self) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key, as: Int64.self) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key, as: UInt.self) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key, as: UInt8.self) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key, as: UInt16.self) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key, as: UInt32.self) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key, as: UInt64.self) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let index = try member(key)
        return try decoder.unbox(T.self, at: index, parent: node, step: step(index))
    }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ key: Key, as type: T.Type) throws -> T {
        let index = try member(key)
        return try state.pointee.decodeInteger(at: index, as: T.self, node, step(index))
    }

    @inline(__always)
    private func float<T: BinaryFloatingPoint & LosslessStringConvertible>(_ key: Key, as type: T.Type) throws -> T {
        let index = try member(key)
        return try state.pointee.decodeFloat(at: index, as: T.self, node, step(index))
    }

    // Synthesized conformances call these for optionals: missing or null is nil.

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let index = optionalMember(key) else { return nil }
        return try state.pointee.decodeBool(at: index, node, step(index))
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let index = optionalMember(key) else { return nil }
        return try state.pointee.decodeString(at: index, node, step(index))
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try optionalFloat(key, as: Double.self)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try optionalFloat(key, as: Float.self)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optionalInteger(key, as: Int.self) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optionalInteger(key, as: Int8.self) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try optionalInteger(key, as: Int16.self)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try optionalInteger(key, as: Int32.self)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try optionalInteger(key, as: Int64.self)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optionalInteger(key, as: UInt.self) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try optionalInteger(key, as: UInt8.self)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try optionalInteger(key, as: UInt16.self)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try optionalInteger(key, as: UInt32.self)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try optionalInteger(key, as: UInt64.self)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = optionalMember(key) else { return nil }
        return try decoder.unbox(T.self, at: index, parent: node, step: step(index))
    }

    @inline(__always)
    private func optionalInteger<T: FixedWidthInteger>(_ key: Key, as type: T.Type) throws -> T? {
        guard let index = optionalMember(key) else { return nil }
        return try state.pointee.decodeInteger(at: index, as: T.self, node, step(index))
    }

    @inline(__always)
    private func optionalFloat<T: BinaryFloatingPoint & LosslessStringConvertible>(_ key: Key, as type: T.Type) throws
        -> T?
    {
        guard let index = optionalMember(key) else { return nil }
        return try state.pointee.decodeFloat(at: index, as: T.self, node, step(index))
    }

    // MARK: Nesting

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try member(key)
        return try decoder.keyedContainer(NestedKey.self, at: index, parent: node, step: step(index))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let index = try member(key)
        return try decoder.unkeyedContainer(at: index, parent: node, step: step(index))
    }

    func superDecoder() throws -> any Decoder {
        let index = state.pointee.member(JSONCodingKey.superKey, slot: slot) ?? 0
        return decoder.superDecoder(at: index, parent: node, key: JSONCodingKey.superKey)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        let index = state.pointee.member(key, slot: slot) ?? 0
        return decoder.superDecoder(at: index, parent: node, key: key)
    }
}
