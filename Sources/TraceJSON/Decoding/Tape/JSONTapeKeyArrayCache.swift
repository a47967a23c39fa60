/// The `allKeys` arrays of enum-case objects (`{"loaded":{...}}`), kept by key type and name.
///
/// A synthesized enum `init(from:)` asks for `allKeys` of an object with one member; making the
/// array costs a `String`, a `Key(stringValue:)`, an allocation and two runtime metadata lookups
/// in generic code (`Optional<Key>` and `Array<Key>`). The same few cases come back in every
/// state, so the arrays are kept and handed out again: handing one out is a retain. At most
/// `limit` arrays are kept.
///
/// Each array is kept in a `KeptKeys<Key>` object, under the common superclass `Kept`; once an
/// entry's key type has been found equal to `Key`, its object is a `KeptKeys<Key>`, and
/// `unsafeDowncast` (a class downcast, checked in debug builds) reads it as one without the
/// runtime lookup of `[Key]`'s metadata that `as!` from `Any` would make.
struct JSONTapeKeyArrayCache: ~Copyable {
    static let limit = 128

    /// The common superclass of the kept arrays, whatever their key type.
    class Kept {}

    /// An array of `Key`s, as kept.
    final class KeptKeys<Key: CodingKey>: Kept {
        let keys: [Key]

        init(_ keys: [Key]) { self.keys = keys }
    }

    private var entries = JSONBuffer<(type: ObjectIdentifier, start: Int, length: Int)>(capacity: 16)
    /// The arrays, at the index of their entry.
    private var arrays = JSONBuffer<Kept>(capacity: 16)
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
        unsafeDowncast(arrays[position], to: KeptKeys<Key>.self).keys
    }

    /// Keeps `keys` for `Key` and `name`, unless `limit` arrays are kept already.
    mutating func insert<Key: CodingKey>(_ keys: [Key], for type: Key.Type, name: UnsafeBufferPointer<UInt8>) {
        guard entries.count < JSONTapeKeyArrayCache.limit else { return }
        let start = names.count
        for byte in name { names.append(byte) }
        entries.append((ObjectIdentifier(Key.self), start, name.count))
        arrays.append(KeptKeys(keys))
    }
}
