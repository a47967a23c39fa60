/// The `Decoder` behind `JSONValueDecoder`: one object per top-level `decode` call, reused for
/// every nested value (the value being decoded and the coding path are swapped in and out), so
/// decoding a value allocates nothing but the containers `Decoder` requires.
///
/// It is also its own `SingleValueDecodingContainer`.
final class JSONTreeDecoder: Decoder, SingleValueDecodingContainer {
    /// The value being decoded now.
    private var value: JSONValue
    /// The coding path of `value`.
    private var path: [JSONCodingPathElement]
    private let options: [CodingUserInfoKey: any Sendable]

    init(value: JSONValue, path: [JSONCodingPathElement], userInfo: [CodingUserInfoKey: any Sendable]) {
        self.value = value
        self.path = path
        options = userInfo
    }

    var codingPath: [any CodingKey] { path.codingKeys }

    var userInfo: [CodingUserInfoKey: Any] { options }

    /// The path of a container: its own when nested, else the current one.
    func basePath(_ prefix: [JSONCodingPathElement]?) -> [JSONCodingPathElement] {
        prefix ?? path
    }

    /// The path of a member or element of a container.
    private func path(_ key: JSONCodingPathElement?, _ prefix: [JSONCodingPathElement]?) -> [any CodingKey] {
        var elements = basePath(prefix)
        if let key { elements.append(key) }
        return elements.codingKeys
    }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try keyedContainer(value, keyedBy: Key.self, at: nil, prefix: nil, nested: false))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try unkeyedContainer(value, at: nil, prefix: nil, nested: false)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    /// A keyed container for `value`. A nested one (made by a container, not by `T.init(from:)`)
    /// keeps its own path, as the decoder's current path moves on without it.
    func keyedContainer<Key: CodingKey>(
        _ value: JSONValue, keyedBy type: Key.Type, at key: JSONCodingPathElement?, prefix: [JSONCodingPathElement]?,
        nested: Bool
    ) throws -> JSONKeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw mismatch([String: Any].self, value, at: key, prefix)
        }
        var ownPath: [JSONCodingPathElement]? = nil
        if nested {
            ownPath = basePath(prefix)
            if let key { ownPath!.append(key) }
        }
        return JSONKeyedDecodingContainer(decoder: self, object: object, prefix: ownPath)
    }

    /// An unkeyed container for `value`; see `keyedContainer`.
    func unkeyedContainer(
        _ value: JSONValue, at key: JSONCodingPathElement?, prefix: [JSONCodingPathElement]?, nested: Bool
    ) throws -> JSONUnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw mismatch([Any].self, value, at: key, prefix)
        }
        var ownPath: [JSONCodingPathElement]? = nil
        if nested {
            ownPath = basePath(prefix)
            if let key { ownPath!.append(key) }
        }
        return JSONUnkeyedDecodingContainer(decoder: self, elements: elements, prefix: ownPath)
    }

    /// A new decoder for `value` (for `superDecoder`).
    func subdecoder(_ value: JSONValue, at key: JSONCodingPathElement, prefix: [JSONCodingPathElement]?)
        -> JSONTreeDecoder
    {
        var elements = basePath(prefix)
        elements.append(key)
        return JSONTreeDecoder(value: value, path: elements, userInfo: options)
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool { try unboxBool(value, at: nil, prefix: nil) }
    func decode(_ type: String.Type) throws -> String { try unboxString(value, at: nil, prefix: nil) }
    func decode(_ type: Double.Type) throws -> Double { try unboxFloat(value, as: Double.self, at: nil, prefix: nil) }
    func decode(_ type: Float.Type) throws -> Float { try unboxFloat(value, as: Float.self, at: nil, prefix: nil) }
    func decode(_ type: Int.Type) throws -> Int { try unboxInteger(value, as: Int.self, at: nil, prefix: nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try unboxInteger(value, as: Int8.self, at: nil, prefix: nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try unboxInteger(value, as: Int16.self, at: nil, prefix: nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try unboxInteger(value, as: Int32.self, at: nil, prefix: nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try unboxInteger(value, as: Int64.self, at: nil, prefix: nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try unboxInteger(value, as: UInt.self, at: nil, prefix: nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try unboxInteger(value, as: UInt8.self, at: nil, prefix: nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try unboxInteger(value, as: UInt16.self, at: nil, prefix: nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try unboxInteger(value, as: UInt32.self, at: nil, prefix: nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try unboxInteger(value, as: UInt64.self, at: nil, prefix: nil) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try unbox(value, as: T.self, at: nil, prefix: nil) }

    // MARK: Unboxing

    /// Decodes `value`, found at `key` of the container whose path is `prefix` (nil: the
    /// current path), as a `T`.
    func unbox<T: Decodable>(
        _ value: JSONValue, as type: T.Type, at key: JSONCodingPathElement?, prefix: [JSONCodingPathElement]?
    ) throws -> T {
        // The common leaves, without a trip through `T.init(from:)`.
        // (`unsafeBitCast` is a plain copy here: `T` is the very type just checked.)
        if T.self == String.self { return unsafeBitCast(try unboxString(value, at: key, prefix: prefix), to: T.self) }
        if T.self == Int.self {
            return unsafeBitCast(try unboxInteger(value, as: Int.self, at: key, prefix: prefix), to: T.self)
        }
        if T.self == Double.self {
            return unsafeBitCast(try unboxFloat(value, as: Double.self, at: key, prefix: prefix), to: T.self)
        }
        if T.self == Bool.self { return unsafeBitCast(try unboxBool(value, at: key, prefix: prefix), to: T.self) }

        let savedPath: [JSONCodingPathElement]? = prefix == nil ? nil : path
        if let prefix { path = prefix }
        if let key { path.append(key) }
        defer {
            if let savedPath {
                path = savedPath
            } else if key != nil {
                path.removeLast()
            }
        }
        if case .array(let elements) = value, let arrayType = T.self as? any JSONDirectlyDecodableArray.Type {
            return try decodeArray(elements, as: arrayType, resultType: T.self)
        }
        let savedValue = self.value
        self.value = value
        defer { self.value = savedValue }
        return try T(from: self)
    }

    /// `A` is `T`: decodes it through `JSONDirectlyDecodableArray` without a dynamic cast.
    private func decodeArray<A: JSONDirectlyDecodableArray, T>(
        _ elements: [JSONValue], as type: A.Type, resultType: T.Type
    ) throws -> T {
        unsafeBitCast(try A.decodeElements(elements, with: self), to: T.self)
    }

    func unboxString(
        _ value: JSONValue, at key: @autoclosure () -> JSONCodingPathElement?, prefix: [JSONCodingPathElement]?
    ) throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self, value, at: key(), prefix) }
        return string
    }

    func unboxBool(
        _ value: JSONValue, at key: @autoclosure () -> JSONCodingPathElement?, prefix: [JSONCodingPathElement]?
    ) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self, value, at: key(), prefix) }
        return bool
    }

    func unboxInteger<T: FixedWidthInteger>(
        _ value: JSONValue, as type: T.Type, at key: @autoclosure () -> JSONCodingPathElement?,
        prefix: [JSONCodingPathElement]?
    ) throws -> T {
        guard case .number(let text) = value else { throw mismatch(T.self, value, at: key(), prefix) }
        switch JSONDecodedNumber.integer(text, as: T.self) {
        case .success(let integer): return integer
        case .failure(let problem):
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: path(key(), prefix), debugDescription: problem.message))
        }
    }

    func unboxFloat<T: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: JSONValue, as type: T.Type, at key: @autoclosure () -> JSONCodingPathElement?,
        prefix: [JSONCodingPathElement]?
    ) throws -> T {
        switch value {
        case .number(let text):
            switch JSONDecodedNumber.floatingPoint(text, as: T.self) {
            case .success(let number): return number
            case .failure(let problem):
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: path(key(), prefix), debugDescription: problem.message))
            }
        case .string(let text):
            switch text {
            case "NaN": return .nan
            case "Infinity": return .infinity
            case "-Infinity": return -.infinity
            default: throw mismatch(T.self, value, at: key(), prefix)
            }
        default:
            throw mismatch(T.self, value, at: key(), prefix)
        }
    }

    /// `value` is not a `T`: `valueNotFound` for null, `typeMismatch` otherwise, as `JSONDecoder`.
    func mismatch(
        _ type: Any.Type, _ value: JSONValue, at key: @autoclosure () -> JSONCodingPathElement?,
        _ prefix: [JSONCodingPathElement]?
    ) -> DecodingError {
        let codingPath = path(key(), prefix)
        if case .null = value {
            return DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "Expected \(type) value but found null instead."))
        }
        return DecodingError.typeMismatch(
            type,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "Expected to decode \(type) but found \(value.kindName) instead."))
    }
}
