/// The values at given ranks of an array of numbers, as a full sort would place them, found by
/// a radix selection on the bits of the numbers: `IntervalQuantiles` needs two ranks of up to a
/// million intervals, after the file is read, and this is its time on the wall clock alone.
///
/// Each number is read as a 64-bit key that orders as the numbers do (`key(of:)`), and the keys
/// are counted by their top 16 bits, one pass over the values that finds the bucket of every
/// rank; the keys of those buckets are then moved to the front (the largest) or copied out (the
/// others), and counted by their next 16 bits, and so on, at most four rounds, until each rank's
/// key is known to the bit. Time is linear whatever the input (duplicates, sorted or built against pivots);
/// quickselect, which it replaced, moved the values around twice as often, with a branch per
/// comparison that the intervals' order made hard to predict.
///
/// The key order is a total order: -0.0 comes before 0.0 and NaNs at either end (by their sign
/// bit), where a sort places those as its algorithm happens to (they compare equal, or not at
/// all); `IntervalQuantiles` sorts instead when its values hold either. For every other value,
/// equal keys are equal numbers with the same bits, so the values found are the sorted ones bit
/// for bit.
enum RadixSelection {
    /// The bits counted per round.
    private static let digitBits = 16
    /// Ranges this small are sorted rather than counted (a count costs 256 KB of counters).
    private static let sortedBelow = 2_048

    /// The values a sort of `values` would put at `ranks` (each within `values.indices`), in the
    /// order of `ranks`. `values` is used as room for the keys: its contents after are
    /// unspecified (no second copy of a million intervals, whose pages the kernel would clear).
    static func values(at ranks: [Int], overwriting values: inout [Double]) -> [Double] {
        precondition(ranks.allSatisfy { values.indices.contains($0) }, "ranks \(ranks) are outside 0..<\(values.count)")
        let order = ranks.indices.sorted { ranks[$0] < ranks[$1] }
        let sortedRanks = order.map { ranks[$0] }
        let selected = values.withUnsafeMutableBufferPointer { values in
            values.withMemoryRebound(to: UInt64.self) { bits in
                var all = UInt64.max
                var any = UInt64(0)
                for index in bits.indices {
                    let key = key(ofBits: bits[index])
                    bits[index] = key
                    all &= key
                    any |= key
                }
                var keys = bits
                // Made by the first count: few keys are sorted, with no counters (1 MB to clear,
                // a tenth of the time of `inspector stats` on a small trace).
                var counts: [UInt32] = []
                return select(
                    sortedRanks, in: &keys, differing: all ^ any, shift: UInt64(64 - digitBits), counts: &counts)
            }
        }
        var found = [Double](repeating: 0, count: ranks.count)
        for (position, key) in zip(order, selected) { found[position] = value(of: key) }
        return found
    }

    /// The counters per bucket, in as many tables: consecutive keys counted in different ones,
    /// so that a run of equal keys (most intervals are one of a few values) does not wait for
    /// each increment of one counter before the next.
    private static let countTables = 4

