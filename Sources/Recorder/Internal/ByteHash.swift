/// The library's hash of short byte strings (names, keys): eight bytes at a time, each word mixed
/// in by multiplication, then a final mix so that the low bits (a table's slot) depend on every
/// byte. Not for untrusted adversarial input at scale: tables that use it stay small, or are
/// filled by a trace's own names.
enum ByteHash {
    /// The hash of `bytes`; `seed` separates kinds of key that may share bytes.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: bytes.count) ^ seed
        guard let base = bytes.baseAddress else { return hash }
        var offset = 0
        while offset &+ 8 <= bytes.count {
            hash = (hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash &>> 29
            offset &+= 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) &<< shift
            shift &+= 8
            offset &+= 1
        }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        hash ^= hash &>> 33
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash &>> 33
        return hash
    }
}
