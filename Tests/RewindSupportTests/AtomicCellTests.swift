import Dispatch
@_spi(RewindInternals) import RewindSupport
import Testing

/// `AtomicCell` is `Synchronization.Atomic` where the system has it and the compare-and-exchange
/// fallback before iOS 18 and macOS 15. Linux always takes the first path, so the fallback's
/// operations are tested here directly, on a word of their own, with threads racing on them.
@Suite struct AtomicCellTests {
    @Test func aCellLoadsStoresAndExchanges() {
        let cell = AtomicCell<Int>(5)
        #expect(cell.load(ordering: .relaxed) == 5)
        cell.store(-9, ordering: .releasing)
        #expect(cell.load(ordering: .acquiring) == -9)
        #expect(cell.exchange(3, ordering: .sequentiallyConsistent) == -9)
        #expect(cell.compareExchange(expected: 4, desired: 8, ordering: .acquiring) == (false, 3))
        #expect(cell.compareExchange(expected: 3, desired: 8, ordering: .acquiring) == (true, 3))
        #expect(cell.add(2, ordering: .relaxed) == (8, 10))
        #expect(cell.bitwiseOr(0b101, ordering: .releasing) == (10, 15))
        #expect(cell.bitwiseAnd(0b110, ordering: .relaxed) == (15, 6))

        let flag = AtomicCell<Bool>(false)
        #expect(!flag.exchange(true, ordering: .sequentiallyConsistent))
        #expect(flag.load(ordering: .relaxed))
        let bits = AtomicCell<UInt>(.max)
        #expect(bits.add(1, ordering: .relaxed) == (.max, 0))
        #expect(bits.bitwiseOr(1 << (UInt.bitWidth - 1), ordering: .relaxed).newValue == 1 << (UInt.bitWidth - 1))
    }

    @Test func threadsAddingToACellLoseNoAddition() {
        let cell = AtomicCell<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<20_000 { cell.add(1, ordering: .relaxed) }
        }
        #expect(cell.load(ordering: .sequentiallyConsistent) == 160_000)
    }

    @Test func theFallbackCompareExchangesAndReportsWhatItSaw() {
        withWord(7) { word in
            #expect(AtomicFallback.load(word) == 7)
            #expect(AtomicFallback.compareExchange(word, expected: 6, desired: 1) == (false, 7))
            #expect(AtomicFallback.load(word) == 7)
            #expect(AtomicFallback.compareExchange(word, expected: 7, desired: -1) == (true, 7))
            #expect(AtomicFallback.load(word) == -1)
            #expect(AtomicFallback.update(word) { $0 &+ 2 } == -1)
            #expect(AtomicFallback.load(word) == 1)
        }
        // A word of 0 loads as 0 (the load is an exchange of 0 for 0).
        withWord(0) { word in #expect(AtomicFallback.load(word) == 0) }
    }

    @Test func threadsUpdatingTheFallbackLoseNoUpdate() {
        withWord(0) { word in
            let shared = SharedWord(word: word)
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for _ in 0..<20_000 { AtomicFallback.update(shared.word) { $0 &+ 1 } }
                // Each thread sets its own bit; none is lost to another thread's update.
                AtomicFallback.update(shared.word) { $0 | (1 << (40 + thread)) }
            }
            #expect(AtomicFallback.load(word) & 0xFF_FFFF == 160_000)
            #expect(AtomicFallback.load(word) >> 40 == 0xFF)
        }
    }

    private func withWord(_ value: Int, _ body: (UnsafeMutableRawPointer) -> Void) {
        let word = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
        word.storeBytes(of: value, as: Int.self)
        body(word)
        word.deallocate()
    }

    private struct SharedWord: @unchecked Sendable {
        // @unchecked: the word is only touched through AtomicFallback's atomic operations.
        let word: UnsafeMutableRawPointer
    }
}
