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

// @unchecked Sendable: used by one thread at a time, under the recorder's lock (or owned by a
// `StateEncoder`, which is not Sendable).
final class StreamingEncoder: Encoder, @unchecked Sendable {
    let output: JSONOutput
    let redactedKeys: Set<String>
    /// `!redactedKeys.isEmpty`, kept apart so the common case reads no Set.
    let redacts: Bool
    private let frames: FrameStack
    private var containers = ContainerCache()
    /// The frame index that a container requested from this encoder right now would occupy.
    private var valueDepth = 0
    /// A second encoder whose output is thrown away: it absorbs writes into a redacted nested container.
    private lazy var discard = StreamingEncoder(redactedKeys: [])

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(redactedKeys: Set<String>) {
        self.output = JSONOutput()
        self.redactedKeys = redactedKeys
        self.redacts = !redactedKeys.isEmpty
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
        redacts && redactedKeys.contains(key)
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
        keyedContainer(Key.self, frame: frameForCurrentValue(array: false))
    }

    /// A keyed container for `frame`, from the cache when one was made before.
    @inline(__always)
    func keyedContainer<Key: CodingKey>(_ type: Key.Type, frame: Int) -> KeyedEncodingContainer<Key> {
        let id = ObjectIdentifier(Key.self)
        if let box = containers.box(for: id, frame: frame) {
            // A KeyedEncodingContainer is one reference to its box; reading the box's reference
            // as the container needs no metadata (unsafeBitCast would look it up to check sizes).
            return unsafeCast(box, to: KeyedEncodingContainer<Key>.self)
        }
        let container = KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, frame: frame))
        containers.insert(unsafeCast(container, to: AnyObject.self), for: id, frame: frame)
        return container
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
/// Pointer-backed for the same reason as `JSONOutput`: a container reaches it through an
/// `unowned(unsafe)` encoder, and a class here would be retained and released on every write.
struct FrameStack {
    private struct Storage {
        var closers: UnsafeMutablePointer<UInt8>
        var members: UnsafeMutablePointer<Bool>
        var capacity: Int
        var count: Int
    }

    private let storage: UnsafeMutablePointer<Storage>

    init() {
        storage = .allocate(capacity: 1)
        storage.initialize(to: Storage(closers: .allocate(capacity: 64), members: .allocate(capacity: 64), capacity: 64, count: 0))
    }

    func deallocate() {
        storage.pointee.closers.deallocate()
        storage.pointee.members.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    var count: Int {
        @inline(__always) get { storage.pointee.count }
        nonmutating set { storage.pointee.count = newValue }
    }

    /// Pushes a frame and returns its index.
    @inline(__always)
    func push(closer: UInt8) -> Int {
        if storage.pointee.count == storage.pointee.capacity { grow() }
        let index = storage.pointee.count
        storage.pointee.closers[index] = closer
        storage.pointee.members[index] = false
        storage.pointee.count = index &+ 1
        return index
    }

    @inline(__always)
    func popCloser() -> UInt8 {
        storage.pointee.count &-= 1
        return storage.pointee.closers[storage.pointee.count]
    }

    /// Records a member in frame `index`; true when it is not the first (a comma is due).
    @inline(__always)
    func countMember(at index: Int) -> Bool {
        let hadMembers = storage.pointee.members[index]
        storage.pointee.members[index] = true
        return hadMembers
    }

    private func grow() {
        let capacity = storage.pointee.capacity * 2
        let closers = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        let members = UnsafeMutablePointer<Bool>.allocate(capacity: capacity)
        closers.update(from: storage.pointee.closers, count: storage.pointee.count)
        members.update(from: storage.pointee.members, count: storage.pointee.count)
        storage.pointee.closers.deallocate()
        storage.pointee.members.deallocate()
        storage.pointee.closers = closers
        storage.pointee.members = members
        storage.pointee.capacity = capacity
    }
}

/// Reused keyed-container boxes. Building a `KeyedEncodingContainer<Key>` costs two runtime
/// generic-metadata lookups and an allocation; a state encodes the same few key types at the
/// same depths every time, so the box made for (key type, frame) is kept and handed out again.
/// A box is only in use while its value's `encode(to:)` runs, and a frame index is occupied by
/// one container at a time, so reuse is safe for conformances that use containers in order.
struct ContainerCache {
    private var keys: [(type: ObjectIdentifier, frame: Int)] = []
    private var boxes: [AnyObject] = []

    @inline(__always)
    func box(for type: ObjectIdentifier, frame: Int) -> AnyObject? {
        var index = 0
        let count = keys.count
        while index < count {
            if keys[index].frame == frame && keys[index].type == type { return boxes[index] }
            index &+= 1
        }
        return nil
    }

    mutating func insert(_ box: AnyObject, for type: ObjectIdentifier, frame: Int) {
        guard keys.count < 256 else { return }  // a bound, for states of unusual shape
        keys.append((type, frame))
        boxes.append(box)
    }
}
