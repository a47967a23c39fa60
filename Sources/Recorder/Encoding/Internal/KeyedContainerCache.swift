/// Reused keyed containers, by (key type, frame).
///
/// Building a `KeyedEncodingContainer<Key>` costs runtime generic-metadata lookups (for the box
/// class the standard library wraps our container in, and for `KeyedEncodingContainer<Key>`
/// itself) and an allocation. A state encodes the same few key types at the same depths every
/// time, so the container made for (key type, frame) is kept and handed out again (a copy of a
/// container shares its box). A container is only in use while its value's `encode(to:)` runs,
/// and a frame index is occupied by one container at a time, so reuse is safe for conformances
/// that use containers in order.
///
/// Handing a cached container out must not look up `KeyedEncodingContainer<Key>`'s metadata
/// either (the lookup costs as much as the rest of the container). So each entry keeps a
/// function, made once by `returning(_:)`, that returns a copy of the container: the function
/// carries the container and its type's metadata in its context. The function is kept in a
/// `Cached<Key>` object, under the common superclass `CachedContainer`; once an entry's key type
/// has been found equal to `Key`, its object is a `Cached<Key>`, and `unsafeDowncast` (a class
/// downcast, checked in debug builds) reads it as one without a runtime lookup.
///
/// The table is open-addressed, allocated once, and stops taking entries when three quarters
/// full (states of unusual shape then get a fresh container each time, as without a cache). It
/// owns its memory and cannot be copied: `deinit` frees it, once.
struct KeyedContainerCache: ~Copyable {
    /// The common superclass of the cached containers, whatever their key type.
    class CachedContainer {}

    /// A cached container of key type `Key`, as a function that returns a copy of it.
    final class Cached<Key: CodingKey>: CachedContainer {
        let container: () -> KeyedEncodingContainer<Key>

        init(_ container: @escaping () -> KeyedEncodingContainer<Key>) { self.container = container }
    }

    private struct Entry {
        var type: ObjectIdentifier?
        var frame: Int
        /// A `Cached<Key>` for the entry's key type.
        var container: CachedContainer?
    }

    private static var capacity: Int { 256 }
    private let entries: UnsafeMutablePointer<Entry>
    private var count = 0

    init() {
        entries = .allocate(capacity: Self.capacity)
        entries.initialize(repeating: Entry(type: nil, frame: 0, container: nil), count: Self.capacity)
    }

    deinit {
        entries.deinitialize(count: Self.capacity)
        entries.deallocate()
    }

    @inline(__always)
    private static func slot(_ type: ObjectIdentifier, _ frame: Int) -> Int {
        let bits = UInt(bitPattern: type)
        let mixed = (bits >> 4) ^ (bits >> 12) ^ UInt(bitPattern: frame &* 0x9E37)
        return Int(mixed & UInt(capacity &- 1))
    }

    /// The container of key type `Key` for `frame` in `context`.
    @inline(__always)
    mutating func container<Key: CodingKey>(_: Key.Type, frame: Int, context: EncodingContext)
        -> KeyedEncodingContainer<Key>
    {
        let type = ObjectIdentifier(Key.self)
        var index = Self.slot(type, frame)
        while let occupant = entries[index].type {
            if occupant == type && entries[index].frame == frame {
                return unsafeDowncast(entries[index].container.unsafelyUnwrapped, to: Cached<Key>.self).container()
            }
            index = (index &+ 1) & (Self.capacity &- 1)
        }
        return insert(Key.self, frame: frame, context: context, at: index)
    }

    private mutating func insert<Key: CodingKey>(_: Key.Type, frame: Int, context: EncodingContext, at index: Int)
        -> KeyedEncodingContainer<Key>
    {
        let container = KeyedEncodingContainer(KeyedContainer<Key>(context: context, frame: frame))
        guard count < Self.capacity * 3 / 4 else { return container }
        entries[index] = Entry(
            type: ObjectIdentifier(Key.self), frame: frame, container: Cached(Self.returning(container)))
        count &+= 1
        return container
    }

    /// A function that returns a copy of `value`. Generic over the whole type of `value` (not
    /// over `Key`), so that the function's context holds `Value`'s metadata, found once, here,
    /// and copying the value out looks nothing up. Not inlined, so that the optimizer cannot
    /// rewrite it in terms of `Key` and bring the lookup back into every call.
    @inline(never)
    private static func returning<Value>(_ value: Value) -> () -> Value {
        { value }
    }
}
