/// The library's hash of short byte strings (names, keys): eight bytes at a time, each word mixed
/// in by multiplication, then a final mix so that the low bits (a table's slot) depend on every
/// byte. Not for untrusted adversarial input at scale: tables that use it stay small, or are
/// filled by a trace's own names.
@_spi(RewindInternals) public enum ByteHash {
    /// The hash of `bytes`; `seed` separates kinds of key that may share bytes.
    ///
    /// Names are mostly shorter than 16 bytes, so the last 1 to 16 bytes are read in at most two
    /// loads (overlapping, never outside `bytes`) instead of one byte at a time: hashing a
    /// 12-byte store name went from about 60 instructions to about 20.
    @inlinable @inline(__always)
    public static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let count = bytes.count
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: count) ^ seed
        guard let base = bytes.baseAddress, count > 0 else { return finish(hash) }
        var offset = 0
        while offset &+ 16 < count {
            hash = (hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash &>> 29
            offset &+= 8
        }
        // 1 to 16 bytes are left, from `offset`.
        let first: UInt64
        let last: UInt64
        let rest = count &- offset
        if rest >= 8 {
            first = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            last = base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        } else if rest >= 4 {
            first = UInt64(base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            last = UInt64(base.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
        } else {
            // One, two or three bytes: each is one of these three.
            first =
                UInt64(base.load(fromByteOffset: offset, as: UInt8.self))
                | UInt64(base.load(fromByteOffset: offset &+ rest &>> 1, as: UInt8.self)) &<< 8
                | UInt64(base.load(fromByteOffset: count &- 1, as: UInt8.self)) &<< 16
            last = 0
        }
        hash = (hash ^ first) &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash &>> 29
        hash = (hash ^ last) &* 0xC4CE_B9FE_1A85_EC53
        return finish(hash)
    }

    /// The hash of the bytes of `view`, as `hash(_:seed:)` of a buffer.
    @_alwaysEmitIntoClient @inline(__always)
    public static func hash(_ view: ByteView, seed: UInt64 = 0) -> UInt64 {
        hash(UnsafeRawBufferPointer(start: view.unsafeBaseAddress, count: view.count), seed: seed)
    }

    /// The final mix, so that the low bits depend on every byte.
    @inlinable @inline(__always)
    static func finish(_ value: UInt64) -> UInt64 {
        var hash = value
        hash ^= hash &>> 33
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash &>> 33
        return hash
    }
}
