/// What a keyed container of `JSONTapeDecoder` stands for, kept by the decoder so the container
/// itself is just (decoder, slot number) and its `KeyedDecodingContainer` box can be reused.
///
/// Why reuse boxes: making a `KeyedDecodingContainer<Key>` for a generic `Key` costs two runtime
/// generic-metadata lookups and an allocation, several times what decoding a small struct
/// costs otherwise. A state decodes the same few key types over and over, so each slot keeps
/// the box made for it; the box is handed out again when nothing but the slot holds it
/// (`isKnownUniquelyReferenced`), which means whoever had it is done with it. A container kept
/// alive (a hand-written `init(from:)` holding one while it decodes its children, or keeping it
/// for later) keeps its slot, so containers never see each other's state.
struct JSONTapeKeyedSlot {
    /// Whether the members' names can be compared byte for byte with a key's UTF-8.
    enum Names: UInt8 {
        /// The builder could not rule out a repeated, escaped or non-ASCII name (see
        /// `JSONTapeEntry.namesNeedCheck`): the names are checked at the first lookup
        /// (containers that only read `allKeys` never pay for it).
        case unchecked
        /// Distinct, ASCII, without escapes: equal names have equal bytes, and the first
        /// match is the only one.
        case plain
        /// Duplicates, escapes or non-ASCII names: lookups go through a `[String: Int]` table,
        /// so that the last duplicate wins and names compare as Swift strings do (canonical
        /// equivalence), as `JSONObject` and `JSONDecoder` compare them.
        case strings
    }

    /// The `Key` type of the box (the box itself is in `JSONTapeState.boxes`, at the same index).
    var keyType: ObjectIdentifier
    /// The tape index of the object.
    var object: Int
    /// The coding-path node of the object.
    var node: Int
    /// The tape index of the name entry where the next lookup starts: just past the last match,
    /// as synthesized `init(from:)`s ask for members in the order they were written.
    var cursor: Int
    var names: Names

    // MARK: Boxes and views: the casts of the reuse, in one place

    /// The box of `container`, kept as `JSONTapeBoxReference`: a `KeyedDecodingContainer` is
    /// exactly one reference to its box (a native Swift object), so its bit pattern is the box.
    static func box<Key: CodingKey>(of container: KeyedDecodingContainer<Key>) -> JSONTapeBoxReference {
        assert(MemoryLayout<KeyedDecodingContainer<Key>>.size == MemoryLayout<JSONTapeBoxReference>.size)
        return unsafeBitCast(container, to: JSONTapeBoxReference.self)
    }

    /// A function that returns a box as `Container` (a `KeyedDecodingContainer`), with
    /// `Container`'s metadata captured when it is made, so that a reused box is handed out
    /// without the runtime lookup that a cast in generic code costs (it was about 8% of decoding
    /// a small state). It holds no box, so a box's uniqueness still tells whether it is in use.
    ///
    /// Kept type-erased as `(JSONTapeBoxReference) -> Any`, which has the same representation
    /// (both results are returned indirectly: `Any`, and the resilient `KeyedDecodingContainer`),
    /// and only ever called back at its own type, by `JSONTapeState.container(reusing:as:)`.
    static func view<Container>(as: Container.Type) -> (JSONTapeBoxReference) -> Any {
        let view: (JSONTapeBoxReference) -> Container = { unsafeBitCast($0, to: Container.self) }
        return unsafeBitCast(view, to: ((JSONTapeBoxReference) -> Any).self)
    }
}

extension JSONTapeState {
    /// The box of `slot` as the `Container` the slot was made for (the slot's `Key`'s
    /// container), through the slot's view. The view is read from the buffer's memory and cast
    /// in one expression, which the optimizer turns into a plain call; through a subscript of
    /// the noncopyable buffer, it made a reabstraction closure (an allocation) per container.
    @inline(__always)
    func container<Container>(reusing slot: Int, as type: Container.Type) -> Container {
        unsafeBitCast(views.base[slot], to: ((JSONTapeBoxReference) -> Container).self)(boxes[slot])
    }
}

/// The static type under which the slots' `KeyedDecodingContainer` boxes are kept. A box is
/// some `_KeyedDecodingContainerBox<…>` of the standard library, a native Swift object, and
/// through this type it is only ever retained, released and checked with
/// `isKnownUniquelyReferenced`, never used as this type; nothing of this type is ever made.
/// (`AnyObject` would not do: `isKnownUniquelyReferenced` on `AnyObject` answers false in
/// unoptimized builds, and then every container would get a new slot.)
final class JSONTapeBoxReference {
    private init() {}
}
