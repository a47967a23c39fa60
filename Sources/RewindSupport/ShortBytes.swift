/// Equality of short byte strings (member names, store and case names, the recorder's literals)
/// without a call to `memcmp`: a few word loads, inlined where they are used. On the validator's
/// per-line path the call itself cost more than the compare (8% of its time in `memcmp` for
/// strings of 2 to 12 bytes).
///
/// It calls no C function at any length: inlined into another module, a call to `memcmp` (whose
/// effects the optimizer cannot see) made the callers retain and release the arrays they compare
/// from (measured: 16% more instructions for the validator after the libraries were split).
@_spi(RewindInternals) public enum ShortBytes {
    /// Whether the `count` bytes at `a` and at `b` are the same.
    @inlinable @inline(__always)
    public static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        if count >= 8 {
            var offset = 0
            while offset &+ 8 < count {
                if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                {
                    return false
                }
                offset &+= 8
            }
            // The last eight bytes, overlapping the words already compared.
            let last = count &- 8
            return a.loadUnaligned(fromByteOffset: last, as: UInt64.self)
                == b.loadUnaligned(fromByteOffset: last, as: UInt64.self)
        }
        if count >= 4 {
            // The first four and the last four, which overlap when count < 8.
            let last = count &- 4
            return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: last, as: UInt32.self)
                    == b.loadUnaligned(fromByteOffset: last, as: UInt32.self)
        }
        var offset = 0
        while offset < count {
            if a.load(fromByteOffset: offset, as: UInt8.self) != b.load(fromByteOffset: offset, as: UInt8.self) {
                return false
            }
            offset &+= 1
        }
        return true
    }
}
