/// The keys whose values the encoder writes as `"<redacted>"`, with a test that rules out most
/// keys by their length alone, before any hashing.
///
/// `Set<String>` compares strings by canonical equivalence, so a key can equal a redacted key
/// with a different UTF-8 length (`"\u{212A}ey"` is `"Key"`). The length test is therefore only
/// trusted when both sides are ASCII: every redacted key (checked here, once) and the key asked
/// about. Two ASCII strings are equal exactly when their bytes are, so different lengths rule
/// the key out; anything else goes to the set.
struct Redaction {
    let keys: Set<String>
    /// `!keys.isEmpty`, kept apart so the common case reads no set.
    let isActive: Bool
    /// Bit n is set when a redacted key has n UTF-8 bytes (bit 63: 63 or more). All bits are set
    /// when a redacted key is not ASCII, which turns the length test off.
    private let lengths: UInt64

    init(_ keys: Set<String>) {
        self.keys = keys
        isActive = !keys.isEmpty
        var lengths: UInt64 = 0
        for key in keys {
            if key.utf8.contains(where: { $0 >= 0x80 }) {
                lengths = .max
                break
            }
            lengths |= 1 &<< UInt64(Swift.min(key.utf8.count, 63))
        }
        self.lengths = lengths
    }

    /// Whether `key`'s value is redacted. Call only when `isActive`.
    @inline(__always)
    func covers(_ key: String) -> Bool {
        let utf8 = key.utf8
        if lengths & (1 &<< UInt64(Swift.min(utf8.count, 63))) == 0 && !utf8.contains(where: { $0 >= 0x80 }) {
            return false
        }
        return keys.contains(key)
    }
}
