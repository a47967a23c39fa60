// The `Encoder` behind `StateEncoder`: it writes JSON bytes as `encode(to:)` calls arrive,
// straight into one reused `JSONOutput`, instead of building a tree of boxes as Foundation's
// `JSONEncoder` does.
//
// How containers stay cheap: a container is a struct holding the encoder (unowned) and the index
// of its frame on the encoder's frame stack. A frame records whether it is an object or an array
// and how many members it has, so commas and closing brackets are written at the right time.
// When an operation arrives on a container, every frame above it (children that have finished)
// is closed first; when a nested value's `encode(to:)` returns, the frames it opened are closed.
// This matches how synthesized and hand-written `Codable` conformances use containers: in order,
// one container per value.
//
// Keys come out in the order `encode(to:)` writes them, which for synthesized conformances is the
// order of declaration. Keys named in `redactedKeys` get the string "<redacted>" instead of their
// value, at any depth, before anything reaches the output.
//
// `codingPath` is not tracked (it would cost an array append per key); it is always empty.

// @unchecked Sendable: used by one thread at a time, under the recorder's Mutex (or owned by a
// `StateEncoder`, which is not Sendable).
final class StreamingEncoder: Encoder, @unchecked Sendable {
    let output: JSONOutput
    let redactedKeys: Set<String>
    private let frames: FrameStack
    /// The frame index that a container requested from this encoder right now would occupy.
    private var valueDepth = 0
    /// A second encoder whose output is thrown away: it absorbs writes into a redacted nested container.
    private lazy var discard = StreamingEncoder(redactedKeys: [])

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(redactedKeys: Set<String>) {
        self.output = JSONOutput()
        self.redactedKeys = redactedKeys
        self.frames = FrameStack()
    }

    deinit {
        output.deallocate()
        frames.deallocate()
    }

    /// Forgets any half-written value (after an `encode(to:)` that threw).
    func reset(to mark: Int) {
        output.count = mark
        frames.count = 0
        valueDepth = 0
    }

    // MARK: Encoding a whole value

    /// Appends the JSON text of `value` to the output.
    func appendValue<T: Encodable>(_ value: T) throws {
        let savedDepth = valueDepth
        defer { valueDepth = savedDepth }
        try encodeValue(value)
        closeFrames(downTo: 0)
    }

    @inline(__always)
    func encodeValue<T: Encodable>(_ value: T) throws {
        // Primitive fast paths: generic containers (Array, Optional, Dictionary) reach us through
        // the generic `encode<T>` requirement even for `Int` or `String` elements.
        if T.self == String.self { output.appendString(unsafeCast(value, to: String.self)); return }
        if T.self == Int.self { output.append(Int64(unsafeCast(value, to: Int.self))); return }
        if T.self == Double.self { output.append(unsafeCast(value, to: Double.self)); return }
        if T.self == Bool.self { appendBool(unsafeCast(value, to: Bool.self)); return }
        let depth = frames.count
        let mark = output.count
        let savedDepth = valueDepth
        valueDepth = depth
        try value.encode(to: self)
        valueDepth = savedDepth
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

    // MARK: Frames

    /// Closes every open frame at index `depth` or above.
    @inline(__always)
    func closeFrames(downTo depth: Int) {
        while frames.count > depth {
            output.append(frames.popCloser())
        }
    }

    /// Starts a member of the frame at `index`: closes finished children, writes the comma.
    @inline(__always)
    func beginElement(of index: Int) {
        if frames.count > index &+ 1 { closeFrames(downTo: index &+ 1) }
        if frames.countMember(at: index) { output.append(UInt8(ascii: ",")) }
    }

    @inline(__always)
    func appendKey(_ key: String) {
        output.appendString(key)
        output.append(UInt8(ascii: ":"))
    }

    @inline(__always)
    func isRedacted(_ key: String) -> Bool {
        !redactedKeys.isEmpty && redactedKeys.contains(key)
    }

    func openFrame(array: Bool) -> Int {
        output.append(array ? UInt8(ascii: "[") : UInt8(ascii: "{"))
        return frames.push(closer: array ? UInt8(ascii: "]") : UInt8(ascii: "}"))
    }

    /// The frame for the value now being encoded: a new one, or the one this value already opened
    /// (a conformance may ask for its container twice).
    private func frameForCurrentValue(array: Bool) -> Int {
        if frames.count > valueDepth {
            closeFrames(downTo: valueDepth &+ 1)
            return valueDepth
        }
        return openFrame(array: array)
    }

    // MARK: Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, frame: frameForCurrentValue(array: false)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(encoder: self, frame: frameForCurrentValue(array: true))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    /// The discarding encoder, reset, for writes under a redacted key.
    func discardingEncoder() -> StreamingEncoder {
        discard.reset(to: 0)
        return discard
    }
}

@inline(__always)
func unsafeCast<T, U>(_ value: T, to type: U.Type) -> U {
    withUnsafePointer(to: value) { UnsafeRawPointer($0).assumingMemoryBound(to: U.self).pointee }
}

/// The open containers: for each, its closing byte and whether it has members yet.
/// Pointer-backed for the same reason as `JSONOutput`.
final class FrameStack {
    private var closers: UnsafeMutablePointer<UInt8>
    private var members: UnsafeMutablePointer<Bool>
    private var capacity = 64
    var count = 0

    init() {
        closers = .allocate(capacity: capacity)
        members = .allocate(capacity: capacity)
    }

    func deallocate() {
        closers.deallocate()
        members.deallocate()
    }

    /// Pushes a frame and returns its index.
    @inline(__always)
    func push(closer: UInt8) -> Int {
        if count == capacity { grow() }
        closers[count] = closer
        members[count] = false
        count &+= 1
        return count &- 1
    }

    @inline(__always)
    func popCloser() -> UInt8 {
        count &-= 1
        return closers[count]
    }

    /// Records a member in frame `index`; true when it is not the first (a comma is due).
    @inline(__always)
    func countMember(at index: Int) -> Bool {
        let hadMembers = members[index]
        members[index] = true
        return hadMembers
    }

    private func grow() {
        let newCapacity = capacity * 2
        let newClosers = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        let newMembers = UnsafeMutablePointer<Bool>.allocate(capacity: newCapacity)
        newClosers.update(from: closers, count: count)
        newMembers.update(from: members, count: count)
        closers.deallocate()
        members.deallocate()
        closers = newClosers
        members = newMembers
        capacity = newCapacity
    }
}
