// The `Encoder` that `encode(to:)` implementations see while a `StreamingEncoder` runs.
//
// It is one pointer to the encoding's mutable state: the output, the stack of open frames and
// the reusable container boxes. Being a trivial struct, it travels as `any Encoder` with no
// allocation and no reference counting, and the containers that hold it pay none either (a
// class reference, even `unowned(unsafe)`, is retained and released around most uses).
//
// How containers work: a container is the context and the index of its frame on the frame stack.
// A frame records whether it is an object or an array and whether it has members yet, so commas
// and closing brackets are written at the right time. When an operation arrives on a container,
// every frame above it (children that have finished) is closed first; when a nested value's
// `encode(to:)` returns, the frames it opened are closed. This matches how synthesized and
// hand-written `Codable` conformances use containers: in order, one container per value.
//
// Keys come out in the order `encode(to:)` writes them, which for synthesized conformances is the
// order of declaration. Keys named in `redactedKeys` get the string "<redacted>" instead of their
// value, at any depth, before anything reaches the output.
//
// `codingPath` is not tracked (it would cost an array append per key); it is always empty.
//
// The memory is owned by the `StreamingEncoder` that made the context, which frees it once, in
// its `deinit`; a context is only used while its owner runs `appendValue`.
struct EncodingContext: Encoder {
    private struct State {
        let output: JSONOutput
        var frames: UnsafeMutablePointer<Frame>
        var frameCapacity: Int
        var frameCount: Int
        /// The frame index that a container requested from this encoder right now would occupy.
        var valueDepth: Int
        let redaction: Redaction
        var containers: KeyedContainerCache
        /// A second context whose output is thrown away: it absorbs writes into a redacted
        /// nested container. Made when first needed.
        var discard: EncodingContext?
        /// The recorder's memory of parts of earlier states (`EncodingMemo`); nil when not wanted.
        let memo: UnsafeMutablePointer<EncodingMemo>?
    }

    /// An open object or array.
    private struct Frame {
        var closer: UInt8
        var hasMembers: Bool
    }

    private let state: UnsafeMutablePointer<State>

    /// - Parameter remembers: copy the JSON of a part that is certainly the same as one encoded
    ///   before, instead of encoding it again (`EncodingMemo`).
    init(redactedKeys: Set<String>, remembers: Bool = false) {
        var memo: UnsafeMutablePointer<EncodingMemo>?
        if remembers {
            memo = .allocate(capacity: 1)
            memo?.initialize(to: EncodingMemo())
        }
        state = .allocate(capacity: 1)
        state.initialize(
            to: State(
                output: JSONOutput(), frames: .allocate(capacity: 64), frameCapacity: 64, frameCount: 0,
                valueDepth: 0, redaction: Redaction(redactedKeys), containers: KeyedContainerCache(), discard: nil,
                memo: memo))
    }

    /// Frees the memory. The owner calls this exactly once, from its `deinit`.
    func deallocate() {
        state.pointee.discard?.deallocate()
        state.pointee.output.deallocate()
        state.pointee.frames.deallocate()
        state.pointee.containers.deallocate()
        if let memo = state.pointee.memo {
            memo.pointee.deallocate()
            memo.deinitialize(count: 1)
            memo.deallocate()
        }
        state.deinitialize(count: 1)
        state.deallocate()
    }

