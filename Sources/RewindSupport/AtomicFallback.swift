/// Atomic operations on a word for systems without `Synchronization.Atomic` (before iOS 18 and
/// macOS 15), built on the one compare-and-exchange the standard library inlines into every
/// client whatever its deployment target (`_stdlib_atomicCompareExchangeStrongPtr`, sequentially
/// consistent). Lock-free, so safe in a signal handler; each operation is one locked instruction
/// or a loop of them, a few nanoseconds more than `Atomic`'s plain loads and stores.
///
/// `AtomicCell` uses these only where `Atomic` is missing; the tests call them directly, so that
/// they run on Linux too.
@_spi(RewindInternals) public enum AtomicFallback {
    @inlinable @inline(__always)
    static func pointer(_ word: UnsafeMutableRawPointer) -> UnsafeMutablePointer<UnsafeRawPointer?> {
        word.assumingMemoryBound(to: UnsafeRawPointer?.self)
    }

    /// Sets the word to `desired` if it holds `expected`; returns whether it did and what it held.
    @inlinable @inline(__always)
    public static func compareExchange(_ word: UnsafeMutableRawPointer, expected: Int, desired: Int)
        -> (exchanged: Bool, original: Int)
    {
        var seen = UnsafeRawPointer(bitPattern: expected)
        let exchanged = _stdlib_atomicCompareExchangeStrongPtr(
            object: pointer(word), expected: &seen, desired: UnsafeRawPointer(bitPattern: desired))
        return (exchanged, Int(bitPattern: seen))
    }

    /// The word now: an exchange of 0 for 0, which fails and reports the word unless it is 0.
    @inlinable @inline(__always)
    public static func load(_ word: UnsafeMutableRawPointer) -> Int {
        compareExchange(word, expected: 0, desired: 0).original
    }

    /// Replaces the word with `change` of it, in one atomic step; returns what it held.
    @inlinable @inline(__always) @discardableResult
    public static func update(_ word: UnsafeMutableRawPointer, _ change: (Int) -> Int) -> Int {
        var old = load(word)
        while true {
            let (exchanged, original) = compareExchange(word, expected: old, desired: change(old))
            if exchanged { return old }
            old = original
        }
    }
}
