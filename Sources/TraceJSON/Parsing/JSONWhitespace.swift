@_spi(RewindInternals) public import RewindSupport

// JSON's whitespace, defined once for every reader of the project: the walker (and so the parser
// and the header sink), the tape decoder, the event scanners, the text readers and the loader all
// skip it through here, so a change to the grammar's whitespace is made in one place.
//
// Public as `@_spi(RewindInternals)` and `@inlinable`, as the plain-ASCII skip is: the trace
// reader's scanners call it per token from another module, where a `package` function is not
// inlined.

/// The four whitespace bytes of RFC 8259 (space, `\t`, `\n`, `\r`), and the skip over a run of
/// them.
@_spi(RewindInternals) public enum JSONWhitespace {
    /// Whether `byte` is JSON whitespace. One compare rules out every byte above the space,
    /// which is nearly every byte a skip looks at.
    @inlinable @inline(__always)
    public static func contains(_ byte: UInt8) -> Bool {
        byte <= 0x20 && (byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09)
    }

    /// The offset of the first byte at or after `offset` and before `end` that is not whitespace;
    /// `end` when there is none. Reads only bytes below `end`.
    @inlinable @inline(__always)
    public static func skip(_ base: UnsafePointer<UInt8>, from offset: Int, to end: Int) -> Int {
        var offset = offset
        while offset < end, contains(base[offset]) { offset &+= 1 }
        return offset
    }

    /// `skip(_:from:to:)` over a buffer (an empty one has no address and is never read).
    @inlinable @inline(__always)
    public static func skip(_ bytes: UnsafeRawBufferPointer, from offset: Int, to end: Int) -> Int {
        var offset = offset
        while offset < end, contains(bytes[offset]) { offset &+= 1 }
        return offset
    }

    /// `skip(_:from:to:)` over a view (an empty one is never read).
    @inlinable @inline(__always)
    public static func skip(_ bytes: ByteView, from offset: Int, to end: Int) -> Int {
        var offset = offset
        while offset < end, contains(bytes[offset]) { offset &+= 1 }
        return offset
    }

    /// The offset of the first byte of `bytes` at or after `offset` that is not whitespace;
    /// `bytes.endIndex` when there is none.
    @inlinable
    public static func skip<Bytes: Collection<UInt8>>(_ bytes: Bytes, from offset: Bytes.Index) -> Bytes.Index {
        var offset = offset
        while offset < bytes.endIndex, contains(bytes[offset]) { offset = bytes.index(after: offset) }
        return offset
    }
}
