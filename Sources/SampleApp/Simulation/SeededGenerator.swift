/// A small random number generator (SplitMix64) whose numbers depend only on its seed, so the
/// fake network behaves the same way on every run and every platform.
///
/// It is deliberately not a `RandomNumberGenerator`: `Int.random(in:using:)` would work on it,
/// but the standard library does not promise to keep that algorithm, and the recorded traces
/// must stay the same.
struct SeededGenerator: Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `range`, from the next value.
    mutating func next(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % width)
    }
}
