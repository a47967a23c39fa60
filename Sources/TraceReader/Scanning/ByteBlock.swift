#if arch(x86_64) && canImport(_Builtin_intrinsics)
    import _Builtin_intrinsics.intel
#endif

/// The classes of 64 bytes of JSON text, one bit per byte (bit `i` is byte `i`), found with
/// vector instructions: stage 1 of simdjson's design. On x86-64 it uses SSE2 (`pcmpeqb`, `pcmpgtb`,
/// `pmovmskb`, 16 bytes each) through the compiler's intrinsics module: Swift's `SIMD16<UInt8>`
/// comparisons compile to `pcmpeqb` only on a loaded value (on a computed one, such as `v | 0x20`,
/// they became a loop over the lanes), and Swift's SIMD types have no operation for `pmovmskb`.
/// The package is built for the x86-64 baseline, so AVX2 is not used. Other machines take a loop
/// over the bytes, with the same result.
struct ByteBlock {
    /// `"` bytes.
    var quotes: UInt64
    /// `\` bytes.
    var backslashes: UInt64
    /// `{`, `}`, `[`, `]`, `:` and `,`.
    var operators: UInt64
    /// Spaces (0x20).
    var spaces: UInt64
    /// Bytes below 0x20 (control bytes, tab, carriage return and newline included) or above 0x7F
    /// (non-ASCII, which needs UTF-8 checking): what the block scanner leaves to the byte scanner.
    var unusual: UInt64

    /// Classifies the 64 bytes at `bytes`.
    @inline(__always)
    init(_ bytes: UnsafeRawPointer) {
        #if arch(x86_64) && canImport(_Builtin_intrinsics)
            // SSE2 only (every x86-64 has it): the package is built for the baseline.
            let quote = _mm_set1_epi8(0x22)
            let backslash = _mm_set1_epi8(0x5C)
            let space = _mm_set1_epi8(0x20)
            let openers = _mm_set1_epi8(0x7B)  // `{`, and `[` with 0x20 set
            let closers = _mm_set1_epi8(0x7D)  // `}`, and `]` with 0x20 set
            let colon = _mm_set1_epi8(0x3A)
            let comma = _mm_set1_epi8(0x2C)
            var quotes: UInt64 = 0
            var backslashes: UInt64 = 0
            var operators: UInt64 = 0
            var spaces: UInt64 = 0
            var unusual: UInt64 = 0
            for lane in 0..<4 {
                let shift = UInt64(lane &* 16)
                let v = (bytes + lane &* 16).loadUnaligned(as: __m128i.self)
                let lowered = _mm_or_si128(v, space)
                let isOperator = _mm_or_si128(
                    _mm_or_si128(_mm_cmpeq_epi8(lowered, openers), _mm_cmpeq_epi8(lowered, closers)),
                    _mm_or_si128(_mm_cmpeq_epi8(v, colon), _mm_cmpeq_epi8(v, comma)))
                quotes |= Self.bits(_mm_cmpeq_epi8(v, quote)) &<< shift
                backslashes |= Self.bits(_mm_cmpeq_epi8(v, backslash)) &<< shift
                operators |= Self.bits(isOperator) &<< shift
                spaces |= Self.bits(_mm_cmpeq_epi8(v, space)) &<< shift
                // Signed: 0x80...0xFF are negative, so below 0x20 too.
                unusual |= Self.bits(_mm_cmplt_epi8(v, space)) &<< shift
            }
            self.quotes = quotes
            self.backslashes = backslashes
            self.operators = operators
            self.spaces = spaces
            self.unusual = unusual
        #else
            quotes = 0
            backslashes = 0
            operators = 0
            spaces = 0
            unusual = 0
            for index in 0..<64 {
                let byte = bytes.load(fromByteOffset: index, as: UInt8.self)
                let bit: UInt64 = 1 &<< UInt64(index)
                switch byte {
                case 0x22: quotes |= bit
                case 0x5C: backslashes |= bit
                case 0x7B, 0x7D, 0x5B, 0x5D, 0x3A, 0x2C: operators |= bit
                case 0x20: spaces |= bit
                case 0..<0x20, 0x80...0xFF: unusual |= bit
                default: break
                }
            }
        #endif
    }

    #if arch(x86_64) && canImport(_Builtin_intrinsics)
        /// The top bit of each of the 16 bytes (`pmovmskb`).
        @inline(__always)
        private static func bits(_ lanes: __m128i) -> UInt64 {
            UInt64(UInt16(truncatingIfNeeded: _mm_movemask_epi8(lanes)))
        }
    #endif

    /// Bit `i` set when an odd number of the bits `0...i` of `bits` are set: with `bits` the
    /// quotes, the bytes from each opening quote up to (not including) its closing quote.
    @inline(__always)
    static func prefixXOR(_ bits: UInt64) -> UInt64 {
        var value = bits
        value ^= value &<< 1
        value ^= value &<< 2
        value ^= value &<< 4
        value ^= value &<< 8
        value ^= value &<< 16
        value ^= value &<< 32
        return value
    }

    /// The bytes escaped by a backslash (the byte after each backslash that is not itself
    /// escaped), found for all 64 at once as simdjson's escape scanner finds them: subtracting the
    /// backslashes from their shifted selves with the odd bits set makes each run's carry stop at
    /// its end, marking it when the run is odd. `carry` is 1 when the previous block's last byte
    /// was an escaping backslash (so this block's first byte is escaped), and is set for the next.
    @inline(__always)
    static func escaped(_ backslashes: UInt64, carry: inout UInt64) -> UInt64 {
        guard backslashes != 0 else {
            let escaped = carry
            carry = 0
            return escaped
        }
        let oddBits: UInt64 = 0xAAAA_AAAA_AAAA_AAAA
        let potentialEscapes = backslashes & ~carry
        let maybeEscaped = potentialEscapes &<< 1
        let escapesAndTerminals = ((maybeEscaped | oddBits) &- potentialEscapes) ^ oddBits
        let escaped = escapesAndTerminals ^ (backslashes | carry)
        let escapes = escapesAndTerminals & backslashes
        carry = escapes &>> 63
        return escaped
    }
}
