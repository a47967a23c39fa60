/// The unkeyed container of `JSONTreeDecoder`: an array's elements, in order.
struct JSONUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let decoder: JSONTreeDecoder
    let elements: [JSONValue]
    /// The container's own path when nested in another container; nil: the decoder's current path.
    let prefix: [JSONCodingPathElement]?
    private(set) var currentIndex = 0

    init(decoder: JSONTreeDecoder, elements: [JSONValue], prefix: [JSONCodingPathElement]?) {
        self.decoder = decoder
        self.elements = elements
        self.prefix = prefix
    }

    var codingPath: [any CodingKey] { decoder.basePath(prefix).codingKeys }

    var count: Int? { elements.count }

    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The next element, or `valueNotFound` at the end.
    @inline(__always)
    private func next(_ type: Any.Type) throws -> JSONValue {
        guard currentIndex < elements.count else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath + [JSONCodingKey(index: currentIndex)],
                    debugDescription: "Unkeyed container is at end."))
        }
        return elements[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        if case .null = try next(Optional<Any>.self) {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let value = try next(Bool.self)
        let result = try decoder.unboxBool(value, at: .index(currentIndex), prefix: prefix)
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let value = try next(String.self)
        let result = try decoder.unboxString(value, at: .index(currentIndex), prefix: prefix)
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        let value = try next(Double.self)
        let result = try decoder.unboxFloat(value, as: Double.self, at: .index(currentIndex), prefix: prefix)
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: Float.Type) throws -> Float {
        let value = try next(Float.self)
        let result = try decoder.unboxFloat(value, as: Float.self, at: .index(currentIndex), prefix: prefix)
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: Int.Type) throws -> Int {
        let value = try next(Int.self)
        let result = try decoder.unboxInteger(value, as: Int.self, at: .index(currentIndex), prefix: prefix)
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        let value = try next(Int8.self)
        let result = try decoder.unboxInteger(value, as: Int8.self, at: .index(currentIndex), prefix: prefix)
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        let value = try next(Int16.self)
        let result = try decoder.unboxInteger(value, as: Int16.self, at: .index(currentIndex), prefix: prefix)
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        let value = try next(Int32.self)
        let result = try decoder.unboxInteger(value, as: Int32.self, at: .index(currentIndex), prefix: prefix)
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        let value = try next(Int64.self)
        let result = try decoder.unboxInteger(value, as: Int64.self, at: .index(currentIndex), prefix: prefix)
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: UInt.Type) throws -> UInt {
        let value = try next(UInt.self)
        let result = try decoder.unboxInteger(value, as: UInt.self, at: .index(currentIndex), prefix: prefix)
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        let value = try next(UInt8.self)
        let result = try decoder.unboxInteger(value, as: UInt8.self, at: .index(currentIndex), prefix: prefix)
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        let value = try next(UInt16.self)
        let result = try decoder.unboxInteger(value, as: UInt16.self, at: .index(currentIndex), prefix: prefix)
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        let value = try next(UInt32.self)
        let result = try decoder.unboxInteger(value, as: UInt32.self, at: .index(currentIndex), prefix: prefix)
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        let value = try next(UInt64.self)
        let result = try decoder.unboxInteger(value, as: UInt64.self, at: .index(currentIndex), prefix: prefix)
        currentIndex += 1
        return result
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try next(T.self)
        let result = try decoder.unbox(value, as: T.self, at: .index(currentIndex), prefix: prefix)
        currentIndex += 1
        return result
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        let value = try next([String: Any].self)
        let container = try decoder.keyedContainer(
            value, keyedBy: NestedKey.self, at: .index(currentIndex), prefix: prefix, nested: true)
        currentIndex += 1
        return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let value = try next([Any].self)
        let container = try decoder.unkeyedContainer(value, at: .index(currentIndex), prefix: prefix, nested: true)
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let value = try next(Any.self)
        let subdecoder = decoder.subdecoder(value, at: .index(currentIndex), prefix: prefix)
        currentIndex += 1
        return subdecoder
    }
}
