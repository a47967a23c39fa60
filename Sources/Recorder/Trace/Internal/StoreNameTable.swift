#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Store names seen while indexing, each given a small integer id, looked up by their UTF-8 bytes
/// so that indexing a line makes no `String` (an open-addressing hash table over the bytes).
///
/// Ids count from 0 in the order names are first added.
struct StoreNameTable: Sendable {
    /// Slot → id + 1, 0 for an empty slot. The count is a power of two, at most half full.
    private var slots: [Int32] = Array(repeating: 0, count: 16)
    /// Every name's bytes, one after another; name `id` is `bytes[starts[id]..<starts[id + 1]]`.
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]
    private var hashes: [UInt64] = []
    /// The names, by id.
    private(set) var names: [String] = []

    init() {}

    /// The id of the name whose UTF-8 bytes are `name`, adding it when it is new.
    mutating func id(for name: UnsafeRawBufferPointer) -> Int {
        let hash = Self.hash(name)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { break }
            let id = entry - 1
            if hashes[id] == hash && matches(id, name) { return id }
            slot = (slot + 1) & mask
        }
        let id = names.count
        names.append(String(decoding: name, as: UTF8.self))
        bytes.append(contentsOf: name)
        starts.append(bytes.count)
        hashes.append(hash)
        slots[slot] = Int32(truncatingIfNeeded: id + 1)
        if names.count * 2 > slots.count { grow() }
        return id
    }

    /// The id of `name`, adding it when it is new.
    mutating func id(for name: String) -> Int {
        var name = name
        return name.withUTF8 { id(for: UnsafeRawBufferPointer($0)) }
    }

    private func matches(_ id: Int, _ name: UnsafeRawBufferPointer) -> Bool {
        let start = starts[id]
        let length = starts[id + 1] - start
        guard length == name.count else { return false }
        guard length > 0 else { return true }
        return bytes.withUnsafeBytes { stored in
            guard let storedBase = stored.baseAddress, let nameBase = name.baseAddress else { return false }
            return memcmp(storedBase + start, nameBase, length) == 0
        }
    }

    private mutating func grow() {
        var larger = [Int32](repeating: 0, count: slots.count * 2)
        let mask = larger.count - 1
        for id in hashes.indices {
            var slot = Int(truncatingIfNeeded: hashes[id]) & mask
            while larger[slot] != 0 { slot = (slot + 1) & mask }
            larger[slot] = Int32(truncatingIfNeeded: id + 1)
        }
        slots = larger
    }

    /// Eight bytes at a time, each word mixed in by multiplication, then a final mix so that
    /// the low bits (the slot) depend on every byte.
    private static func hash(_ name: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(name.count)
        guard let base = name.baseAddress else { return hash }
        var offset = 0
        while offset + 8 <= name.count {
            hash = (hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 29
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < name.count {
            tail |= UInt64(name[offset]) << shift
            shift += 8
            offset += 1
        }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 33
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        return hash
    }
}
