/// The `Decoder` behind `JSONValueDecoder.decode(_:from:)` for bytes: it decodes straight from
/// the input, through a tape (see `JSONTapeEntry`) built in one checked pass, and never makes a
/// `JSONValue`.
///
/// One object serves a whole document, and then the next (see `JSONTapeDecoderPool`): it stands
/// for the value being decoded now (swapped in and out around each nested `init(from:)`), it is
/// its own single-value container, and its keyed containers are (decoder, slot) pairs (see
/// `JSONTapeKeyedSlot`). Coding paths are kept as trivially copyable nodes and turned into
/// `CodingKey`s only when asked for.
///
/// Containers hold this object `unowned(unsafe)`: they are valid during the `decode` call that
/// made them, which is how every `init(from:)` uses them; the pool keeps the object alive.
///
/// @unchecked Sendable: one thread at a time uses it; the pool hands it out under its Mutex.
final class JSONTapeDecoder: Decoder, SingleValueDecodingContainer, @unchecked Sendable {
    /// The one allocation of the decoder's state, freed with the decoder.
    private let storage = JSONTapeStateStorage()
    /// The state, for the decoder and its containers; valid as long as the decoder lives.
    let state: UnsafeMutablePointer<JSONTapeState>

    init() {
        state = storage.pointer
    }