    /// The keys at `ranks` (increasing) among `keys`, which agree on every bit above
    /// `shift + digitBits` and differ only in the bits of `differing`, reordered; `counts` is
    /// room for the counters, made when first needed (empty on the first call). A digit on which all the keys agree is not counted; a bucket that
    /// holds every key is counted again by the next digit without a copy; one that holds some is
    /// moved to the front, or copied out when another bucket holds a rank too.
    private static func select(
        _ ranks: [Int], in keys: inout UnsafeMutableBufferPointer<UInt64>, differing: UInt64, shift: UInt64,
        counts: inout [UInt32]
    ) -> [UInt64] {
        if keys.count < sortedBelow {
            keys.sort()
            return ranks.map { keys[$0] }
        }
        if differing == 0 { return ranks.map { _ in keys[0] } }
        let mask = UInt64(1 << digitBits - 1)
        var shift = shift
        // Some digit at or below `shift` differs: the keys agree above it.
        while differing &>> shift & mask == 0 { shift -= UInt64(digitBits) }
        if counts.isEmpty { counts = [UInt32](repeating: 0, count: countTables << digitBits) }
        count(keys, shift: shift, into: &counts)
        let groups = groups(of: ranks, in: counts)
        var found = [[UInt64]](repeating: [], count: groups.count)
        // The largest bucket last, moved to the front in place once the others are copied out.
        let largest = groups.indices.max { groups[$0].size < groups[$1].size }!
        for index in groups.indices.filter({ $0 != largest }) + [largest] {
            let group = groups[index]
            let digit = UInt64(group.bucket)
            if shift == 0 {
                // The last digit: every key of the bucket is the same.
                let key = keys[0] & ~mask | digit
                found[index] = group.ranks.map { _ in key }
                continue
            }
            let next = shift - UInt64(digitBits)
            let below = differing & (1 << shift - 1)
            if group.size == keys.count {
                found[index] = select(group.ranks, in: &keys, differing: below, shift: next, counts: &counts)
            } else if index == largest {
                var kept = 0
                var all = UInt64.max
                var any = UInt64(0)
                for index in keys.indices where keys[index] &>> shift & mask == digit {
                    keys[kept] = keys[index]
                    all &= keys[index]
                    any |= keys[index]
                    kept &+= 1
                }
                var front = UnsafeMutableBufferPointer(rebasing: keys[..<kept])
                found[index] = select(
                    group.ranks, in: &front, differing: (all ^ any) & below, shift: next, counts: &counts)
            } else {
                var copy = keys.filter { $0 &>> shift & mask == digit }
                let differing = copy.reduce(UInt64.max, &) ^ copy.reduce(0, |)
                found[index] = copy.withUnsafeMutableBufferPointer { copy in
                    select(group.ranks, in: &copy, differing: differing & below, shift: next, counts: &counts)
                }
            }
        }
        return found.flatMap { $0 }
    }

    /// Counts `keys` by their digit at `shift` into the first `1 << digitBits` of `counts`.
    private static func count(_ keys: UnsafeMutableBufferPointer<UInt64>, shift: UInt64, into counts: inout [UInt32]) {
        let mask = UInt64(1 << digitBits - 1)
        counts.withUnsafeMutableBufferPointer { counts in
            counts.update(repeating: 0)
            var index = 0
            while index + countTables <= keys.count {
                for table in 0..<countTables {
                    counts[table << digitBits | Int(truncatingIfNeeded: keys[index + table] &>> shift & mask)] &+= 1
                }
                index += countTables
            }
            while index < keys.count {
                counts[Int(truncatingIfNeeded: keys[index] &>> shift & mask)] &+= 1
                index += 1
            }
            for table in 1..<countTables {
                for bucket in 0..<(1 << digitBits) { counts[bucket] &+= counts[table << digitBits | bucket] }
            }
        }
    }

    /// The buckets that hold `ranks` (increasing), by `counts` of the keys per bucket: each
    /// bucket's index, its count, and the ranks among its keys, in increasing order.
    private static func groups(of ranks: [Int], in counts: [UInt32]) -> [(bucket: Int, size: Int, ranks: [Int])] {
        var groups: [(bucket: Int, size: Int, ranks: [Int])] = []
        var start = 0
        var bucket = 0
        for rank in ranks {
            while start + Int(counts[bucket]) <= rank {
                start += Int(counts[bucket])
                bucket += 1
            }
            if groups.last?.bucket == bucket {
                groups[groups.count - 1].ranks.append(rank - start)
            } else {
                groups.append((bucket, Int(counts[bucket]), [rank - start]))
            }
        }
        return groups
    }

    /// `value`'s bits as a number that orders as the values do: a positive value (sign bit 0)
    /// with its sign bit set, a negative one with every bit flipped, so that a larger magnitude
    /// comes first.
    @inline(__always)
    static func key(of value: Double) -> UInt64 {
        key(ofBits: value.bitPattern)
    }

    /// The key of the value whose bits are `bits`.
    @inline(__always)
    private static func key(ofBits bits: UInt64) -> UInt64 {
        bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
    }

    /// The value whose key is `key`.
    @inline(__always)
    static func value(of key: UInt64) -> Double {
        Double(bitPattern: key & (1 << 63) != 0 ? key & ~(1 << 63) : ~key)
    }
}
