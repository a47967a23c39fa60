/// The latest seq of each store and action, for `CauseLoopTracker`: a hash table of 64-bit keys
/// (store and action packed) to seqs, with open addressing, so that the one lookup and the one
/// update per event allocate nothing and hash nothing but one integer.
struct LatestSeqTable {
    private struct Slot {
        /// `empty` when the slot is free.
        var key: UInt64
        var seq: Int
    }

    /// No key: a store number is below 2^31, so a key never has its top bit set.
    private static let empty = UInt64.max
    /// A power of two, at least twice `count`.
    private var slots = [Slot](repeating: Slot(key: LatestSeqTable.empty, seq: 0), count: 16)
    private(set) var count = 0

    init() {}

    /// The seq kept for `key` (below 2^63), or nil. Setting nil does nothing: keys stay.
    subscript(key: UInt64) -> Int? {
        get {
            slots.withUnsafeBufferPointer { slots in
                let mask = slots.count &- 1
                var index = Self.hash(key) & mask
                while true {
                    let slot = slots[index]
                    if slot.key == key { return slot.seq }
                    if slot.key == Self.empty { return nil }
                    index = (index &+ 1) & mask
                }
            }
        }
        set {
            guard let newValue else { return }
            let added: Bool = slots.withUnsafeMutableBufferPointer { slots in
                let mask = slots.count &- 1
                var index = Self.hash(key) & mask
                while true {
                    if slots[index].key == key {
                        slots[index].seq = newValue
                        return false
                    }
                    if slots[index].key == Self.empty {
                        slots[index] = Slot(key: key, seq: newValue)
                        return true
                    }
                    index = (index &+ 1) & mask
                }
            }
            guard added else { return }
            count &+= 1
            if count &* 2 > slots.count { grow() }
        }
    }

    @inline(__always)
    private static func hash(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> 32)
    }

    private mutating func grow() {
        let old = slots
        slots = [Slot](repeating: Slot(key: Self.empty, seq: 0), count: old.count * 2)
        count = 0
        for slot in old where slot.key != Self.empty { self[slot.key] = slot.seq }
    }
}
