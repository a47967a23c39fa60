@_spi(RewindInternals) import RewindSupport
import Testing

/// `ByteHash` keys the name tables of the validator and the index, and the encoder's memo: every
/// byte of a name must count, and the low bits (a table's slot) must spread.
@Suite struct ByteHashTests {
    @Test func everyByteAndTheLengthChangeTheHash() {
        for count in 0...40 {
            let name = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 65) }
            let original = Self.hash(name)
            for position in 0..<count {
                var changed = name
                changed[position] ^= 0x01
                #expect(Self.hash(changed) != original, "count \(count), byte \(position)")
            }
            // The same bytes with one more zero byte.
            #expect(Self.hash(name + [0]) != original, "count \(count)")
            #expect(Self.hash(name, seed: 1) != original, "count \(count)")
        }
    }

    @Test func theLowBitsSpreadNamesOverTheSlots() {
        var slots = [Int](repeating: 0, count: 64)
        for index in 0..<6400 {
            slots[Int(truncatingIfNeeded: Self.hash(Array("Store\(index)".utf8))) & 63] += 1
        }
        // 100 per slot on average; a hash that ignored a byte would pile them up.
        #expect(slots.min()! > 50 && slots.max()! < 150, "\(slots)")
    }

    private static func hash(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { ByteHash.hash($0, seed: seed) }
    }
}
