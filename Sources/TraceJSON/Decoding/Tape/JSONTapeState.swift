/// Everything `JSONTapeDecoder` and its containers read and change while decoding, in one
/// struct reached through a pointer (see `JSONBuffer` for why not class properties), owned by
/// the decoder's `JSONTapeStateStorage`. It cannot be copied: its buffers free their memory when
/// it goes.
///
/// The buffers keep their memory from one document to the next, so a decoder that is reused
/// (see `JSONTapeDecoderPool`) allocates nothing for them after its first few documents.
///
/// Methods that callers reach through the pointer (`state.pointee.f()`) are `mutating` even
/// when they only read: calling a non-mutating method through `pointee` may copy the whole
/// struct (and retain what it holds) first.
struct JSONTapeState: ~Copyable {
    /// The input of the document being decoded, valid only during the call (before the first
    /// document, `JSONScanner.noInput`: a real address that is never read).
    var base = JSONScanner.noInput
    var byteCount = 0
    var tape = JSONBuffer<JSONTapeEntry>(capacity: 256)
    /// While the tape is written: the tape indices of the open containers, innermost last.
    var openContainers = JSONBuffer<Int>(capacity: 64)
    /// While the tape is written, of the innermost open container: its members so far, the
    /// Bloom filter of its names and whether its names need a check (see
    /// `JSONTapeState+Building`). An outer container's are kept in its child's entry meanwhile.
    var members = 0
    var names: UInt64 = 0
    var namesNeedCheck = false
    /// The coding-path nodes of the values being decoded (see `JSONTapePathNode`).
    var nodes = JSONBuffer<JSONTapePathNode>(capacity: 64)
    /// Keys kept whole for the coding path (`super`).
    var extraKeys: [any CodingKey] = []
    /// The keyed containers of the document, one slot each (see `JSONTapeKeyedSlot`).
    var slots = JSONBuffer<JSONTapeKeyedSlot>(capacity: 16)
    /// What makes the keyed containers, by key type (see `JSONTapeContainerMakers`).
    var containerMakers = JSONTapeContainerMakers()
    /// Name → value index of the last member with that name, for objects whose names need
    /// `String` comparison; by slot.
    var nameTables: [Int: [String: Int]] = [:]
    /// Types decoded from JSON arrays, and whether each is an `Array` that
    /// `JSONDirectlyDecodableArray` reads directly (see `directArrayType(_:)`).
    var arrayTypes: [(type: ObjectIdentifier, direct: (any JSONDirectlyDecodableArray.Type)?)] = []
    /// `allKeys` arrays of enum cases (see `JSONTapeKeyArrayCache`).
    var keyArrays = JSONTapeKeyArrayCache()
    /// Working memory for unescaping strings.
    var scratch: [UInt8] = []
    /// The tape index of the value that `JSONTapeDecoder` itself (as a `Decoder` and a
    /// single-value container) stands for now, and its coding-path node.
    var value = 1
    var node = -1
    var userInfo: [CodingUserInfoKey: Any] = [:]

    init() {}

    /// Forgets the last document, keeping memory up to modest limits.
    mutating func reset() {
        tape.removeAll(shrinkingBeyond: 1 << 14)  // 256 KiB: states up to about 100 KB
        openContainers.removeAll(shrinkingBeyond: 1024)
        nodes.removeAll(shrinkingBeyond: 1024)
        slots.removeAll(shrinkingBeyond: 1024)
        extraKeys.removeAll()
        nameTables.removeAll()
        if scratch.capacity > 1 << 16 { scratch = [] }
        byteCount = 0
        value = 1
        node = -1
        userInfo = [:]
    }

    /// `T` as a `JSONDirectlyDecodableArray`, or nil when it is not an `Array`. A dynamic cast
    /// to a protocol is a conformance lookup in the runtime (hundreds of instructions), and a
    /// state decodes the same few array types over and over, so answers are kept (for at most
    /// 64 types; beyond that, the cast is made each time).
    @inline(__always)
    mutating func directArrayType<T>(_ type: T.Type) -> (any JSONDirectlyDecodableArray.Type)? {
        let id = ObjectIdentifier(T.self)
        for entry in arrayTypes where entry.type == id { return entry.direct }
        let direct = T.self as? any JSONDirectlyDecodableArray.Type
        if arrayTypes.count < 64 { arrayTypes.append((id, direct)) }
        return direct
    }

    // MARK: Reading the tape

    /// The index of the entry after the value at `index` and all its descendants.
    @inline(__always)
    func next(after index: Int) -> Int {
        tape.next(after: index)
    }

    /// The string of a string or name entry.
    @inline(__always)
    mutating func string(at index: Int) -> String {
        let entry = tape[index]
        return JSONStringDecoding.decodedString(
            base, from: entry.start, to: entry.end, hasEscapes: entry.hasEscapes, scratch: &scratch)
    }

    /// The name of the member whose name entry is at `index`.
    func memberName(at index: Int) -> String {
        guard index > 0 && index < tape.count else { return "" }
        let entry = tape[index]
        var scratch: [UInt8] = []
        return JSONStringDecoding.decodedString(
            base, from: entry.start, to: entry.end, hasEscapes: entry.hasEscapes, scratch: &scratch)
    }
}
