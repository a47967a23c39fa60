/// A growable list of booleans, one bit each: which events of a version 2 trace carry a `patch`
/// instead of their `state` (`TraceIndex.patched`), at 1/8 byte per event.
package struct BitColumn: Sendable, Equatable {
    private var words: [UInt64] = []
    /// The number of elements.
    private(set) var count = 0
    /// Whether some element is set.
    private(set) var hasSetBits = false

    init() {}

    /// `count` clear bits.
    init(clear count: Int) {
        words = [UInt64](repeating: 0, count: (count + 63) / 64)
        self.count = count
    }

    /// Appends `value`.
    mutating func append(_ value: Bool) {
        if count % 64 == 0 { words.append(0) }
        if value {
            words[count / 64] |= 1 << UInt64(count % 64)
            hasSetBits = true
        }
        count += 1
    }

    /// Appends every element of `other`.
    mutating func append(contentsOf other: BitColumn) {
        if count % 64 == 0 {
            // Word-aligned: whole words at once (the bits past `other.count` are clear).
            words.append(contentsOf: other.words)
            count += other.count
            hasSetBits = hasSetBits || other.hasSetBits
            return
        }
        for index in 0..<other.count { append(other[index]) }
    }

    /// The element at `index`, which must be in `0..<count`.
    subscript(index: Int) -> Bool {
        words[index / 64] & (1 << UInt64(index % 64)) != 0
    }

    /// Sets the element at `index` (in `0..<count`).
    mutating func set(_ index: Int) {
        words[index / 64] |= 1 << UInt64(index % 64)
        hasSetBits = true
    }

    /// The last index in `range` whose bit is clear, or nil when every bit in it is set: read a
    /// word (64 elements) at a time.
    func lastClear(in range: Range<Int>) -> Int? {
        var upper = range.upperBound  // the indices below this are still to look at
        while upper > range.lowerBound {
            let last = upper - 1
            let word = last / 64
            let low = max(range.lowerBound, word * 64)
            // The bits of `word` from `low` to `last`, inverted: a set bit is a clear element.
            var clear = ~words[word]
            let top = UInt64(last % 64)
            if top < 63 { clear &= (1 << (top + 1)) &- 1 }
            clear &= ~((1 << UInt64(low % 64)) &- 1)
            if clear != 0 { return word * 64 + (63 - clear.leadingZeroBitCount) }
            upper = low
        }
        return nil
    }

    /// The bytes the column's storage takes.
    var byteCount: Int { words.count * MemoryLayout<UInt64>.stride }
}