    var output: JSONOutput {
        @inline(__always) get { state.pointee.output }
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Forgets any half-written value (after an `encode(to:)` that threw).
    func reset(to mark: Int) {
        state.pointee.output.count = mark
        state.pointee.frameCount = 0
        state.pointee.valueDepth = 0
    }

    var valueDepth: Int {
        @inline(__always) get { state.pointee.valueDepth }
        @inline(__always) nonmutating set { state.pointee.valueDepth = newValue }
    }

    // MARK: Encoding a value

    /// Appends the JSON text of `value`, closing the frames it opens.
    @inline(__always)
    func encodeValue<T: Encodable>(_ value: T) throws {
        // Primitive fast paths: generic containers (Array, Optional, Dictionary) reach us through
        // the generic `encode<T>` requirement even for `Int` or `String` elements.
        // (`unsafeBitCast` reads `T`'s size from metadata we already have; no closure, no copy
        // through a value witness.)
        if T.self == String.self {
            output.appendString(unsafeBitCast(value, to: String.self))
            return
        }
        if T.self == Int.self {
            output.append(Int64(unsafeBitCast(value, to: Int.self)))
            return
        }
        if T.self == Double.self {
            output.append(unsafeBitCast(value, to: Double.self))
            return
        }
        if T.self == Bool.self {
            appendBool(unsafeBitCast(value, to: Bool.self))
            return
        }
        // Arrays of those, common in states (tags, ids, amounts), written in one loop instead of
        // through `Array.encode(to:)`'s container and a generic call per element. The bytes are
        // the same: `[`, the elements joined by `,`, `]`.
        if T.self == [String].self {
            appendArray(unsafeBitCast(value, to: [String].self), output.appendString)
            return
        }
        if T.self == [Int].self {
            appendArray(unsafeBitCast(value, to: [Int].self)) { output.append(Int64($0)) }
            return
        }
        if T.self == [Double].self {
            appendArray(unsafeBitCast(value, to: [Double].self), output.append)
            return
        }
        if T.self == [Bool].self {
            appendArray(unsafeBitCast(value, to: [Bool].self), appendBool)
            return
        }
        if let memo = state.pointee.memo, MemoryLayout<T>.size <= EncodingMemo.largestPlainValue {
            try encodeRemembering(value, memo)
            return
        }
        try encodeComposite(value)
    }

    /// Encodes a composite value, copying its JSON from the memo when the memo has it.
    private func encodeRemembering<T: Encodable>(_ value: T, _ memo: UnsafeMutablePointer<EncodingMemo>) throws {
        let output = state.pointee.output
        switch memo.pointee.append(value, to: output) {
        case .appended:
            return
        case .skipped:
            try encodeComposite(value)
        case .missed(let miss):
            let mark = output.count
            try encodeComposite(value)
            memo.pointee.remember(value, miss, json: output.bytes(from: mark))
        }
    }

    /// How many parts the memo holds now (for tests); 0 without a memo.
    var rememberedCount: Int {
        state.pointee.memo?.pointee.rememberedCount ?? 0
    }

    /// Starts a top-level value (see `EncodingMemo.beginValue`).
    func beginTopLevelValue() {
        state.pointee.memo?.pointee.beginValue()
    }

    @inline(__always)
    private func appendArray<Element>(_ elements: [Element], _ appendElement: (Element) -> Void) {
        let output = state.pointee.output
        output.append(UInt8(ascii: "["))
        var first = true
        for element in elements {
            if first { first = false } else { output.append(UInt8(ascii: ",")) }
            appendElement(element)
        }
        output.append(UInt8(ascii: "]"))
    }

    private func encodeComposite<T: Encodable>(_ value: T) throws {
        let depth = state.pointee.frameCount
        let output = state.pointee.output
        let mark = output.count
        let savedDepth = state.pointee.valueDepth
        state.pointee.valueDepth = depth
        try value.encode(to: self)
        state.pointee.valueDepth = savedDepth
        if output.count == mark {
            // The value encoded nothing at all; `JSONEncoder` writes an empty object here too.
            output.append("{}")
        }
        closeFrames(downTo: depth)
    }

    @inline(__always)
    func appendBool(_ value: Bool) {
        if value { output.append("true") } else { output.append("false") }
    }

    // MARK: Keys

    /// Writes `"key":`, or `"key":"<redacted>"` and returns false when the key is redacted.
    @inline(__always)
    func writeKey(_ key: String) -> Bool {
        let output = state.pointee.output
        output.appendKey(key)
        if state.pointee.redaction.isActive && state.pointee.redaction.covers(key) {
            output.append("\"<redacted>\"")
            return false
        }
        return true
    }

    func isRedacted(_ key: String) -> Bool {
        state.pointee.redaction.isActive && state.pointee.redaction.covers(key)
    }

    // MARK: Frames

    /// Closes every open frame at index `depth` or above.
    @inline(__always)
    func closeFrames(downTo depth: Int) {
        if state.pointee.frameCount > depth { closeFramesSlowly(downTo: depth) }
    }

    private func closeFramesSlowly(downTo depth: Int) {
        let output = state.pointee.output
        var count = state.pointee.frameCount
        let frames = state.pointee.frames
        while count > depth {
            count &-= 1
            output.append(frames[count].closer)
        }
        state.pointee.frameCount = count
    }

    /// Starts a member of the frame at `index`: closes finished children, writes the comma.
    @inline(__always)
    func beginElement(of index: Int) {
        if state.pointee.frameCount > index &+ 1 { closeFramesSlowly(downTo: index &+ 1) }
        let frame = state.pointee.frames + index
        if frame.pointee.hasMembers {
            state.pointee.output.append(UInt8(ascii: ","))
        } else {
            frame.pointee.hasMembers = true
        }
    }

    /// Writes `{` or `[` and pushes its frame; returns the frame's index.
    @inline(__always)
    func openFrame(array: Bool) -> Int {
        state.pointee.output.append(array ? UInt8(ascii: "[") : UInt8(ascii: "{"))
        let index = state.pointee.frameCount
        if index == state.pointee.frameCapacity { growFrames() }
        state.pointee.frames[index] = Frame(closer: array ? UInt8(ascii: "]") : UInt8(ascii: "}"), hasMembers: false)
        state.pointee.frameCount = index &+ 1
        return index
    }

    @inline(never)
    private func growFrames() {
        let capacity = state.pointee.frameCapacity * 2
        let frames = UnsafeMutablePointer<Frame>.allocate(capacity: capacity)
        frames.update(from: state.pointee.frames, count: state.pointee.frameCount)
        state.pointee.frames.deallocate()
        state.pointee.frames = frames
        state.pointee.frameCapacity = capacity
    }

    /// The frame for the value now being encoded: a new one, or the one this value already opened
    /// (a conformance may ask for its container twice).
    @inline(__always)
    private func frameForCurrentValue(array: Bool) -> Int {
        let valueDepth = state.pointee.valueDepth
        if state.pointee.frameCount > valueDepth {
            closeFrames(downTo: valueDepth &+ 1)
            return valueDepth
        }
        return openFrame(array: array)
    }

    // MARK: Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        keyedContainer(Key.self, frame: frameForCurrentValue(array: false))
    }

    /// A keyed container for `frame`, from the cache when one was made before.
    @inline(__always)
    func keyedContainer<Key: CodingKey>(_ type: Key.Type, frame: Int) -> KeyedEncodingContainer<Key> {
        state.pointee.containers.container(Key.self, frame: frame, context: self)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(context: self, frame: frameForCurrentValue(array: true))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(context: self)
    }

    /// The discarding context, reset, for writes under a redacted key.
    func discardingContext() -> EncodingContext {
        let discard: EncodingContext
        if let existing = state.pointee.discard {
            discard = existing
        } else {
            discard = EncodingContext(redactedKeys: [])
            state.pointee.discard = discard
        }
        discard.reset(to: 0)
        return discard
    }
}
