/// Which of the containers open at each depth is an object (the others are arrays): one bit per
/// depth, for `JSONParser.maximumDepth` depths, kept on the stack by the walker that replaces
/// recursion (`JSONScanner.scanValue`).
///
/// The innermost 64 depths are one word, a shift register with the innermost in bit 0, which
/// the optimizer keeps in a register: opening a container is a shift and an or, closing one a
/// shift. Only when a container opens 64 deeper than the last spill is the word stored, in one
/// of fifteen more words in a tuple (`InlineArray` needs iOS 26 and macOS 26), reached through a
/// pointer to this value's own storage; closing it loads the word back.
@usableFromInline struct JSONContainerKinds {
    /// The kinds of the open containers at depths below the innermost multiple of 64.
    @usableFromInline var spilled:
        (
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
        )
    /// The kinds of the innermost open containers (up to 64), the innermost in bit 0.
    @usableFromInline var recent: UInt64

    /// No container open.
    @inlinable init() {
        spilled = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        recent = 0
    }

    /// How many depths it holds: 64 in `recent`, 64 in each spilled word.
    @usableFromInline static let capacity = 16 * 64

    /// A container opens at `depth` (the number of containers open around it).
    @inlinable @inline(__always)
    mutating func push(isObject: Bool, at depth: Int) {
        assert(depth >= 0 && depth < Self.capacity)
        if depth & 63 == 0 && depth > 0 {
            withUnsafeMutableBytes(of: &spilled) {
                $0.storeBytes(of: recent, toByteOffset: ((depth &>> 6) &- 1) &* 8, as: UInt64.self)
            }
            recent = 0
        }
        recent = recent &<< 1 | (isObject ? 1 : 0)
    }

    /// The container at `depth` closes; returns whether the one around it, now the innermost,
    /// is an object (false when none is left).
    @inlinable @inline(__always)
    mutating func pop(at depth: Int) -> Bool {
        assert(depth >= 0 && depth < Self.capacity)
        recent &>>= 1
        if depth & 63 == 0 && depth > 0 {
            recent = withUnsafeMutableBytes(of: &spilled) {
                $0.load(fromByteOffset: ((depth &>> 6) &- 1) &* 8, as: UInt64.self)
            }
        }
        return recent & 1 != 0
    }
}
