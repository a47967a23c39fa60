/// Owns the memory of a `JSONOutput`: its header and its byte buffer, allocated here and freed
/// here, in `deinit`.
///
/// It cannot be copied, so the memory has exactly one owner and is freed exactly once, when the
/// owner goes (the encoding context's storage, itself owned by a `StreamingEncoder`). The
/// `output` it hands out is a view, valid while this lives: the pattern of swift-collections'
/// `Deque`, whose `_Storage` owns and whose `_UnsafeHandle` only looks.
package struct JSONOutputStorage: ~Copyable {
    package let output: JSONOutput
    private let header: UnsafeMutablePointer<JSONOutput.Header>

    package init(capacity: Int = 4096) {
        header = .allocate(capacity: 1)
        header.initialize(to: JSONOutput.Header(base: .allocate(capacity: capacity), count: 0, capacity: capacity))
        output = JSONOutput(header: header)
    }

    deinit {
        header.pointee.base.deallocate()
        header.deinitialize(count: 1)
        header.deallocate()
    }
}

extension JSONOutput.Header {
    /// Moves the bytes written so far to a new buffer of `capacity` bytes (at least `count`),
    /// freeing the old one: the only place the buffer is replaced.
    mutating func moveBytes(toCapacity capacity: Int) {
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        self.capacity = capacity
    }
}
