/// A growable array in raw memory that cannot be copied: the working storage of the JSON layer
/// (the tape decoder's tape, coding-path nodes and container slots, the parser's value stacks).
///
/// Why not `Array`: the decoder's containers reach this storage through a pointer to the
/// decoder's state, and every access to an `Array` there costs a uniqueness check, an
/// exclusivity check and often a retain; a raw pointer costs a load. Why `~Copyable`: the memory
/// is freed in `deinit`, so it is freed exactly once, when its one owner goes, and no copy can
/// outlive it. Indices are checked in debug builds only: callers index only positions they wrote
/// (the tape's structure is built by the decoder itself, never read from the input).
struct JSONBuffer<Element>: ~Copyable {
    /// The first element. Valid until the buffer grows or is dropped.
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// In debug builds, traps when the buffer's bookkeeping is broken.
    @inline(__always)
    func checkInvariants() {
        assert(capacity >= 1 && count >= 0 && count <= capacity, "JSONBuffer: count \(count), capacity \(capacity)")
    }

    /// The element at `index`, in place (addressors, not get/set: a change to one field of an
    /// element, `slots[i].cursor = c`, writes that field where it is, without a copy).
    @inline(__always)
    subscript(index: Int) -> Element {
        unsafeAddress {
            assert(index >= 0 && index < count, "JSONBuffer index out of range")
            return UnsafePointer(base + index)
        }
        nonmutating unsafeMutableAddress {
            assert(index >= 0 && index < count, "JSONBuffer index out of range")
            return base + index
        }
    }

    /// The elements as a plain pointer and count, for a hot loop that reads them (or changes
    /// them in place) while nothing appends or drops: a copy held in registers, where the
    /// buffer itself is reached through its owner. Valid until the buffer's count next changes.
    @inline(__always)
    var unsafeElements: UnsafeMutableBufferPointer<Element> {
        UnsafeMutableBufferPointer(start: base, count: count)
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

    /// Moves the last `removed` elements out, in order, into an array.
    @inline(__always)
    mutating func removeLast(_ removed: Int) -> [Element] {
        assert(removed >= 0 && removed <= count)
        // (An empty array is the shared empty storage, which `unsafeUninitializedCapacity`
        // would write its count into.)
        guard removed > 0 else { return [] }
        count &-= removed
        let source = base + count
        return [Element](unsafeUninitializedCapacity: removed) { buffer, initialized in
            guard let target = buffer.baseAddress else { return }
            target.moveInitialize(from: source, count: removed)
            initialized = removed
        }
    }

    /// Drops every element; when the buffer grew beyond `limit` elements, gives the memory back
    /// too, so that one huge document does not pin its working memory for the process's lifetime.
    mutating func removeAll(shrinkingBeyond limit: Int) {
        truncate(to: 0)
        if capacity > limit {
            base.deallocate()
            capacity = Swift.max(1, Swift.min(limit, 64))
            base = .allocate(capacity: capacity)
        }
        checkInvariants()
    }

    /// Makes room for at least `minimumCapacity` elements.
    @inline(__always)
    mutating func reserve(_ minimumCapacity: Int) {
        if minimumCapacity > capacity { grow(to: minimumCapacity) }
    }

    @inline(never)
    private mutating func grow(to newCapacity: Int) {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity = newCapacity
        checkInvariants()
    }
}
