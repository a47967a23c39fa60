#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Names (store names, case names) interned as small integer ids, looked up by their UTF-8 bytes
/// without making a `String`: the validator's per-line work allocates nothing once a name is known.
///
/// An open-addressing hash table over one byte arena. Ids are dense, in the order names were
/// first added.
struct NameTable {
    /// Where each name's bytes are in `arena`, by id.
    private var spans: [(start: Int, count: Int, hash: UInt64)] = []
    /// The bytes of every name, one after the other.
    private var arena: [UInt8] = []
    /// Slots of the hash table: an id + 1, or 0 when empty. The count is a power of two.
    private var slots: [Int32] = Array(repeating: 0, count: 16)

    /// The number of names.
    var count: Int { spans.count }

    /// The id of `name`, adding it when it is new.
    @inline(__always)
    mutating func intern(_ name: UnsafeRawBufferPointer) -> Int {
        let hash = Self.hash(name)
        var slot = Int(truncatingIfNeeded: hash) & (slots.count &- 1)
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { break }
            if matches(entry &- 1, name, hash) { return entry &- 1 }
            slot = (slot &+ 1) & (slots.count &- 1)
        }
        let id = spans.count
        spans.append((arena.count, name.count, hash))
        arena.append(contentsOf: name)
        slots[slot] = Int32(truncatingIfNeeded: id &+ 1)
        if spans.count &* 2 > slots.count { grow() }
        return id
    }

    /// The id of `name` as a `String`, adding it when it is new.
    mutating func intern(_ name: String) -> Int {
        var name = name
        return name.withUTF8 { intern(UnsafeRawBufferPointer($0)) }
    }

    /// The id of `name`, or nil when it was never added.
    @inline(__always)
    func find(_ name: UnsafeRawBufferPointer) -> Int? {
        let hash = Self.hash(name)
        var slot = Int(truncatingIfNeeded: hash) & (slots.count &- 1)
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return nil }
            if matches(entry &- 1, name, hash) { return entry &- 1 }
            slot = (slot &+ 1) & (slots.count &- 1)
        }
    }

    /// The id of `name` as a `String`, or nil when it was never added.
    func find(_ name: String) -> Int? {
        var name = name
        return name.withUTF8 { find(UnsafeRawBufferPointer($0)) }
    }

    /// The name with id `id`.
    func name(_ id: Int) -> String {
        let span = spans[id]
        return String(decoding: arena[span.start..<(span.start + span.count)], as: UTF8.self)
    }

    @inline(__always)
    private func matches(_ id: Int, _ name: UnsafeRawBufferPointer, _ hash: UInt64) -> Bool {
        let span = spans[id]
        guard span.hash == hash, span.count == name.count else { return false }
        if name.isEmpty { return true }
        return arena.withUnsafeBytes { memcmp($0.baseAddress! + span.start, name.baseAddress!, name.count) == 0 }
    }

    private mutating func grow() {
        var bigger = [Int32](repeating: 0, count: slots.count * 2)
        for (id, span) in spans.enumerated() {
            var slot = Int(truncatingIfNeeded: span.hash) & (bigger.count - 1)
            while bigger[slot] != 0 { slot = (slot + 1) & (bigger.count - 1) }
            bigger[slot] = Int32(truncatingIfNeeded: id + 1)
        }
        slots = bigger
    }

    /// A fast 64-bit hash of short byte strings: eight bytes at a time, multiplied and mixed.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: bytes.count)
        guard let base = bytes.baseAddress else { return hash }
        var offset = 0
        while offset &+ 8 <= bytes.count {
            let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash &>> 32
            offset &+= 8
        }
        if offset < bytes.count {
            var word: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count {
                word |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) &<< shift
                shift &+= 8
                offset &+= 1
            }
            hash = (hash ^ word) &* 0xC4CE_B9FE_1A85_EC53
            hash ^= hash &>> 29
        }
        return hash
    }
}
