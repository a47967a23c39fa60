@_spi(RewindInternals) internal import RewindSupport

// The recorder's memory of the JSON it wrote for parts of earlier states, so that a part an
// action did not change is copied instead of encoded again.
//
// An action usually changes a small part of a state: one field, one element. Two kinds of part
// can be recognized as unchanged for certain, without comparing them element by element:
//
// - **Arrays and dictionaries, by storage.** They are copy-on-write: one the action did not touch
//   still has the same storage object, and so the same elements. The memo keeps each collection
//   it remembers, so that storage cannot be freed and its address reused while the entry lives,
//   and so that it is never uniquely referenced: a change to the collection copies it first.
//   Collections whose elements are class instances (which can change in place) are left out.
// - **Plain values, by their bits.** A value whose type holds no references at all (`_isPOD`:
//   numbers, enums without references, structs of those) is entirely its bytes: the same bytes,
//   the same value, the same JSON.
//
// Either way the JSON is the same because the encoder's output depends on the value alone
// (`codingPath` and `userInfo` are always empty; redaction goes by key name at any depth).
// What this assumes of a state is what shared/DESIGN.md says a state is, a value: a struct that
// hides a class whose contents change in place inside an array is outside it (the store's
// `changed` relies on the same).
//
// A type whose values rarely repeat (a counter struct that changes every action) is stopped
// being remembered after a few dozen tries, so that it does not pay for lookups that miss.
//
// Memory: at most `capacity / 2` entries and `byteLimit` bytes. When either would be passed,
// entries not used by the value being encoded now are dropped first; if that is not enough,
// the new part is simply not remembered.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Marks the collections that `EncodingMemo` may remember by storage.
protocol StorageBackedCollection {
    /// Whether the elements are values (no element type is a class).
    static var holdsOnlyValues: Bool { get }
}

extension Array: StorageBackedCollection {
    static var holdsOnlyValues: Bool { !(Element.self is AnyObject.Type) }
}

extension Dictionary: StorageBackedCollection {
    static var holdsOnlyValues: Bool { !(Key.self is AnyObject.Type) && !(Value.self is AnyObject.Type) }
}

struct EncodingMemo {
    /// How values of one type are remembered.
    enum Kind: UInt8 {
        case never
        /// By the one word that refers to its storage.
        case storage
        /// By its bytes.
        case bits
    }

    /// The largest plain value remembered by its bits.
    static var largestPlainValue: Int { 128 }

    private struct TypeEntry {
        var type: ObjectIdentifier?
        var kind = Kind.never
        var hits: UInt32 = 0
        var misses: UInt32 = 0
    }

    private struct Entry {
        /// 0 marks a free slot.
        var hash: UInt = 0
        var type: ObjectIdentifier?
        /// The key (the storage word, or the value's bytes), then the JSON.
        var data: [UInt8] = []
        var keyCount = 0
        /// The collection, kept so that its storage lives as long as the entry.
        var kept: Any?
        /// The `generation` in which the entry was last used.
        var lastUse: UInt64 = 0
    }

    private static var capacity: Int { 128 }
    static var byteLimit: Int { 8 << 20 }

    private let entries: UnsafeMutablePointer<Entry>
    private var count = 0
    private var totalBytes = 0
    /// Counts top-level values; an entry used during the current one is never dropped.
    private var generation: UInt64 = 1
    /// How many entries the current top-level value has used or added: when that is all of
    /// them, there is nothing to drop, and a full table is not swept again and again.
    private var usedNow = 0
    /// Each type's kind and record: an open-addressed table that fills once per type.
    private let types: UnsafeMutablePointer<TypeEntry>
    private var typeCount = 0

    init() {
        entries = .allocate(capacity: Self.capacity)
        entries.initialize(repeating: Entry(), count: Self.capacity)
        types = .allocate(capacity: Self.capacity)
        types.initialize(repeating: TypeEntry(), count: Self.capacity)
    }

    /// Frees the memory and lets go of the kept collections. The owner calls this exactly once.
    func deallocate() {
        entries.deinitialize(count: Self.capacity)
        entries.deallocate()
        types.deinitialize(count: Self.capacity)
        types.deallocate()
    }

    /// Starts a new top-level value: entries used before it may now be dropped.
    mutating func beginValue() {
        generation &+= 1
        usedNow = 0
    }

    /// How many parts are remembered now (for tests).
    var rememberedCount: Int { count }

    // MARK: Types

    /// The slot of `T` in the type table, classifying `T` the first time; nil when the table is
    /// full and `T` is not in it.
    @inline(__always)
    private mutating func typeSlot<T>(_: T.Type) -> Int? {
        let type = ObjectIdentifier(T.self)
        var index = Self.slot(UInt(bitPattern: type))
        while let occupant = types[index].type {
            if occupant == type { return index }
            index = (index &+ 1) & (Self.capacity &- 1)
        }
        guard typeCount < Self.capacity * 3 / 4 else { return nil }
        types[index] = TypeEntry(type: type, kind: Self.kind(of: T.self))
        typeCount &+= 1
        return index
    }

