@_spi(RewindInternals) internal import RewindSupport

/// A set of byte strings of one buffer, by their ranges: the case names of one machine, or the
/// store names of a header. Cleared in time proportional to what it held.
///
/// A name of at most 16 bytes (case and store names mostly are) is kept in its slot as two
/// words, so that looking it up is a multiplication and three comparisons, without hashing byte
/// by byte or reading the buffer again; a longer one by its `ByteHash` and its bytes. The header
/// of 1,000 different machines × 200 cases looks up 800,000 names: the target check went from
/// about a third of reading it to a sixth.
struct ByteRangeSet {
    private struct Slot {
        /// A short name's bytes 0..<8 and 8..<16, zero-padded; a long one's `ByteHash` and ~0.
        var low: UInt64
        var high: UInt64
        /// The range's start + 1, 0 when the slot is empty.
        var start: Int32
        var length: Int32
    }

    /// A name's two words and its length, as a slot keeps them, and where it starts.
    struct Key {
        var low: UInt64
        var high: UInt64
        var length: Int
        var start: Int

        /// Whether the name is ASCII: for a short one, no high bit in its words.
        @inline(__always)
        func isASCII(_ bytes: ByteView) -> Bool {
            if length <= ByteRangeSet.wordBytes { return (low | high) & 0x8080_8080_8080_8080 == 0 }
            for offset in start..<start &+ length where bytes[offset] >= 0x80 { return false }
            return true
        }

        /// The slot to look in first, of `slotCount` (a power of two): the top bits of a product,
        /// which depend on every byte (the low bits do not depend on the last bytes).
        @inline(__always)
        func slotIndex(of slotCount: Int) -> Int {
            let mixed =
                (low &* 0x9E37_79B9_7F4A_7C15) &+ (high &* 0xC2B2_AE3D_27D4_EB4F) &+ UInt64(truncatingIfNeeded: length)
            return Int(truncatingIfNeeded: mixed &>> UInt64(64 &- slotCount.trailingZeroBitCount))
        }
    }

    /// The longest name kept as words.
    fileprivate static let wordBytes = 16

    /// A power of two of slots, at least twice as many as the names.
    private var slots = [Slot](repeating: Slot(low: 0, high: 0, start: 0, length: 0), count: 16)
    private var used: [Int32] = []

    mutating func removeAll() {
        slots.withUnsafeMutableBufferPointer { slots in
            for slot in used { slots[Int(slot)].start = 0 }
        }
        used.removeAll(keepingCapacity: true)
    }

    /// Adds `range` (bytes of `bytes`); false when the set has its bytes already.
    @inline(__always)
    mutating func insert(_ range: Range<Int>, in bytes: ByteView) -> Bool {
        insert(Self.key(range, bytes), in: bytes)
    }

    /// Adds the name of `key` (made by `key(_:_:)` from the same bytes); false when the set
    /// has its bytes already.
    @inline(__always)
    mutating func insert(_ key: Key, in bytes: ByteView) -> Bool {
        let range = key.start..<key.start &+ key.length
        guard range.upperBound < Int(Int32.max) else { return false }
        if (used.count &+ 1) &* 2 > slots.count { grow(bytes) }
        let found: Int? = slots.withUnsafeMutableBufferPointer { slots in
            let mask = slots.count &- 1
            var index = key.slotIndex(of: slots.count)
            while slots[index].start != 0 {
                if Self.same(slots[index], key, bytes) { return nil }
                index = (index &+ 1) & mask
            }
            slots[index] = Slot(
                low: key.low, high: key.high, start: Int32(range.lowerBound &+ 1), length: Int32(range.count))
            return index
        }
        guard let found else { return false }
        used.append(Int32(found))
        return true
    }

    @inline(__always)
    func contains(_ range: Range<Int>, in bytes: ByteView) -> Bool {
        contains(Self.key(range, bytes), in: bytes)
    }

    /// Whether the set has the name of `key` (made by `key(_:_:)` from the same bytes).
    @inline(__always)
    func contains(_ key: Key, in bytes: ByteView) -> Bool {
        slots.withUnsafeBufferPointer { slots in
            let mask = slots.count &- 1
            var index = key.slotIndex(of: slots.count)
            while slots[index].start != 0 {
                if Self.same(slots[index], key, bytes) { return true }
                index = (index &+ 1) & mask
            }
            return false
        }
    }

    /// The key of the bytes `range` of `bytes`: a short name read in two
    /// loads of 8 bytes when 16 bytes from its start are in the buffer (a name in a header is
    /// followed by at least its closing quote and the header's last `}`), else byte by byte.
    @inline(__always)
    static func key(_ range: Range<Int>, _ bytes: ByteView) -> Key {
        let length = range.count
        guard length <= wordBytes else {
            return Key(low: ByteHash.hash(bytes[range]), high: ~0, length: length, start: range.lowerBound)
        }
        guard length > 0 else { return Key(low: 0, high: 0, length: 0, start: range.lowerBound) }
        let start = range.lowerBound
        var low: UInt64
        var high: UInt64
        if start &+ wordBytes <= bytes.count {
            low = UInt64(littleEndian: bytes.loadUnaligned(at: start, as: UInt64.self))
            high = UInt64(littleEndian: bytes.loadUnaligned(at: start &+ 8, as: UInt64.self))
        } else {
            low = 0
            high = 0
            for offset in 0..<length {
                let byte = UInt64(bytes[start &+ offset])
                if offset < 8 {
                    low |= byte &<< UInt64(offset &* 8)
                } else {
                    high |= byte &<< UInt64((offset &- 8) &* 8)
                }
            }
        }
        // Keep the name's bytes only (the first byte is the lowest).
        if length < 8 {
            low &= (1 &<< UInt64(length &* 8)) &- 1
            high = 0
        } else if length < 16 {
            high &= (1 &<< UInt64((length &- 8) &* 8)) &- 1
        }
        return Key(low: low, high: high, length: length, start: range.lowerBound)
    }

    @inline(__always)
    private static func same(_ slot: Slot, _ key: Key, _ bytes: ByteView) -> Bool {
        guard slot.low == key.low, slot.high == key.high, Int(slot.length) == key.length else { return false }
        let start = Int(slot.start &- 1)
        return key.length <= wordBytes
            || bytes[start..<(start &+ key.length)].elementsEqual(bytes[key.start..<(key.start &+ key.length)])
    }

    private mutating func grow(_ bytes: ByteView) {
        let kept = used.map { slots[Int($0)] }
        slots = [Slot](repeating: Slot(low: 0, high: 0, start: 0, length: 0), count: slots.count * 2)
        used.removeAll(keepingCapacity: true)
        for slot in kept {
            let start = Int(slot.start &- 1)
            _ = insert(start..<(start &+ Int(slot.length)), in: bytes)
        }
    }
}