    /// Checks and decodes one document. Invalid JSON throws `DecodingError.dataCorrupted` whose
    /// `underlyingError` is the `JSONParseError`.
    func decode<T: Decodable>(
        _ type: T.Type, from bytes: UnsafeRawBufferPointer, userInfo: [CodingUserInfoKey: any Sendable]
    ) throws -> T {
        let state = self.state
        defer { state.pointee.reset() }
        var scanner = JSONScanner(bytes)
        state.pointee.startTape(byteCount: bytes.count)
        // The shared walk: the parser's grammar, acceptance and messages, the tape as its sink.
        do {
            try scanner.scanDocument(into: &state.pointee)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [], debugDescription: "The given data was not valid JSON: \(error)",
                    underlyingError: error))
        }
        state.pointee.base = scanner.base
        if !userInfo.isEmpty { state.pointee.userInfo = userInfo }  // (the upcast costs even when empty)
        state.pointee.value = 1
        state.pointee.node = -1
        return try unbox(T.self, at: 1, parent: -1, step: .none)
    }

    // MARK: Decoder

    var codingPath: [any CodingKey] { state.pointee.codingPath(state.pointee.node) }

    var userInfo: [CodingUserInfoKey: Any] { state.pointee.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try keyedContainer(Key.self, at: state.pointee.value, parent: state.pointee.node, step: .none)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try unkeyedContainer(at: state.pointee.value, parent: state.pointee.node, step: .none)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    // MARK: Containers

    /// A keyed container for the object at tape index `index`, reached from node `parent` by
    /// `step`, with a slot of its own (see `JSONTapeKeyedSlot`), made by the function kept for
    /// `Key` (see `JSONTapeContainerMakers`).
    func keyedContainer<Key: CodingKey>(
        _ type: Key.Type, at index: Int, parent: Int, step: JSONTapeStep
    ) throws -> KeyedDecodingContainer<Key> {
        let state = self.state
        guard state.pointee.tape[index].kind == .object else {
            throw state.pointee.mismatch([String: Any].self, at: index, parent, step)
        }
        let node =
            step.kind == .none ? parent : state.pointee.nodes.append(JSONTapePathNode(parent: parent, step: step))
        let slot = state.pointee.newSlot(object: index, node: node)
        return state.pointee.containerMakers.container(Key.self, decoder: self, slot: slot)
    }

    /// An unkeyed container for the array at tape index `index`; see `keyedContainer`.
    func unkeyedContainer(at index: Int, parent: Int, step: JSONTapeStep) throws -> JSONTapeUnkeyedContainer {
        let state = self.state
        guard state.pointee.tape[index].kind == .array else {
            throw state.pointee.mismatch([Any].self, at: index, parent, step)
        }
        let node =
            step.kind == .none ? parent : state.pointee.nodes.append(JSONTapePathNode(parent: parent, step: step))
        return JSONTapeUnkeyedContainer(decoder: self, array: index, node: node)
    }

    /// A decoder for the value at `index` (0: a missing member, read as null), for `superDecoder`.
    func superDecoder(at index: Int, parent: Int, key: any CodingKey) -> any Decoder {
        let state = self.state
        state.pointee.extraKeys.append(key)
        let step = JSONTapeStep(kind: .extraKey, value: state.pointee.extraKeys.count &- 1, keyType: JSONCodingKey.self)
        let node = state.pointee.nodes.append(JSONTapePathNode(parent: parent, step: step))
        return JSONTapeSuperDecoder(decoder: self, value: index, node: node)
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { state.pointee.tape[state.pointee.value].kind == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        try state.pointee.decodeBool(at: state.pointee.value, state.pointee.node, .none)
    }
    func decode(_ type: String.Type) throws -> String {
        try state.pointee.decodeString(at: state.pointee.value, state.pointee.node, .none)
    }
    func decode(_ type: Double.Type) throws -> Double {
        try state.pointee.decodeFloat(at: state.pointee.value, as: Double.self, state.pointee.node, .none)
    }
    func decode(_ type: Float.Type) throws -> Float {
        try state.pointee.decodeFloat(at: state.pointee.value, as: Float.self, state.pointee.node, .none)
    }
    func decode(_ type: Int.Type) throws -> Int {
        try state.pointee.decodeInteger(at: state.pointee.value, as: Int.self, state.pointee.node, .none)
    }
    func decode(_ type: Int8.Type) throws -> Int8 {
        try state.pointee.decodeInteger(at: state.pointee.value, as: Int8.self, state.pointee.node, .none)
    }
    func decode(_ type: Int16.Type) throws -> Int16 {
        try state.pointee.decodeInteger(at: state.pointee.value, as: Int16.self, state.pointee.node, .none)
    }
    func decode(_ type: Int32.Type) throws -> Int32 {
        try state.pointee.decodeInteger(at: state.pointee.value, as: Int32.self, state.pointee.node, .none)
    }
    func decode(_ type: Int64.Type) throws -> Int64 {
        try state.pointee.decodeInteger(at: state.pointee.value, as: Int64.self, state.pointee.node, .none)
    }
    func decode(_ type: UInt.Type) throws -> UInt {
        try state.pointee.decodeInteger(at: state.pointee.value, as: UInt.self, state.pointee.node, .none)
    }
    func decode(_ type: UInt8.Type) throws -> UInt8 {
        try state.pointee.decodeInteger(at: state.pointee.value, as: UInt8.self, state.pointee.node, .none)
    }
    func decode(_ type: UInt16.Type) throws -> UInt16 {
        try state.pointee.decodeInteger(at: state.pointee.value, as: UInt16.self, state.pointee.node, .none)
    }
    func decode(_ type: UInt32.Type) throws -> UInt32 {
        try state.pointee.decodeInteger(at: state.pointee.value, as: UInt32.self, state.pointee.node, .none)
    }
    func decode(_ type: UInt64.Type) throws -> UInt64 {
        try state.pointee.decodeInteger(at: state.pointee.value, as: UInt64.self, state.pointee.node, .none)
    }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try unbox(T.self, at: state.pointee.value, parent: state.pointee.node, step: .none)
    }

    // MARK: Values

    /// Decodes the value at tape index `index`, reached from node `parent` by `step`, as a `T`.
    @inline(__always)
    func unbox<T: Decodable>(_ type: T.Type, at index: Int, parent: Int, step: JSONTapeStep) throws -> T {
        // The common leaves, without a trip through `T.init(from:)` (generic containers such as
        // Array and Optional reach us through the generic requirement even for `String` elements).
        if T.self == String.self {
            return knownTypeCast(try state.pointee.decodeString(at: index, parent, step), to: T.self)
        }
        if T.self == Int.self {
            return knownTypeCast(try state.pointee.decodeInteger(at: index, as: Int.self, parent, step), to: T.self)
        }
        if T.self == Double.self {
            return knownTypeCast(try state.pointee.decodeFloat(at: index, as: Double.self, parent, step), to: T.self)
        }
        if T.self == Bool.self {
            return knownTypeCast(try state.pointee.decodeBool(at: index, parent, step), to: T.self)
        }
        return try descend(into: T.self, at: index, parent: parent, step: step)
    }

    /// Runs `T.init(from:)` with this decoder standing for the value at `index`.
    private func descend<T: Decodable>(into type: T.Type, at index: Int, parent: Int, step: JSONTapeStep) throws -> T {
        let state = self.state
        let savedValue = state.pointee.value
        let savedNode = state.pointee.node
        let savedNodeCount = state.pointee.nodes.count
        let node =
            step.kind == .none ? parent : state.pointee.nodes.append(JSONTapePathNode(parent: parent, step: step))
        defer {
            state.pointee.value = savedValue
            state.pointee.node = savedNode
            state.pointee.nodes.truncate(to: savedNodeCount)
        }
        if state.pointee.tape[index].kind == .array {
            // Arrays of leaves with specialized code (no runtime metadata lookups to make the
            // array), other arrays through `JSONDirectlyDecodableArray`.
            if T.self == [String].self {
                return knownTypeCast(
                    try state.pointee.leafArray(at: index, node: node) { try $0.decodeString(at: $1, $2, $3) },
                    to: T.self)
            }
            if T.self == [Int].self {
                return knownTypeCast(
                    try state.pointee.leafArray(at: index, node: node) {
                        try $0.decodeInteger(at: $1, as: Int.self, $2, $3)
                    }, to: T.self)
            }
            if T.self == [Double].self {
                return knownTypeCast(
                    try state.pointee.leafArray(at: index, node: node) {
                        try $0.decodeFloat(at: $1, as: Double.self, $2, $3)
                    }, to: T.self)
            }
            if T.self == [Bool].self {
                return knownTypeCast(
                    try state.pointee.leafArray(at: index, node: node) { try $0.decodeBool(at: $1, $2, $3) }, to: T.self
                )
            }
            if let arrayType = state.pointee.directArrayType(T.self) {
                return try decodeArray(arrayType, at: index, node: node, as: T.self)
            }
        }
        state.pointee.value = index
        state.pointee.node = node
        // Date, Decimal, URL, Data and enum-keyed dictionaries as the recorder writes them.
        // Asked only of types that can be one, and in a function of its own: a `T?` anywhere in
        // this function makes every call look up the `Optional<T>` metadata in the runtime's
        // cache (for its stack space), which cost a tenth of decoding a small state.
        if Self.mayBeRecordedFoundationValue(T.self) { return try decodeRecordedOrOwn(T.self) }
        return try T(from: self)
    }

    /// `T` as the recorder writes it when it is one of the Foundation values it writes its own
    /// way (see `recordedFoundationValue`), otherwise through `T.init(from:)`.
    @inline(never)
    private func decodeRecordedOrOwn<T: Decodable>(_ type: T.Type) throws -> T {
        if let recorded = try recordedFoundationValue(T.self) { return recorded }
        return try T(from: self)
    }

    /// `A` is `T`: decodes it through `JSONDirectlyDecodableArray` without a dynamic cast.
    private func decodeArray<A: JSONDirectlyDecodableArray, T>(
        _ type: A.Type, at index: Int, node: Int, as resultType: T.Type
    ) throws -> T {
        knownTypeCast(try A.decodeElements(ofArrayAt: index, node: node, with: self), to: T.self)
    }
}
