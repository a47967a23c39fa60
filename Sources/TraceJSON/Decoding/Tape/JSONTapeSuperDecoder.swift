/// The decoder that `superDecoder()` hands out: it stands for one value (a member or element, or
/// null when the member is missing) and does all its work through the `JSONTapeDecoder` that
/// made it. It is rare (class hierarchies), so it is a plain object, not a reused one.
final class JSONTapeSuperDecoder: Decoder, SingleValueDecodingContainer {
    let decoder: JSONTapeDecoder
    let state: UnsafeMutablePointer<JSONTapeState>
    /// The tape index of the value, and its coding-path node.
    let value: Int
    let node: Int

    init(decoder: JSONTapeDecoder, value: Int, node: Int) {
        self.decoder = decoder
        state = decoder.state
        self.value = value
        self.node = node
    }

    var codingPath: [any CodingKey] { state.pointee.codingPath(node) }

    var userInfo: [CodingUserInfoKey: Any] { decoder.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try decoder.keyedContainer(Key.self, at: value, parent: node, step: .none)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try decoder.unkeyedContainer(at: value, parent: node, step: .none)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { state.pointee.tape[value].kind == .null }

    func decode(_ type: Bool.Type) throws -> Bool { try state.pointee.decodeBool(at: value, node, .none) }
    func decode(_ type: String.Type) throws -> String { try state.pointee.decodeString(at: value, node, .none) }
    func decode(_ type: Double.Type) throws -> Double {
        try state.pointee.decodeFloat(at: value, as: Double.self, node, .none)
    }
    func decode(_ type: Float.Type) throws -> Float {
        try state.pointee.decodeFloat(at: value, as: Float.self, node, .none)
    }
    func decode(_ type: Int.Type) throws -> Int {
        try state.pointee.decodeInteger(at: value, as: Int.self, node, .none)
    }
    func decode(_ type: Int8.Type) throws -> Int8 {
        try state.pointee.decodeInteger(at: value, as: Int8.self, node, .none)
    }
    func decode(_ type: Int16.Type) throws -> Int16 {
        try state.pointee.decodeInteger(at: value, as: Int16.self, node, .none)
    }
    func decode(_ type: Int32.Type) throws -> Int32 {
        try state.pointee.decodeInteger(at: value, as: Int32.self, node, .none)
    }
    func decode(_ type: Int64.Type) throws -> Int64 {
        try state.pointee.decodeInteger(at: value, as: Int64.self, node, .none)
    }
    func decode(_ type: UInt.Type) throws -> UInt {
        try state.pointee.decodeInteger(at: value, as: UInt.self, node, .none)
    }
    func decode(_ type: UInt8.Type) throws -> UInt8 {
        try state.pointee.decodeInteger(at: value, as: UInt8.self, node, .none)
    }
    func decode(_ type: UInt16.Type) throws -> UInt16 {
        try state.pointee.decodeInteger(at: value, as: UInt16.self, node, .none)
    }
    func decode(_ type: UInt32.Type) throws -> UInt32 {
        try state.pointee.decodeInteger(at: value, as: UInt32.self, node, .none)
    }
    func decode(_ type: UInt64.Type) throws -> UInt64 {
        try state.pointee.decodeInteger(at: value, as: UInt64.self, node, .none)
    }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.unbox(T.self, at: value, parent: node, step: .none)
    }
}
