/// Which of the containers open at each depth is an object (the others are arrays): one bit per
/// depth, for `JSONParser.maximumDepth` depths, kept on the stack by the walker that replaces
/// recursion (`JSONScanner.scanValue`).
///
/// Sixteen words in a tuple, since `InlineArray` needs iOS 26 and macOS 26; an access reaches
/// them through a pointer to this value's own storage, which the optimizer turns into a plain
/// load or store.
@usableFromInline struct JSONContainerKinds {
    @usableFromInline var words:
        (
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
        )

    /// All arrays.
    @inlinable init() {
        words = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }

    /// How many depths it holds.
    @usableFromInline static let capacity = 16 * 64

    /// Whether the container at `depth` is an object.
    @inlinable @inline(__always)
    subscript(depth: Int) -> Bool {
        // A mutating get: `withUnsafeBytes(of: words)` copied all 128 bytes on every read
        // (eight 16-byte loads and stores, after every value of the walk); through `&words`
        // the read is one load.
        mutating get {
            assert(depth >= 0 && depth < Self.capacity)
            return withUnsafeMutableBytes(of: &words) {
                ($0.load(fromByteOffset: (depth &>> 6) &* 8, as: UInt64.self) &>> UInt64(depth & 63)) & 1 != 0
            }
        }
        set {
            assert(depth >= 0 && depth < Self.capacity)
            withUnsafeMutableBytes(of: &words) {
                let offset = (depth &>> 6) &* 8
                let bit: UInt64 = 1 &<< UInt64(depth & 63)
                let word = $0.load(fromByteOffset: offset, as: UInt64.self)
                $0.storeBytes(of: newValue ? word | bit : word & ~bit, toByteOffset: offset, as: UInt64.self)
            }
        }
    }
}
