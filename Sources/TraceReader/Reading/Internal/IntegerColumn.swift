/// A growable list of integers that costs little memory when its values count up by one.
///
/// A trace index keeps integers per event (its step, its line number) and per store (the indices
/// of its events). In a healthy trace they go up by exactly one from element to element, so the
/// column keeps them as runs: a run is `(first index, first value)` and holds
/// `value = first value + (index − first index)` up to the next run. A clean trace needs one run
/// for the whole column, a trace with a few skipped lines a few more. When runs stop paying off
/// (more than one run per `elementsPerRun` elements, past the first `runsAlwaysAllowed`), the
/// column becomes a plain array of `Int32`, or of `Int` once a value does not fit in 32 bits.
///
/// Reading an element is a binary search over the runs, or an array access.
package struct IntegerColumn: Sendable, Equatable {
    private enum Storage: Sendable, Equatable {
        case runs(starts: [Int], values: [Int])
        case narrow([Int32])
        case wide([Int])
    }

    /// A run costs 16 bytes and a narrow element 4: runs are kept while they average at most
    /// 2 bytes per element.
    private static let elementsPerRun = 8
    private static let runsAlwaysAllowed = 64

    private var storage: Storage = .runs(starts: [], values: [])
    /// The number of elements.
    private(set) var count = 0
    /// The value that would extend the last run, while the storage is runs and has one: the
    /// common case of an append, checked without touching the storage.
    private var nextInRun: Int?

    init() {}

    /// Appends `value`.
    mutating func append(_ value: Int) {
        appendRun(from: value, length: 1)
    }

    /// Appends `first`, `first + 1`, …: `length` values.
    mutating func appendRun(from first: Int, length: Int) {
        guard length > 0 else { return }
        if let next = nextInRun, next == first {
            count += length
            nextInRun = Self.end(ofRunFrom: first, length: length)
            return
        }
        switch storage {
        case .runs(var starts, var values):
            if starts.count < Self.runsAlwaysAllowed || (starts.count + 1) * Self.elementsPerRun <= count + length {
                storage = .wide([])  // drops the enum's reference so the appends below do not copy
                starts.append(count)
                values.append(first)
                storage = .runs(starts: starts, values: values)
                count += length
                nextInRun = Self.end(ofRunFrom: first, length: length)
                return
            }
            nextInRun = nil
            storage = .wide([])
            var elements = Self.expand(starts: starts, values: values, count: count)
            for offset in 0..<length { elements.append(first &+ offset) }
            storage = Self.compact(elements)
            count += length
        case .narrow(var elements):
            storage = .wide([])
            for offset in 0..<length {
                let value = first &+ offset
                guard let narrow = Int32(exactly: value) else {
                    var wide = elements.map(Int.init)
                    elements = []
                    for rest in offset..<length { wide.append(first &+ rest) }
                    storage = .wide(wide)
                    count += length
                    return
                }
                elements.append(narrow)
            }
            storage = .narrow(elements)
            count += length
        case .wide(var elements):
            storage = .narrow([])
            for offset in 0..<length { elements.append(first &+ offset) }
            storage = .wide(elements)
            count += length
        }
    }

    /// `first + length`, the value after a run, or nil when there is none (at the largest `Int`).
    private static func end(ofRunFrom first: Int, length: Int) -> Int? {
        let (end, overflow) = first.addingReportingOverflow(length)
        return overflow ? nil : end
    }

    /// Appends every element of `other`, each plus `shift`.
    mutating func append(contentsOf other: IntegerColumn, adding shift: Int) {
        if case .runs(let starts, let values) = other.storage {
            for run in starts.indices {
                let end = run + 1 < starts.count ? starts[run + 1] : other.count
                appendRun(from: values[run] &+ shift, length: end - starts[run])
            }
        } else {
            for index in 0..<other.count { append(other[index] &+ shift) }
        }
    }

    /// The element at `index`, which must be in `0..<count`.
    package subscript(index: Int) -> Int {
        switch storage {
        case .runs(let starts, let values):
            var low = 0  // the last run that starts at or before `index`
            var high = starts.count
            while high - low > 1 {
                let middle = (low + high) / 2
                if starts[middle] <= index { low = middle } else { high = middle }
            }
            return values[low] &+ (index - starts[low])
        case .narrow(let elements):
            return Int(elements[index])
        case .wide(let elements):
            return elements[index]
        }
    }

    /// The first index in `range` whose element is greater than `value`, or `range.upperBound`
    /// when there is none. The elements in `range` must not decrease.
    package func firstIndex(above value: Int, in range: Range<Int>) -> Int {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
            let middle = low + (high - low) / 2
            if self[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether every element is its index plus `offset`.
    func isIdentity(offset: Int) -> Bool {
        guard case .runs(let starts, let values) = storage else { return count == 0 }
        return starts.count <= 1 && (values.first ?? offset) == offset
    }

    /// The bytes the column's storage takes (its arrays' elements), for measuring the index.
    var byteCount: Int {
        switch storage {
        case .runs(let starts, _): starts.count * 2 * MemoryLayout<Int>.stride
        case .narrow(let elements): elements.count * MemoryLayout<Int32>.stride
        case .wide(let elements): elements.count * MemoryLayout<Int>.stride
        }
    }

    private static func expand(starts: [Int], values: [Int], count: Int) -> [Int] {
        var elements: [Int] = []
        elements.reserveCapacity(count + count / 4)
        for run in starts.indices {
            let end = run + 1 < starts.count ? starts[run + 1] : count
            for index in starts[run]..<end { elements.append(values[run] &+ (index - starts[run])) }
        }
        return elements
    }

    private static func compact(_ elements: [Int]) -> Storage {
        var narrow: [Int32] = []
        narrow.reserveCapacity(elements.count)
        for element in elements {
            guard let value = Int32(exactly: element) else { return .wide(elements) }
            narrow.append(value)
        }
        return .narrow(narrow)
    }
}
