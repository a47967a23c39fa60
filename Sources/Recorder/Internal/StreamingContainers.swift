// The keyed, unkeyed and single-value containers of `StreamingEncoder`. Each is a small struct
// (the encoder and a frame index); every write goes straight to the encoder's output.

struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    unowned(unsafe) let encoder: StreamingEncoder
    let frame: Int

    var codingPath: [any CodingKey] { [] }

    /// Writes the comma and the key; false when the key is redacted (its value is then written).
    @inline(__always)
    private func begin(_ key: Key) -> Bool {
        encoder.beginElement(of: frame)
        let name = key.stringValue
        encoder.appendKey(name)
        if encoder.isRedacted(name) {
            encoder.output.append("\"<redacted>\"")
            return false
        }
        return true
    }

    mutating func encodeNil(forKey key: Key) throws { if begin(key) { encoder.output.append("null") } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { if begin(key) { encoder.appendBool(value) } }
    mutating func encode(_ value: String, forKey key: Key) throws { if begin(key) { encoder.output.appendString(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws { if begin(key) { encoder.output.append(value) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { if begin(key) { encoder.output.append(value) } }
    mutating func encode(_ value: Int, forKey key: Key) throws { if begin(key) { encoder.output.append(Int64(value)) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { if begin(key) { encoder.output.append(Int64(value)) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { if begin(key) { encoder.output.append(Int64(value)) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { if begin(key) { encoder.output.append(Int64(value)) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { if begin(key) { encoder.output.append(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws { if begin(key) { encoder.output.append(UInt64(value)) } }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { if begin(key) { encoder.output.append(UInt64(value)) } }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { if begin(key) { encoder.output.append(UInt64(value)) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { if begin(key) { encoder.output.append(UInt64(value)) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { if begin(key) { encoder.output.append(value) } }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if begin(key) { try encoder.encodeValue(value) }
    }

    // Synthesized conformances call these for optionals: a nil is left out, as JSONEncoder does.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        guard begin(key) else {
            return encoder.discardingEncoder().container(keyedBy: NestedKey.self)
        }
        return encoder.keyedContainer(NestedKey.self, frame: encoder.openFrame(array: false))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        guard begin(key) else { return encoder.discardingEncoder().unkeyedContainer() }
        return UnkeyedContainer(encoder: encoder, frame: encoder.openFrame(array: true))
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(key: "super")
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(key: key.stringValue)
    }

    private func superEncoder(key: String) -> any Encoder {
        // The superclass writes its own value into a separate encoder; the member is spliced in
        // when that encoder is finished (see `SuperEncoderSlot`).
        encoder.beginElement(of: frame)
        encoder.appendKey(key)
        if encoder.isRedacted(key) {
            encoder.output.append("\"<redacted>\"")
            return encoder.discardingEncoder()
        }
        // Streaming cannot wait for the superclass; its container opens in place, here.
        return SuperEncoder(encoder: encoder)
    }
}

/// An `Encoder` for `superEncoder()`: its container opens in place, right after the key.
struct SuperEncoder: Encoder {
    unowned(unsafe) let encoder: StreamingEncoder
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(encoder: encoder, frame: encoder.openFrame(array: false)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(encoder: encoder, frame: encoder.openFrame(array: true))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: encoder)
    }
}

struct UnkeyedContainer: UnkeyedEncodingContainer {
    unowned(unsafe) let encoder: StreamingEncoder
    let frame: Int
    private(set) var count = 0

    init(encoder: StreamingEncoder, frame: Int) {
        self.encoder = encoder
        self.frame = frame
    }

    var codingPath: [any CodingKey] { [] }

    @inline(__always)
    private mutating func begin() {
        encoder.beginElement(of: frame)
        count &+= 1
    }

    mutating func encodeNil() throws { begin(); encoder.output.append("null") }
    mutating func encode(_ value: Bool) throws { begin(); encoder.appendBool(value) }
    mutating func encode(_ value: String) throws { begin(); encoder.output.appendString(value) }
    mutating func encode(_ value: Double) throws { begin(); encoder.output.append(value) }
    mutating func encode(_ value: Float) throws { begin(); encoder.output.append(value) }
    mutating func encode(_ value: Int) throws { begin(); encoder.output.append(Int64(value)) }
    mutating func encode(_ value: Int8) throws { begin(); encoder.output.append(Int64(value)) }
    mutating func encode(_ value: Int16) throws { begin(); encoder.output.append(Int64(value)) }
    mutating func encode(_ value: Int32) throws { begin(); encoder.output.append(Int64(value)) }
    mutating func encode(_ value: Int64) throws { begin(); encoder.output.append(value) }
    mutating func encode(_ value: UInt) throws { begin(); encoder.output.append(UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { begin(); encoder.output.append(UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { begin(); encoder.output.append(UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { begin(); encoder.output.append(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { begin(); encoder.output.append(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        begin()
        try encoder.encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        begin()
        return encoder.keyedContainer(NestedKey.self, frame: encoder.openFrame(array: false))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        begin()
        return UnkeyedContainer(encoder: encoder, frame: encoder.openFrame(array: true))
    }

    mutating func superEncoder() -> any Encoder {
        begin()
        return SuperEncoder(encoder: encoder)
    }
}

struct SingleValueContainer: SingleValueEncodingContainer {
    unowned(unsafe) let encoder: StreamingEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { encoder.output.append("null") }
    mutating func encode(_ value: Bool) throws { encoder.appendBool(value) }
    mutating func encode(_ value: String) throws { encoder.output.appendString(value) }
    mutating func encode(_ value: Double) throws { encoder.output.append(value) }
    mutating func encode(_ value: Float) throws { encoder.output.append(value) }
    mutating func encode(_ value: Int) throws { encoder.output.append(Int64(value)) }
    mutating func encode(_ value: Int8) throws { encoder.output.append(Int64(value)) }
    mutating func encode(_ value: Int16) throws { encoder.output.append(Int64(value)) }
    mutating func encode(_ value: Int32) throws { encoder.output.append(Int64(value)) }
    mutating func encode(_ value: Int64) throws { encoder.output.append(value) }
    mutating func encode(_ value: UInt) throws { encoder.output.append(UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { encoder.output.append(UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { encoder.output.append(UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { encoder.output.append(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { encoder.output.append(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encodeValue(value) }
}