    private static func kind<T>(of _: T.Type) -> Kind {
        let size = MemoryLayout<T>.size
        if let collection = T.self as? any StorageBackedCollection.Type {
            return collection.holdsOnlyValues && size == MemoryLayout<UInt>.size ? .storage : .never
        }
        return _isPOD(T.self) && size > 0 && size <= largestPlainValue ? .bits : .never
    }

    // MARK: Lookup

    /// What `append` did.
    enum Lookup {
        /// The remembered JSON is in the output.
        case appended
        /// Nothing remembered, and nothing to remember: encode the value as usual.
        case skipped
        /// Nothing remembered yet: encode the value, then hand its JSON to `remember`.
        case missed(Miss)
    }

    /// Where a missed value goes in the tables.
    struct Miss {
        fileprivate let typeSlot: Int
        fileprivate let hash: UInt
    }

    /// Appends the JSON remembered for `value` to `output`, when there is some.
    @inline(__always)
    mutating func append<T>(_ value: T, to output: JSONOutput) -> Lookup {
        guard let typeSlot = typeSlot(T.self), types[typeSlot].kind != .never else { return .skipped }
        return withUnsafePointer(to: value) { pointer in
            let key = UnsafeRawBufferPointer(start: pointer, count: MemoryLayout<T>.size)
            let hash = Self.hash(key, ObjectIdentifier(T.self))
            var index = Self.slot(hash)
            while entries[index].hash != 0 {
                if entries[index].hash == hash && entries[index].type == ObjectIdentifier(T.self)
                    && entries[index].keyCount == key.count && Self.keyMatches(entries[index].data, key)
                {
                    if entries[index].lastUse != generation {
                        entries[index].lastUse = generation
                        usedNow &+= 1
                    }
                    entries[index].data.withUnsafeBytes {
                        output.append(UnsafeRawBufferPointer(rebasing: $0[key.count...]))
                    }
                    types[typeSlot].hits &+= 1
                    return .appended
                }
                index = (index &+ 1) & (Self.capacity &- 1)
            }
            // Mostly misses: stop trying this type.
            types[typeSlot].misses &+= 1
            if types[typeSlot].misses >= 32 && types[typeSlot].misses > types[typeSlot].hits &* 4 {
                types[typeSlot].kind = .never
                return .skipped
            }
            return .missed(Miss(typeSlot: typeSlot, hash: hash))
        }
    }

    /// Remembers `json` as the JSON of `value`, after `append` missed.
    mutating func remember<T>(_ value: T, _ miss: Miss, json: UnsafeRawBufferPointer) {
        let kept: Any? = types[miss.typeSlot].kind == .storage ? value : nil
        withUnsafeBytes(of: value) { key in
            let size = key.count + json.count
            if count >= Self.capacity / 2 || totalBytes + size > Self.byteLimit {
                if usedNow < count { dropUnused() }
                guard count < Self.capacity / 2, totalBytes + size <= Self.byteLimit else { return }
            }
            var index = Self.slot(miss.hash)
            while entries[index].hash != 0 { index = (index &+ 1) & (Self.capacity &- 1) }
            var data = [UInt8]()
            data.reserveCapacity(size)
            data.append(contentsOf: key)
            data.append(contentsOf: json)
            entries[index] = Entry(
                hash: miss.hash, type: ObjectIdentifier(T.self), data: data, keyCount: key.count, kept: kept,
                lastUse: generation)
            count &+= 1
            usedNow &+= 1
            totalBytes &+= size
        }
    }

    // MARK: Entries

    @inline(__always)
    private static func slot(_ bits: UInt) -> Int {
        Int(((bits >> 4) ^ (bits >> 12) ^ (bits >> 24)) & UInt(capacity &- 1))
    }

    /// A hash of a key's bytes and its type, never 0.
    @inline(__always)
    private static func hash(_ key: UnsafeRawBufferPointer, _ type: ObjectIdentifier) -> UInt {
        let hash = UInt(truncatingIfNeeded: ByteHash.hash(key, seed: UInt64(UInt(bitPattern: type))))
        return hash == 0 ? 1 : hash
    }

    @inline(__always)
    private static func keyMatches(_ data: [UInt8], _ key: UnsafeRawBufferPointer) -> Bool {
        data.withUnsafeBytes { stored in
            guard let keyStart = key.baseAddress else { return true }
            return ShortBytes.equal(stored.baseAddress!, keyStart, count: key.count)
        }
    }

    /// Drops the entries that the current top-level value has not used, and rebuilds the table
    /// (open addressing cannot simply empty a slot).
    private mutating func dropUnused() {
        var survivors: [Entry] = []
        for index in 0..<Self.capacity where entries[index].hash != 0 {
            if entries[index].lastUse == generation { survivors.append(entries[index]) }
            entries[index] = Entry()
        }
        count = 0
        totalBytes = 0
        for entry in survivors {
            var index = Self.slot(entry.hash)
            while entries[index].hash != 0 { index = (index &+ 1) & (Self.capacity &- 1) }
            entries[index] = entry
            count &+= 1
            totalBytes &+= entry.data.count
        }
    }
}
