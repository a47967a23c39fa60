/// The `allKeys` arrays of enum-case objects (`{"loaded":{...}}`), kept by key type and name.
///
/// A synthesized enum `init(from:)` asks for `allKeys` of an object with one member; making the
/// array costs a `String`, a `Key(stringValue:)`, an allocation and two runtime metadata lookups
/// in generic code (`Optional<Key>` and `Array<Key>`). The same few cases come back in every
/// state, so the arrays are kept and handed out again: an array is a value with one reference,
/// so handing it out is a retain (and reading it back as `[Key]` needs no metadata, `Array`'s
/// layout being fixed). At most `limit` arrays are kept.
struct JSONTapeKeyArrayCache: ~Copyable {
    static let limit = 128

    private var entries = JSONBuffer<(type: ObjectIdentifier, start: Int, length: Int)>(capacity: 16)
    /// The arrays, as their one reference each, at the index of their entry.
    private var arrays = JSONBuffer<AnyObject>(capacity: 16)
    /// The names, one after the other.
    private var names = JSONBuffer<UInt8>(capacity: 256)

    /// The position of the array kept for `Key` and `name`, or -1. (A position rather than an
    /// optional array: `Optional<[Key]>` in generic code costs a metadata lookup.)
    @inline(__always)
    func position<Key: CodingKey>(of type: Key.Type, name: UnsafeBufferPointer<UInt8>) -> Int {
        let id = ObjectIdentifier(Key.self)
        var index = 0
        while index < entries.count {
            let entry = entries[index]
            if entry.type == id && entry.length == name.count
                && JSONTapeState.bytesEqual(names.base + entry.start, name)
            {
                return index
            }
            index &+= 1
        }
        return -1
    }

    /// The array at `position`, which was kept for `Key`.
    @inline(__always)
    func keys<Key: CodingKey>(at position: Int, as type: Key.Type) -> [Key] {
        // An array is its one reference; its layout does not depend on `Key`.
        unsafeBitCast(arrays[position], to: [Key].self)
    }

    /// Keeps `keys` for `Key` and `name`, unless `limit` arrays are kept already.
    mutating func insert<Key: CodingKey>(_ keys: [Key], for type: Key.Type, name: UnsafeBufferPointer<UInt8>) {
        guard entries.count < JSONTapeKeyArrayCache.limit else { return }
        let start = names.count
        for byte in name { names.append(byte) }
        entries.append((ObjectIdentifier(Key.self), start, name.count))
        arrays.append(withUnsafeBytes(of: keys) { $0.load(as: AnyObject.self) })
    }
}
