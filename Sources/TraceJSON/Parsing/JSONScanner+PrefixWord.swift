@_spi(RewindInternals) public import RewindSupport

/// A name's first eight bytes as one word: what the tape decoder hashes and compares first when
/// it looks at member names (`JSONTapeState+Building`, `JSONTapeMemberLookup`), and what the
/// trace reader's `EventFieldsSink` looks an event's member names up by.
///
/// Public as `@_spi(RewindInternals)` and `@inlinable`, as the walker is: a sink in another
/// module calls it per name.
extension JSONScanner {
    /// The first `min(length, 8)` bytes at `offset` of the `count` bytes at `base`,
    /// zero-padded, as one little-endian word (one load when 8 bytes are there to read).
    @inlinable @inline(__always)
    public static func prefixWord(_ base: UnsafePointer<UInt8>, count: Int, at offset: Int, length: Int) -> UInt64 {
        prefixWord(ByteView(start: UnsafeRawPointer(base), count: count), at: offset, length: length)
    }

    /// `prefixWord` of a sink's view of the input.
    @inlinable @inline(__always)
    public static func prefixWord(_ bytes: ByteView, at offset: Int, length: Int) -> UInt64 {
        assert(
            offset >= 0 && offset &+ length <= bytes.count, "prefixWord: \(length) bytes at \(offset) of \(bytes.count)"
        )
        if offset &+ 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(at: offset, as: UInt64.self))
            return length >= 8 ? word : word & ((1 &<< UInt64(length &* 8)) &- 1)
        }
        var word: UInt64 = 0
        var index = 0
        while index < length && index < 8 {
            word |= UInt64(bytes[offset &+ index]) &<< UInt64(index &* 8)
            index &+= 1
        }
        return word
    }
}
