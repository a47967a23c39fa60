#if arch(x86_64) && canImport(_Builtin_intrinsics.intel) && !REWIND_WORD_SCAN
    import _Builtin_intrinsics.intel
#endif

// Runs of plain ASCII: the bytes of a string body that need no look (printable ASCII other than
// `"` and `\`). Every string scan of the reader starts here: the parser's, the tape decoder's,
// `EventScanner`'s and the compact skip's.
//
// On x86-64, sixteen bytes at a time with SSE2, which every x86-64 processor has, through the
// compiler's own intrinsics module (`_Builtin_intrinsics.intel`, part of the Swift toolchain):
// one compare finds the quotes, one the backslashes, and a signed compare with 0x20 finds the
// control bytes and every byte from 0x80 (negative as `Int8`) at once; `pmovmskb` makes their
// union a 16-bit mask, whose lowest bit is the answer. Swift's own `SIMD16<UInt8>` has no
// move-mask, and its `.==` compiled lane by lane (README, Performance), which is why this goes
// through the intrinsics. Elsewhere, and for the last bytes of a buffer, eight bytes at a time
// (`attentionFlags`): that is what every Apple silicon Mac and iPhone runs. Building with
// `-Xswiftc -DREWIND_WORD_SCAN` forces it on x86-64 too, to measure what they get (README,
// Performance).
//
// Public as `@_spi(RewindInternals)` and `@inlinable`, as RewindSupport's hot helpers are: the
// trace reader's event scanner calls these per string from another module, where a `package`
// function is not inlined.
extension JSONScanner {
    /// The offset of the first byte at or after `offset` that is `"`, `\`, a control byte or
    /// non-ASCII; when fewer than eight bytes are left with none of those, the offset where they
    /// start (the caller reads the tail byte by byte). Reads only bytes below `count`.
    @inlinable @inline(__always)
    public static func skipPlainASCII(_ base: UnsafePointer<UInt8>, from offset: Int, count: Int) -> Int {
        var offset = offset
        #if arch(x86_64) && canImport(_Builtin_intrinsics.intel) && !REWIND_WORD_SCAN
            while offset &+ 16 <= count {
                let mask = attentionMask16(base + offset)
                if mask != 0 { return offset &+ mask.trailingZeroBitCount }
                offset &+= 16
            }
        #endif
        return skipPlainASCIIByWords(base, from: offset, count: count)
    }

    /// `skipPlainASCII` eight bytes at a time: the whole scan where there is no SSE2, and the
    /// last bytes of a buffer where there is. (Not private: a test holds the two to the same
    /// answers.)
    @inlinable @inline(__always)
    static func skipPlainASCIIByWords(_ base: UnsafePointer<UInt8>, from offset: Int, count: Int) -> Int {
        var offset = offset
        while offset &+ 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
            let flags = attentionFlags(word)
            if flags != 0 { return offset &+ flags.trailingZeroBitCount &>> 3 }  // the lowest flag is exact
            offset &+= 8
        }
        return offset
    }

    #if arch(x86_64) && canImport(_Builtin_intrinsics.intel) && !REWIND_WORD_SCAN
        /// One bit for each of the 16 bytes at `bytes` that is `"`, `\`, below 0x20 or above
        /// 0x7F, bit 0 for the first byte. Every bit is exact.
        @inlinable @inline(__always)
        static func attentionMask16(_ bytes: UnsafePointer<UInt8>) -> UInt32 {
            let block = _mm_loadu_si128(UnsafeRawPointer(bytes).assumingMemoryBound(to: __m128i.self))
            let quotes = _mm_cmpeq_epi8(block, _mm_set1_epi8(0x22))
            let backslashes = _mm_cmpeq_epi8(block, _mm_set1_epi8(0x5C))
            // Signed: the control bytes, and 0x80-0xFF as negative numbers.
            let others = _mm_cmplt_epi8(block, _mm_set1_epi8(0x20))
            return UInt32(
                truncatingIfNeeded: _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quotes, backslashes), others)))
        }
    #endif

    /// The high bit of each byte of `word` (little-endian) that is `"`, `\`, below 0x20 or above
    /// 0x7F. Bytes above the lowest flagged one may be flagged wrongly (borrows), the lowest one
    /// never is: only its position is used.
    @inlinable @inline(__always)
    public static func attentionFlags(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let hasQuote = (quotes &- ones) & ~quotes
        let hasBackslash = (backslashes &- ones) & ~backslashes
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl | word) & highBits
    }
}
