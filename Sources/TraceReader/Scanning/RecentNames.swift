@_spi(RewindInternals) package import RewindSupport
/// The ids of the last four names looked up in a `NameTable`, kept by their bytes, so that the
/// names that come back event after event (a few stores and actions in turn) are found with a
/// few comparisons, without hashing them and probing the table. Names longer than 16 bytes are
/// not kept (their `Key` is nil): the table finds them.
///
/// A `Key` holds a name of up to 16 bytes exactly (its length and its first and last eight
/// bytes, which overlap), so a key that matches is the same name.
package struct RecentNames {
    /// A name of at most 16 bytes, held exactly.
    package struct Key: Equatable {
        var count: Int
        var first: UInt64
        var last: UInt64

        /// A key no name has.
        static let none = Key(count: -1, first: 0, last: 0)

        private init(count: Int, first: UInt64, last: UInt64) {
            self.count = count
            self.first = first
            self.last = last
        }

        /// The key of `name`, or nil when it is longer than 16 bytes.
        @inline(__always)
        package init?(_ name: ByteView) {
            count = name.count
            guard count <= 16 else { return nil }
            guard count > 0 else {
                first = 0
                last = 0
                return
            }
            // Loads within the name's bytes only: two that overlap cover every byte.
            if count >= 8 {
                first = name.loadUnaligned(at: 0, as: UInt64.self)
                last = name.loadUnaligned(at: count &- 8, as: UInt64.self)
            } else if count >= 4 {
                first = UInt64(name.loadUnaligned(at: 0, as: UInt32.self))
                last = UInt64(name.loadUnaligned(at: count &- 4, as: UInt32.self))
            } else {
                // One, two or three bytes: each is one of these three.
                first = UInt64(name[0]) | UInt64(name[count &>> 1]) &<< 8 | UInt64(name[count &- 1]) &<< 16
                last = 0
            }
        }
    }

    private var keys = (Key.none, Key.none, Key.none, Key.none)
    private var ids = (0, 0, 0, 0)
    /// The entry `remember` replaces next: the oldest.
    private var next = 0

    package init() {}

    /// The id remembered for `key`, if any.
    @inline(__always)
    package func id(for key: Key) -> Int? {
        if keys.0 == key { return ids.0 }
        if keys.1 == key { return ids.1 }
        if keys.2 == key { return ids.2 }
        if keys.3 == key { return ids.3 }
        return nil
    }

    /// The id of `name` in `table`, adding it there when it is new: from the names remembered
    /// when it is one of them, else from the table, and then remembered.
    @inline(__always)
    mutating func intern(_ name: ByteView, in table: inout NameTable) -> Int {
        let key = Key(name)
        if let key, let id = id(for: key) { return id }
        let id = table.intern(name)
        if let key { remember(key, id: id) }
        return id
    }

    /// The id in `table` of the string `text` of `line`, adding it there when it is new: a plain
    /// one as `intern(_:in:)` finds it; one written with escapes decoded first, and not
    /// remembered (its bytes are not its name).
    @inline(__always)
    mutating func intern(_ text: EventFields.Text, of line: ByteView, in table: inout NameTable) -> Int {
        if text.hasEscapes { return table.intern(EventFields.string(text, in: line)) }
        return intern(line[text.range], in: &table)
    }

    /// Remembers that `key`'s name has `id`, in place of the oldest name remembered.
    @inline(__always)
    package mutating func remember(_ key: Key, id: Int) {
        switch next {
        case 0: (keys.0, ids.0) = (key, id)
        case 1: (keys.1, ids.1) = (key, id)
        case 2: (keys.2, ids.2) = (key, id)
        default: (keys.3, ids.3) = (key, id)
        }
        next = (next &+ 1) & 3
    }
}
