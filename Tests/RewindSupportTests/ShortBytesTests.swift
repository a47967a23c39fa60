import Foundation
@_spi(RewindInternals) import RewindSupport
import Testing

/// `ShortBytes.equal` replaces `memcmp` on the validator's and the index's per-line paths; it
/// must agree with it for every length it handles by words (0 to 32) and beyond.
@Suite struct ShortBytesTests {
    @Test(arguments: Array(0...40) + [63, 64, 65, 200])
    func agreesWithMemcmpWhereverTheBytesDiffer(count: Int) {
        // Offsets into a larger buffer, so that the loads are unaligned as they are in a line.
        var left = [UInt8](repeating: 0, count: count + 16)
        for index in left.indices { left[index] = UInt8(truncatingIfNeeded: index &* 37 &+ 11) }
        let right = left
        for shift in [0, 1, 3, 7] {
            left.withUnsafeBytes { a in
                right.withUnsafeBytes { b in
                    #expect(ShortBytes.equal(a.baseAddress! + shift, b.baseAddress! + shift, count: count))
                }
            }
            // One byte changed, at every position: the first, the last and each in between.
            for position in 0..<count {
                var changed = right
                changed[shift + position] ^= 0x40
                let same = left.withUnsafeBytes { a in
                    changed.withUnsafeBytes { b in
                        ShortBytes.equal(a.baseAddress! + shift, b.baseAddress! + shift, count: count)
                    }
                }
                #expect(!same, "count \(count), byte \(position), shift \(shift)")
            }
        }
    }

    @Test func comparesOnlyTheBytesItIsGiven() {
        // Equal in their first `count` bytes, different right after: still equal.
        let a = Array("transitionX".utf8)
        let b = Array("transitionY".utf8)
        for count in 0...10 {
            #expect(
                a.withUnsafeBytes { a in
                    b.withUnsafeBytes { b in ShortBytes.equal(a.baseAddress!, b.baseAddress!, count: count) }
                })
        }
        #expect(
            !a.withUnsafeBytes { a in
                b.withUnsafeBytes { b in ShortBytes.equal(a.baseAddress!, b.baseAddress!, count: 11) }
            })
    }
}
