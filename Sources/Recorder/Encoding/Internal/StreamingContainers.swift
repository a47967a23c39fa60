// The keyed, unkeyed and single-value containers of `StreamingEncoder`. Each is a small struct
// (the encoding context, one pointer, and a frame index); every write goes straight to the
// context's output, with no reference counting.

struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let context: EncodingContext
    let frame: Int

    var codingPath: [any CodingKey] { [] }

    /// Writes the comma and the key; false when the key is redacted (its value is then written).
    @inline(__always)
    private func begin(_ key: Key) -> Bool {
        context.beginMember(of: frame, key: key.stringValue)
    }

    mutating func encodeNil(forKey key: Key) throws { if begin(key) { context.output.append("null") } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { if begin(key) { context.appendBool(value) } }
    mutating func encode(_ value: String, forKey key: Key) throws {
        if begin(key) { context.output.appendString(value) }
    }
    mutating func encode(_ value: Double, forKey key: Key) throws { if begin(key) { context.output.append(value) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { if begin(key) { context.output.append(value) } }
    mutating func encode(_ value: Int, forKey key: Key) throws { if begin(key) { context.output.append(Int64(value)) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
        if begin(key) { context.output.append(Int64(value)) }
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
        if begin(key) { context.output.append(Int64(value)) }
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
        if begin(key) { context.output.append(Int64(value)) }
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws { if begin(key) { context.output.append(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        if begin(key) { context.output.append(UInt64(value)) }
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        if begin(key) { context.output.append(UInt64(value)) }
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        if begin(key) { context.output.append(UInt64(value)) }
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        if begin(key) { context.output.append(UInt64(value)) }
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { if begin(key) { context.output.append(value) } }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if begin(key) { try context.encodeValue(value) }
    }

    // Synthesized conformances call these for optionals: a nil is left out, as JSONEncoder does.
    // (The protocol's defaults do the same, one call further away.)
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        guard begin(key) else {
            return context.discardingContext().container(keyedBy: NestedKey.self)
        }
        return context.keyedContainer(NestedKey.self, frame: context.openFrame(array: false))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        guard begin(key) else { return context.discardingContext().unkeyedContainer() }
        return UnkeyedContainer(context: context, frame: context.openFrame(array: true))
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(key: "super")
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(key: key.stringValue)
    }

    private func superEncoder(key: String) -> any Encoder {
        context.beginElement(of: frame)
        guard context.writeKey(key) else { return context.discardingContext() }
        // Streaming cannot wait for the superclass; its container opens in place, here.
        return SuperEncoder(context: context)
    }
}

/// An `Encoder` for `superEncoder()`: its container opens in place, right after the key.
struct SuperEncoder: Encoder, RedactingEncoder {
    let context: EncodingContext
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func appendRedacted() {
        context.appendRedacted()
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(context: context, frame: context.openFrame(array: false)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(context: context, frame: context.openFrame(array: true))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(context: context)
    }
}

struct UnkeyedContainer: UnkeyedEncodingContainer {
    let context: EncodingContext
    let frame: Int
    private(set) var count = 0

    init(context: EncodingContext, frame: Int) {
        self.context = context
        self.frame = frame
    }

    var codingPath: [any CodingKey] { [] }

    @inline(__always)
    private mutating func begin() {
        context.beginElement(of: frame)
        count &+= 1
    }

    mutating func encodeNil() throws {
        begin()
        context.output.append("null")
    }
    mutating func encode(_ value: Bool) throws {
        begin()
        context.appendBool(value)
    }
    mutating func encode(_ value: String) throws {
        begin()
        context.output.appendString(value)
    }
    mutating func encode(_ value: Double) throws {
        begin()
        context.output.append(value)
    }
    mutating func encode(_ value: Float) throws {
        begin()
        context.output.append(value)
    }
    mutating func encode(_ value: Int) throws {
        begin()
        context.output.append(Int64(value))
    }
    mutating func encode(_ value: Int8) throws {
        begin()
        context.output.append(Int64(value))
    }
    mutating func encode(_ value: Int16) throws {
        begin()
        context.output.append(Int64(value))
    }
    mutating func encode(_ value: Int32) throws {
        begin()
        context.output.append(Int64(value))
    }
    mutating func encode(_ value: Int64) throws {
        begin()
        context.output.append(value)
    }
    mutating func encode(_ value: UInt) throws {
        begin()
        context.output.append(UInt64(value))
    }
    mutating func encode(_ value: UInt8) throws {
        begin()
        context.output.append(UInt64(value))
    }
    mutating func encode(_ value: UInt16) throws {
        begin()
        context.output.append(UInt64(value))
    }
    mutating func encode(_ value: UInt32) throws {
        begin()
        context.output.append(UInt64(value))
    }
    mutating func encode(_ value: UInt64) throws {
        begin()
        context.output.append(value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        begin()
        try context.encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        begin()
        return context.keyedContainer(NestedKey.self, frame: context.openFrame(array: false))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        begin()
        return UnkeyedContainer(context: context, frame: context.openFrame(array: true))
    }

    mutating func superEncoder() -> any Encoder {
        begin()
        return SuperEncoder(context: context)
    }
}

struct SingleValueContainer: SingleValueEncodingContainer {
    let context: EncodingContext
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { context.output.append("null") }
    mutating func encode(_ value: Bool) throws { context.appendBool(value) }
    mutating func encode(_ value: String) throws { context.output.appendString(value) }
    mutating func encode(_ value: Double) throws { context.output.append(value) }
    mutating func encode(_ value: Float) throws { context.output.append(value) }
    mutating func encode(_ value: Int) throws { context.output.append(Int64(value)) }
    mutating func encode(_ value: Int8) throws { context.output.append(Int64(value)) }
    mutating func encode(_ value: Int16) throws { context.output.append(Int64(value)) }
    mutating func encode(_ value: Int32) throws { context.output.append(Int64(value)) }
    mutating func encode(_ value: Int64) throws { context.output.append(value) }
    mutating func encode(_ value: UInt) throws { context.output.append(UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { context.output.append(UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { context.output.append(UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { context.output.append(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { context.output.append(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try context.encodeValue(value) }
}
