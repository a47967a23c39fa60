@_spi(RewindInternals) internal import RewindSupport

// The recorder's memory of the JSON it wrote for parts of earlier states, so that a part an
// action did not change is copied instead of encoded again.
//
// An action usually changes a small part of a state: one field, one element. Two kinds of part
// can be recognized as unchanged for certain, without comparing them element by element:
//
// - **Arrays, dictionaries and sets, by storage.** They are copy-on-write: one the action did not
//   touch still has the same storage object, and so the same elements. The memo keeps each
//   collection it remembers, so that storage cannot be freed and its address reused while the
//   entry lives, and so that it is never uniquely referenced: a change to the collection copies
//   it first.
// - **Plain values, by their bits.** A value whose type holds no references at all (`_isPOD`:
//   numbers, enums without references, structs of those) is entirely its bytes: the same bytes,
//   the same value, the same JSON.
//
// Either way the JSON is the same because the encoder's output depends on the value alone
// (`codingPath` and `userInfo` are always empty; redaction goes by key name at any depth).
//
// A collection whose contents can change without a copy is never remembered: one that holds a
// class instance at any depth, directly (`[Cell]`), nested (`[[Cell]]`), optional (`[Cell?]`),
// as a dictionary's value or inside a struct. Two checks find them. The encoder counts the class
// instances it encodes (`EncodingContext.referencesSeen`): a part in whose JSON one was written
// is not remembered, and its type never again. And the first time a collection type with
// elements comes by, `ReferenceScan` looks through one of its elements for a class instance
// that an `encode(to:)` may read without encoding it as a value (a computed member). A part with
// no reference now cannot get one without a change to the collection, which copies it.
//
// A plain type whose values rarely repeat (a counter struct that changes every action) rests
// after a few dozen misses: it is not looked up for the next 1,024 values, then tried again. A
// collection never rests: a miss costs little next to encoding it, and a list that grows one
// append at a time must still be copied on the actions that leave it alone.
//
// Memory: at most `capacity / 2` entries (of which at most `plainLimit` plain values, which are
// cheap to encode again, so that they never crowd out collections) and `byteLimit` bytes of JSON. Entries that neither the
// value being encoded nor the one before used are dropped once there are more than 16 of them
// or 1 MB, so a list that grows by appends keeps a few versions, not dozens; when the limits
// would be passed, entries not used by the value being encoded now go too; if that is not
// enough, the new part is simply not remembered.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// It owns its tables and cannot be copied: `deinit` frees them, once.
struct EncodingMemo: ~Copyable {
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

    private struct Entry {
        /// 0 marks a free slot.
        var hash: UInt = 0
        var type: ObjectIdentifier?
        /// The key (the storage word, or the value's bytes), then the JSON.
        var data: [UInt8] = []
        /// Where `data`'s bytes are: its buffer, which never changes while the entry holds it
        /// (`data` is never mutated). Lookups read through it, so they retain nothing.
        var bytes: UnsafeRawPointer?
        var keyCount = 0
        /// `data.count`.
        var dataCount = 0
        /// The collection, kept so that its storage lives as long as the entry.
        var kept: Any?
        /// The `generation` in which the entry was last used.
        var lastUse: UInt64 = 0
    }

    private static var capacity: Int { 128 }
    static var byteLimit: Int { 8 << 20 }
    /// More entries than this (or an eighth of `byteLimit`), and those the last two values did not
    /// use are dropped.
    private static var settledCount: Int { 16 }
    /// At most this many plain values, so that collections always find room.
    private static var plainLimit: Int { 24 }

    /// Whether the memo is used at all (the recorder's encoder; not a `StateEncoder`).
    let isEnabled: Bool
    private let entries: UnsafeMutablePointer<Entry>
    private var count = 0
    /// How many entries are plain values (remembered by their bits), at most `plainLimit`.
    private var plainCount = 0
    private var totalBytes = 0
    /// Counts top-level values; an entry used during the current one is never dropped.
    private var generation: UInt64 = 1
    /// How many entries the current top-level value has used or added: when that is all of
    /// them, there is nothing to drop, and a full table is not swept again and again.
    private var usedNow = 0

