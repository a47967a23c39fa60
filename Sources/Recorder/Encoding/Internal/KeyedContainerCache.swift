/// Reused keyed-container boxes, by (key type, frame).
///
/// A `KeyedEncodingContainer<Key>` is one reference to a box that the standard library allocates,
/// and building one costs runtime generic-metadata lookups (for the box class and for
/// `KeyedEncodingContainer<Key>` itself) and an allocation. A state encodes the same few key
/// types at the same depths every time, so the box made for (key type, frame) is kept and handed
/// out again. A box is only in use while its value's `encode(to:)` runs, and a frame index is
/// occupied by one container at a time, so reuse is safe for conformances that use containers
/// in order.
///
/// Handing a cached box out as a `KeyedEncodingContainer<Key>` must not look up that type's
/// metadata either (the lookup costs as much as the rest of the container). So each entry keeps
/// a function, made once, that returns the box as that type: the function carries the box and
/// the metadata in its context. Entries store it with its result type erased and call it back
/// only at its own type, which the entry's key type determines (see `KnownTypeCasts.swift`).
///
/// The table is open-addressed, allocated once, and stops taking entries when three quarters
/// full (states of unusual shape then get a fresh container each time, as without a cache). It
/// owns its memory and cannot be copied: `deinit` frees it, once.
struct KeyedContainerCache: ~Copyable {
    private struct Entry {
        var type: ObjectIdentifier?
        var frame: Int
        /// `() -> KeyedEncodingContainer<Key>` for the entry's key type, its result type erased.
        var container: (() -> Any)?
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
                return restoringResult(
                    of: entries[index].container.unsafelyUnwrapped, as: KeyedEncodingContainer<Key>.self)()
            }
            index = (index &+ 1) & (Self.capacity &- 1)
        }
        return insert(Key.self, frame: frame, context: context, at: index)
    }

    private mutating func insert<Key: CodingKey>(_: Key.Type, frame: Int, context: EncodingContext, at index: Int)
        -> KeyedEncodingContainer<Key>
    {
        let container = KeyedEncodingContainer(KeyedContainer<Key>(context: context, frame: frame))
        // Reuse reads the container as its one box reference; a standard library that laid it
        // out otherwise gets a fresh container every time instead (correct, only slower).
        guard count < Self.capacity * 3 / 4,
            MemoryLayout<KeyedEncodingContainer<Key>>.size == MemoryLayout<AnyObject>.size
        else { return container }
        let reuse = containerView(ofBox: boxReference(of: container), as: KeyedEncodingContainer<Key>.self)
        entries[index] = Entry(type: ObjectIdentifier(Key.self), frame: frame, container: erasingResult(of: reuse))
        count &+= 1
        return container
    }
}
