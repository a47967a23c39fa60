/// The unkeyed container of `JSONTapeDecoder`: an array's elements, in order. (Arrays of
/// `Decodable` elements are usually read without one, see `JSONDirectlyDecodableArray`.)
struct JSONTapeUnkeyedContainer: UnkeyedDecodingContainer {
    /// The decoder's state (see `JSONTapeKeyedContainer.state`), and the decoder for nested
    /// values and containers.
    let state: UnsafeMutablePointer<JSONTapeState>
    unowned(unsafe) let decoder: JSONTapeDecoder
    /// The tape index of the array.
    let array: Int
    /// The coding-path node of the array.
    let node: Int
    /// The tape index of the next element.
    private var position: Int
    private(set) var currentIndex = 0

    init(decoder: JSONTapeDecoder, array: Int, node: Int) {
        state = decoder.state
        self.decoder = decoder
        self.array = array
        self.node = node
        position = array &+ 1
    }

    var codingPath: [any CodingKey] { state.pointee.codingPath(node) }

    var count: Int? { state.pointee.tape[array].start }

    var isAtEnd: Bool { currentIndex >= state.pointee.tape[array].start }

    /// The tape index of the next element, or `valueNotFound` at the end.
    @inline(__always)
    private func next(_ type: Any.Type) throws -> Int {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath + [JSONCodingKey(index: currentIndex)],
                    debugDescription: "Unkeyed container is at end."))
        }
        return position
    }

    /// Moves past the element at `index` (only after it decoded: a failed element stays next).
    @inline(__always)
    private mutating func advance(past index: Int) {
        position = state.pointee.tape.next(after: index)
        currentIndex &+= 1
    }

    @inline(__always)
    private var step: JSONTapeStep { .index(currentIndex) }

    mutating func decodeNil() throws -> Bool {
        let index = try next(Optional<Any>.self)
        guard state.pointee.tape[index].kind == .null else { return false }
        advance(past: index)
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let index = try next(Bool.self)
        let value = try state.pointee.decodeBool(at: index, node, step)
        advance(past: index)
        return value
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let index = try next(String.self)
        let value = try state.pointee.decodeString(at: index, node, step)
        advance(past: index)
        return value
    }

    mutating func decode(_ type: Double.Type) throws -> Double { try float(Double.self) }
    mutating func decode(_ type: Float.Type) throws -> Float { try float(Float.self) }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(Int.self) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(Int16.self) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(Int32.self) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(Int64.self) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(UInt16.self) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(UInt32.self) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(UInt64.self) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let index = try next(T.self)
        let value = try decoder.unbox(T.self, at: index, parent: node, step: step)
        advance(past: index)
        return value
    }

    @inline(__always)
    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let index = try next(T.self)
        let value = try state.pointee.decodeInteger(at: index, as: T.self, node, step)
        advance(past: index)
        return value
    }

    @inline(__always)
    private mutating func float<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type) throws -> T {
        let index = try next(T.self)
        let value = try state.pointee.decodeFloat(at: index, as: T.self, node, step)
        advance(past: index)
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        let index = try next([String: Any].self)
        let container = try decoder.keyedContainer(NestedKey.self, at: index, parent: node, step: step)
        advance(past: index)
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let index = try next([Any].self)
        let container = try decoder.unkeyedContainer(at: index, parent: node, step: step)
        advance(past: index)
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let index = try next(Any.self)
        let subdecoder = decoder.superDecoder(at: index, parent: node, key: JSONCodingKey(index: currentIndex))
        advance(past: index)
        return subdecoder
    }
}
