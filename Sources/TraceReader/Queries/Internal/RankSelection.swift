/// The values at given ranks of an array of numbers, as a full sort would place them, found in
/// linear time on average by selection (quickselect, Hoare's partition with a median of three):
/// `IntervalQuantiles` needs two ranks of up to a million intervals, and sorting them all took
/// most of the time `inspector stats` spent after reading the file.
///
/// After `select(rank, in:)`, the element at `rank` is the one a sort would put there, every
/// element before it is at most it and every one after it at least it. Equal values go to either
/// side, so a value that is equal to another but not the same (`0.0` and `-0.0`) may come out
/// at a rank in place of the other, and a NaN, which is unordered, gives no meaningful order:
/// `IntervalQuantiles` sorts instead when its values hold either.
///
/// Worst case: after about `2 log₂ n` partitions that each kept most of the range (an input
/// built against the median of three), the range left is sorted, so it is never worse than
/// a sort.
enum RankSelection {
    /// Moves the element a sort would put at `rank` there, smaller ones before it and larger
    /// ones after it (see the type).
    static func select(_ rank: Int, in values: inout [Double]) {
        precondition(values.indices.contains(rank), "rank \(rank) is outside 0..<\(values.count)")
        values.withUnsafeMutableBufferPointer { buffer in
            select(rank, in: buffer, from: 0, to: buffer.count)
        }
    }

    /// Moves the elements a sort would put at `ranks` there (see `select(_:in:)`): the values at
    /// every one of the ranks are as in the sorted array.
    static func select(_ ranks: [Int], in values: inout [Double]) {
        let ranks = ranks.sorted()
        guard let first = ranks.first, let last = ranks.last else { return }
        precondition(first >= 0 && last < values.count, "ranks \(ranks) are outside 0..<\(values.count)")
        values.withUnsafeMutableBufferPointer { buffer in
            // From the smallest rank up: once it is in place, the larger ranks are among the
            // elements after it, a smaller range to select in (for the median and the 99th
            // percentile, half the array rather than 99% of it).
            var start = 0
            for rank in ranks where rank >= start {
                select(rank, in: buffer, from: start, to: buffer.count)
                start = rank + 1
            }
        }
    }

    /// `select` within `values[start..<end]`, which holds `rank`.
    private static func select(_ rank: Int, in values: UnsafeMutableBufferPointer<Double>, from start: Int, to end: Int)
    {
        var low = start
        var high = end  // exclusive
        var partitionsLeft = 2 * (Int.bitWidth - max(1, high - low).leadingZeroBitCount) + 4
        while high - low > 16 {
            if partitionsLeft == 0 {
                var range = UnsafeMutableBufferPointer(rebasing: values[low..<high])
                range.sort()
                return
            }
            partitionsLeft -= 1
            let split = partition(values, low, high)
            // Every element of low...split is at most every element of split+1..<high.
            if rank <= split { high = split + 1 } else { low = split + 1 }
        }
        // A few elements left: an insertion sort.
        guard low < high else { return }
        for index in (low + 1)..<high {
            let value = values[index]
            var position = index
            while position > low && value < values[position - 1] {
                values[position] = values[position - 1]
                position -= 1
            }
            values[position] = value
        }
    }

    /// Hoare's partition of `values[low..<high]` (at least 3 elements) around the median of its
    /// first, middle and last elements: returns `split`, with every element of `low...split` at
    /// most every element of `split+1..<high`, both parts non-empty.
    private static func partition(_ values: UnsafeMutableBufferPointer<Double>, _ low: Int, _ high: Int) -> Int {
        let middle = low + (high - low) / 2
        let last = high - 1
        // Order the three so that values[middle] is their median.
        if values[middle] < values[low] { values.swapAt(middle, low) }
        if values[last] < values[middle] {
            values.swapAt(last, middle)
            if values[middle] < values[low] { values.swapAt(middle, low) }
        }
        let pivot = values[middle]
        var left = low - 1
        var right = high
        while true {
            repeat { left += 1 } while values[left] < pivot
            repeat { right -= 1 } while pivot < values[right]
            if left >= right { return right }
            values.swapAt(left, right)
        }
    }
}
