/// What the encoder knows about each type it has met: how to write its values and whether the
/// memo may keep them. Filled once per type (the checks behind it cost runtime lookups and, for
/// a few types, building the type's name), then read by an index.
///
/// The table is open-addressed with a fixed capacity, so an entry's index stays valid while the
/// values inside the one being encoded add entries of their own. When it is three quarters full,
/// further types are classified again each time they come by (correct, only slower; a state
/// with hundreds of distinct types is unusual). It owns its memory and cannot be copied.
struct TypeTable: ~Copyable {
    /// How the encoder writes a type's values.
    enum Writing: UInt8 {
        /// Through its own `encode(to:)`.
        case plain
        /// `"<redacted>"`: a `Secret`.
        case secret
        /// Through its own `encode(to:)`, then put in a stable order (`StableOrder`): a set, a
        /// dictionary, a dictionary keyed by a `String`-backed enum (`RecordedEncoding`).
        case set
        case dictionary
        case namedPairs
        /// Foundation's value types, recognized by name (see `FoundationValueEncoding`).
        case date
        case decimal
        case url
        case data
    }

    struct Entry {
        var type: ObjectIdentifier?
        var writing = Writing.plain
        /// How the memo may remember values of this type; `.never` once a value held a class
        /// instance at any depth.
        var memo = EncodingMemo.Kind.never
        /// Whether the type is a class: its instances can change in place.
        var isReference = false
        /// The memo's record for this type (see `EncodingMemo`).
        var hits: UInt32 = 0
        var misses: UInt32 = 0
        /// How many more values to encode without asking the memo, after many misses.
        var resting: UInt32 = 0
        /// Whether `ReferenceScan` has looked at an element of this collection type.
        var scanned = false
    }

    static var capacity: Int { 512 }
    private let entries: UnsafeMutablePointer<Entry>
    private var count = 0

    init() {
        entries = .allocate(capacity: Self.capacity)
        entries.initialize(repeating: Entry(), count: Self.capacity)
    }

    deinit {
        entries.deinitialize(count: Self.capacity)
        entries.deallocate()
    }

    /// The index of `T`'s entry, classifying `T` the first time; -1 when the table is full and
    /// `T` is not in it (then use `classify`).
    @inline(__always)
    mutating func index<T>(of _: T.Type) -> Int {
        let type = ObjectIdentifier(T.self)
        let bits = UInt(bitPattern: type)
        var index = Int(((bits >> 4) ^ (bits >> 12)) & UInt(Self.capacity &- 1))
        while let occupant = entries[index].type {
            if occupant == type { return index }
            index = (index &+ 1) & (Self.capacity &- 1)
        }
        guard count < Self.capacity * 3 / 4 else { return -1 }
        entries[index] = Self.classify(T.self)
        count &+= 1
        return index
    }

    /// The entry at `index` (from `index(of:)`, not -1). The table never moves its entries, so
    /// the pointer stays valid while the table lives, whatever is added meanwhile.
    @inline(__always)
    func entry(at index: Int) -> UnsafeMutablePointer<Entry> {
        entries + index
    }

    /// A new entry for `T`.
    static func classify<T>(_: T.Type) -> Entry {
        var entry = Entry(type: ObjectIdentifier(T.self))
        entry.isReference = T.self is AnyObject.Type
        if let known = T.self as? any RecordedEncoding.Type {
            entry.writing = known.recordedWriting
            entry.memo = known.recordedMemo
        } else {
            entry.writing = FoundationValueEncoding.writing(of: T.self)
            entry.memo = EncodingMemo.plainKind(of: T.self)
        }
        // Storage is one word: anything else is not a standard collection.
        if entry.memo == .storage && MemoryLayout<T>.size != MemoryLayout<UInt>.size { entry.memo = .never }
        return entry
    }
}
