@_spi(RewindInternals) internal import RewindSupport

extension UnsafeRawBufferPointer {
    /// Whether `other` holds the same bytes, compared a word at a time (`ShortBytes`): on the
    /// per-event path of `inspector when`, `elementsEqual` went byte by byte through iterators
    /// (8% of its instructions).
    package func sameBytes(as other: UnsafeRawBufferPointer) -> Bool {
        guard count == other.count else { return false }
        guard count > 0, let base = baseAddress, let otherBase = other.baseAddress else { return true }
        return ShortBytes.equal(base, otherBase, count: count)
    }
}
