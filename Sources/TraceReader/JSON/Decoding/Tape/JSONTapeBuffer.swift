/// A growable array in raw memory, for the decoder's working storage (tape, coding-path nodes,
/// container slots).
///
/// Why not `Array`: the decoder's containers reach this storage through an `unowned(unsafe)`
/// reference to the decoder, and every access to an `Array` in a class costs a uniqueness check,
/// an exclusivity check and often a retain; a pointer costs a load. The owner calls `release()`
/// exactly once. Indices are not checked beyond `count` in release builds: callers index only
/// positions they wrote (the tape's structure is built by the decoder itself, never read from
/// the input).
struct JSONTapeBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    /// Frees the memory and the elements in it.
    mutating func release() {
        base.deinitialize(count: count)
        base.deallocate()
        count = 0
        capacity = 0
    }

    /// The element at `index`, in place (addressors, not get/set: an `inout` use such as
    /// `isKnownUniquelyReferenced(&slots[i].box)` must see the element, not a copy).
    @inline(__always)
    subscript(index: Int) -> Element {
        unsafeAddress {
            assert(index >= 0 && index < count, "JSONTapeBuffer index out of range")
            return UnsafePointer(base + index)
        }
        nonmutating unsafeMutableAddress {
            assert(index >= 0 && index < count, "JSONTapeBuffer index out of range")
            return base + index
        }
    }

    /// Appends `element`; returns its index.
    @discardableResult
    @inline(__always)
    mutating func append(_ element: Element) -> Int {
        if count == capacity { grow(to: capacity &* 2) }
        (base + count).initialize(to: element)
        count &+= 1
        return count &- 1
    }

    /// Drops the elements from `newCount` on.
    @inline(__always)
    mutating func truncate(to newCount: Int) {
        assert(newCount >= 0 && newCount <= count)
        if newCount < count {
            (base + newCount).deinitialize(count: count &- newCount)
            count = newCount
        }
    }

    /// Drops every element; when the buffer grew beyond `limit` elements, gives the memory back
    /// too, so that one huge document does not pin its working memory for the process's lifetime.
    mutating func removeAll(shrinkingBeyond limit: Int) {
        truncate(to: 0)
        if capacity > limit {
            base.deallocate()
            capacity = Swift.min(limit, 64)
            base = .allocate(capacity: capacity)
        }
    }

    /// Makes room for at least `minimumCapacity` elements.
    @inline(__always)
    mutating func reserve(_ minimumCapacity: Int) {
        if minimumCapacity > capacity { grow(to: minimumCapacity) }
    }

    private mutating func grow(to newCapacity: Int) {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity = newCapacity
    }
}
