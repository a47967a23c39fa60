@_spi(RewindInternals) package import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Names (store names, case names, actions) interned as small integer ids, looked up by their
/// UTF-8 bytes without making a `String`: per-line work (the validator's, the index's) allocates
/// nothing once a name is known.
///
/// An open-addressing hash table over one byte arena. Ids are dense, in the order names were
/// first added.
package struct NameTable {
    /// Where each name's bytes are in `arena`, by id.
    private var spans: [(start: Int, count: Int, hash: UInt64)] = []
    /// The bytes of every name, one after the other.
    private var arena: [UInt8] = []
    /// Slots of the hash table: an id + 1, or 0 when empty. The count is a power of two.
    private var slots: [Int32] = Array(repeating: 0, count: 16)

    package init() {}

    /// The number of names.
    package var count: Int { spans.count }

    /// The id of `name`, adding it when it is new.
    @inline(__always)
    package mutating func intern(_ name: ByteView) -> Int {
        let hash = ByteHash.hash(name)
        var slot = Int(truncatingIfNeeded: hash) & (slots.count &- 1)
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { break }
            if matches(entry &- 1, name, hash) { return entry &- 1 }
            slot = (slot &+ 1) & (slots.count &- 1)
        }
        let id = spans.count
        spans.append((arena.count, name.count, hash))
        name.append(to: &arena)
        slots[slot] = Int32(truncatingIfNeeded: id &+ 1)
        if spans.count &* 2 > slots.count { grow() }
        return id
    }

    /// The id of `name` as a `String`, adding it when it is new.
    mutating func intern(_ name: String) -> Int {
        ByteView.withBytes(of: name) { intern($0) }
    }

    /// The id of `name`, or nil when it was never added.
    @inline(__always)
    package func find(_ name: ByteView) -> Int? {
        let hash = ByteHash.hash(name)
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
        ByteView.withBytes(of: name) { find($0) }
    }

    /// The name with id `id`.
    package func name(_ id: Int) -> String {
        let span = spans[id]
        return String(decoding: arena[span.start..<(span.start + span.count)], as: UTF8.self)
    }

    @inline(__always)
    private func matches(_ id: Int, _ name: ByteView, _ hash: UInt64) -> Bool {
        let span = spans[id]
        guard span.hash == hash, span.count == name.count else { return false }
        if name.isEmpty { return true }
        return ByteView.withBytes(of: arena) { $0[span.start..<(span.start &+ span.count)].elementsEqual(name) }
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
}
