/// The answers a `RedactionMatcher` gave, by key: what makes redaction nearly free when the keys
/// recur, as a state's keys do at every action (its `CodingKeys`).
///
/// Checking a key against the rules scans it once per rule (ten part-of-key rules by default,
/// `Redaction.sensitiveKeys`); the cache answers a key seen before with two words compared. A key
/// of at most 16 bytes is known exactly by its length and its first and last eight bytes (the two
/// windows cover it); a longer one is kept whole and compared byte by byte. 256 slots, each key in
/// the one its bytes hash to; a key whose slot holds another replaces it.
///
/// A class because it is a memo that one encoding context owns and changes while its state is
/// immutable; used only under the lock of the store or recorder that encodes, like the rest of
/// the context.
final class RedactionCache {
    private struct Entry {
        var count = -1
        var head: UInt64 = 0
        var tail: UInt64 = 0
        var long: [UInt8] = []
        var covered = false
    }

    private var entries = [Entry](repeating: Entry(), count: 256)

    /// The answer for the key whose UTF-8 is `bytes`: the cached one, or `decide`'s, remembered.
    @inline(__always)
    func covers(_ bytes: UnsafeBufferPointer<UInt8>, decide: () -> Bool) -> Bool {
        let (head, tail) = Self.windows(bytes)
        let count = bytes.count
        let mixed = (head &* 0x9E37_79B9_7F4A_7C15) ^ (tail &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)
        let slot = Int(truncatingIfNeeded: mixed >> 56)
        return entries.withUnsafeMutableBufferPointer { entries in
            let entry = entries[slot]
            if entry.count == count && entry.head == head && entry.tail == tail
                && (count <= 16 || entry.long.elementsEqual(bytes))
            {
                return entry.covered
            }
            let covered = decide()
            entries[slot] = Entry(
                count: count, head: head, tail: tail, long: count <= 16 ? [] : Array(bytes), covered: covered)
            return covered
        }
    }

    /// The first and the last eight bytes (zero-padded when there are fewer than eight).
    @inline(__always)
    private static func windows(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        guard let base = bytes.baseAddress else { return (0, 0) }
        let count = bytes.count
        if count >= 8 {
            let raw = UnsafeRawPointer(base)
            return (
                raw.loadUnaligned(as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            )
        }
        var head: UInt64 = 0
        for index in 0..<count { head |= UInt64(base[index]) &<< UInt64(8 &* index) }
        return (head, 0)
    }
}
