@_spi(RewindInternals) internal import RewindSupport

/// The hash of a JSON value in a `JSONText`, in agreement with the sameness the diff uses
/// (`JSONTextReader.equal`): values that are the same data have the same hash, however they
/// are written. Numbers hash by their exact decimal value (`1`, `1.0`, `1e0`, `-0` and `0`
/// alike), strings and names by their text as WTF-8 (a lone surrogate as itself), arrays by
/// their elements in order, objects by their visible members in any order (each member's hash
/// is mixed from its name and value, and the results are added, which commutes).
///
/// Containers get their hash once, when the text is indexed (`JSONTextIndexer`), bottom up;
/// leaves when asked. Not for adversarial input: a collision costs a comparison, never a
/// wrong answer, since every equal hash is checked by `equal`.
enum JSONTextHashing {
    /// Spreads every bit of `value` over the whole word (the finalizer of MurmurHash3).
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var hash = value
        hash ^= hash &>> 33
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash &>> 33
        hash = hash &* 0xC4CE_B9FE_1A85_EC53
        hash ^= hash &>> 33
        return hash
    }

    static let null: UInt64 = 0x6E75_6C6C_0000_0001
    static let `false`: UInt64 = 0x6661_6C73_0000_0002
    static let `true`: UInt64 = 0x7472_7565_0000_0003

    /// A string's or a name's hash, from its WTF-8 text.
    @inline(__always)
    static func string(wtf8 text: UnsafeRawBufferPointer) -> UInt64 {
        ByteHash.hash(text, seed: 0x7374_7269_6E67)
    }

    /// A number's hash, from its canonical form (see `JSONNumberText.canonical`).
    @inline(__always)
    static func number(digits: UnsafeRawBufferPointer, isNegative: Bool, exponent: Int) -> UInt64 {
        ByteHash.hash(digits, seed: UInt64(bitPattern: Int64(exponent)) &* 0x9E37_79B9_7F4A_7C15 ^ (isNegative ? 1 : 2))
    }

    /// The running hash of an array before its first element.
    static let arraySeed: UInt64 = 0x6172_7261_7900_0000

    /// The running hash of an array after one more element.
    @inline(__always)
    static func array(_ running: UInt64, then element: UInt64) -> UInt64 {
        mix((running ^ element) &* 0xFF51_AFD7_ED55_8CCD &+ 0x632B_E59B_D9B4_E019)
    }

    /// An array's hash from its running hash and its number of elements.
    @inline(__always)
    static func array(_ running: UInt64, count: Int) -> UInt64 {
        mix(running ^ UInt64(truncatingIfNeeded: count) &* 0xC4CE_B9FE_1A85_EC53)
    }

    /// One member's share of its object's hash.
    @inline(__always)
    static func member(name: UInt64, value: UInt64) -> UInt64 {
        mix(name &* 0x9E37_79B9_7F4A_7C15 ^ value)
    }

    /// An object's hash from the sum of its visible members' shares and their number.
    @inline(__always)
    static func object(sum: UInt64, count: Int) -> UInt64 {
        mix(sum ^ UInt64(truncatingIfNeeded: count) &* 0xD6E8_FEB8_6659_FD93 ^ 0x6F62_6A65_6374)
    }
}