    init(enabled: Bool) {
        isEnabled = enabled
        let capacity = enabled ? Self.capacity : 1
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: Entry(), count: capacity)
    }

    deinit {
        let capacity = isEnabled ? Self.capacity : 1
        entries.deinitialize(count: capacity)
        entries.deallocate()
    }

    /// Starts a new top-level value: entries used before it may now be dropped.
    mutating func beginValue() {
        generation &+= 1
        usedNow = 0
    }

    /// How many parts are remembered now (for tests).
    var rememberedCount: Int { count }

    /// `.bits` when values of `T` (not a collection: see `RecordedEncoding`) may be remembered
    /// by their bytes: it holds no references at all, and is not too large.
    static func plainKind<T>(of _: T.Type) -> Kind {
        let size = MemoryLayout<T>.size
        return _isPOD(T.self) && size > 0 && size <= largestPlainValue ? .bits : .never
    }

    // MARK: Lookup

    /// What `append` did.
    enum Lookup {
        /// The remembered JSON is in the output.
        case appended
        /// Nothing remembered yet: encode the value, then hand its JSON to `remember`.
        case missed(hash: UInt)
    }

    /// Appends the JSON remembered for `value` to `output`, when there is some.
    @inline(__always)
    mutating func append<T>(_ value: T, to output: JSONOutput) -> Lookup {
        withUnsafePointer(to: value) { pointer in
            let key = UnsafeRawBufferPointer(start: pointer, count: MemoryLayout<T>.size)
            let hash = Self.hash(key, ObjectIdentifier(T.self))
            var index = Self.slot(hash)
            while entries[index].hash != 0 {
                let entry = entries + index
                if entry.pointee.hash == hash && entry.pointee.type == ObjectIdentifier(T.self)
                    && entry.pointee.keyCount == key.count
                    && Self.keyMatches(entry.pointee.bytes.unsafelyUnwrapped, key)
                {
                    if entry.pointee.lastUse != generation {
                        entry.pointee.lastUse = generation
                        usedNow &+= 1
                    }
                    output.append(
                        UnsafeRawBufferPointer(
                            start: entry.pointee.bytes.unsafelyUnwrapped + key.count,
                            count: entry.pointee.dataCount &- key.count))
                    return .appended
                }
                index = (index &+ 1) & (Self.capacity &- 1)
            }
            return .missed(hash: hash)
        }
    }

    /// Remembers `json` as the JSON of `value`, after `append` missed.
    mutating func remember<T>(_ value: T, kind: Kind, hash: UInt, json: UnsafeRawBufferPointer) {
        let kept: Any? = kind == .storage ? value : nil
        withUnsafeBytes(of: value) { key in
            let size = key.count + json.count
            if count >= Self.settledCount || totalBytes + size > Self.byteLimit / 8 {
                drop(unusedSince: generation &- 1)
            }
            // Plain values are cheap to encode again; they must not crowd out collections.
            if kind == .bits && plainCount >= Self.plainLimit { return }
            if count >= Self.capacity / 2 || totalBytes + size > Self.byteLimit {
                if usedNow < count { drop(unusedSince: generation) }
                guard count < Self.capacity / 2, totalBytes + size <= Self.byteLimit else { return }
            }
            var index = Self.slot(hash)
            while entries[index].hash != 0 { index = (index &+ 1) & (Self.capacity &- 1) }
            var data = [UInt8]()
            data.reserveCapacity(size)
            data.append(contentsOf: key)
            data.append(contentsOf: json)
            let bytes = data.withUnsafeBytes { UnsafeRawPointer($0.baseAddress) }
            entries[index] = Entry(
                hash: hash, type: ObjectIdentifier(T.self), data: data, bytes: bytes, keyCount: key.count,
                dataCount: data.count, kept: kept, lastUse: generation)
            count &+= 1
            if kept == nil { plainCount &+= 1 }
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
    private static func keyMatches(_ stored: UnsafeRawPointer, _ key: UnsafeRawBufferPointer) -> Bool {
        guard let keyStart = key.baseAddress else { return key.isEmpty }
        return ShortBytes.equal(stored, keyStart, count: key.count)
    }

    /// Drops the entries last used before `generation` (the current one: those the value being
    /// encoded has not used yet), and rebuilds the table (open addressing cannot simply empty a
    /// slot).
    private mutating func drop(unusedSince generation: UInt64) {
        var survivors: [Entry] = []
        var dropped = false
        for index in 0..<Self.capacity where entries[index].hash != 0 {
            if entries[index].lastUse >= generation {
                survivors.append(entries[index])
            } else {
                dropped = true
            }
        }
        guard dropped else { return }
        for index in 0..<Self.capacity { entries[index] = Entry() }
        count = 0
        plainCount = 0
        totalBytes = 0
        usedNow = 0
        for entry in survivors {
            var index = Self.slot(entry.hash)
            while entries[index].hash != 0 { index = (index &+ 1) & (Self.capacity &- 1) }
            if entry.lastUse == self.generation { usedNow &+= 1 }
            entries[index] = entry
            count &+= 1
            if entry.kept == nil { plainCount &+= 1 }
            totalBytes &+= entry.data.count
        }
    }
}
