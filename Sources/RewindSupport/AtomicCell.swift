#if canImport(Synchronization)
    import Synchronization
#endif

/// A word that threads read and change without a lock: a flag, a counter, a bit set.
///
/// `Synchronization.Atomic` needs iOS 18, macOS 15, tvOS 18, watchOS 11 or visionOS 2, and
/// Rewind goes into apps that support iOS 16 and macOS 13. So a cell is an `Atomic<Int>` where
/// the system has it (and always on Linux, where the check costs nothing), and before that a
/// word changed only by compare-and-exchange (`AtomicFallback`), which every system has and
/// which stays lock-free: a signal handler may use a cell (`RawTerminal` does).
///
/// A class, because a cell is shared: every thread that holds it reaches the same word. The word
/// lives in memory of its own, allocated once, so that it never moves while threads use it.
@_spi(RewindInternals) public final class AtomicCell<Value: AtomicCellValue>: @unchecked Sendable {
    // @unchecked: `word` is only read and written through atomic operations.
    @usableFromInline let word: UnsafeMutableRawPointer

    /// A cell holding `value`.
    public init(_ value: Value) {
        word = .allocate(byteCount: MemoryLayout<Int>.size, alignment: MemoryLayout<Int>.alignment)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            Self.atomic(word).initialize(to: Atomic<Int>(value.atomicBits))
        } else {
            word.initializeMemory(as: Int.self, to: value.atomicBits)
        }
    }

    deinit {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            Self.atomic(word).deinitialize(count: 1)
        }
        word.deallocate()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @inlinable @inline(__always)
    static func atomic(_ word: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Atomic<Int>> {
        UnsafeMutablePointer<Atomic<Int>>(OpaquePointer(word))
    }

    /// The value now.
    @inlinable @inline(__always)
    public func load(ordering: AtomicCellOrdering) -> Value {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            let atomic = Self.atomic(word)
            let bits =
                switch ordering {
                case .relaxed: atomic.pointee.load(ordering: .relaxed)
                case .acquiring, .acquiringAndReleasing: atomic.pointee.load(ordering: .acquiring)
                case .releasing, .sequentiallyConsistent: atomic.pointee.load(ordering: .sequentiallyConsistent)
                }
            return Value(atomicBits: bits)
        }
        return Value(atomicBits: AtomicFallback.load(word))
    }

    /// Sets the value.
    @inlinable @inline(__always)
    public func store(_ value: Value, ordering: AtomicCellOrdering) {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            let atomic = Self.atomic(word)
            switch ordering {
            case .relaxed: atomic.pointee.store(value.atomicBits, ordering: .relaxed)
            case .releasing, .acquiringAndReleasing: atomic.pointee.store(value.atomicBits, ordering: .releasing)
            case .acquiring, .sequentiallyConsistent:
                atomic.pointee.store(value.atomicBits, ordering: .sequentiallyConsistent)
            }
            return
        }
        _ = AtomicFallback.update(word) { _ in value.atomicBits }
    }

    /// Sets the value and returns the one it replaced.
    @inlinable @inline(__always) @discardableResult
    public func exchange(_ value: Value, ordering: AtomicCellOrdering) -> Value {
        Value(atomicBits: update(ordering) { _ in value.atomicBits })
    }

    /// Sets the value to `desired` if it is `expected`; returns whether it did and the value
    /// that was there.
    @inlinable @inline(__always)
    public func compareExchange(expected: Value, desired: Value, ordering: AtomicCellOrdering)
        -> (exchanged: Bool, original: Value)
    {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            let atomic = Self.atomic(word)
            let (exchanged, original) =
                switch ordering {
                case .relaxed:
                    atomic.pointee.compareExchange(
                        expected: expected.atomicBits, desired: desired.atomicBits, ordering: .relaxed)
                case .acquiring:
                    atomic.pointee.compareExchange(
                        expected: expected.atomicBits, desired: desired.atomicBits, ordering: .acquiring)
                case .releasing:
                    atomic.pointee.compareExchange(
                        expected: expected.atomicBits, desired: desired.atomicBits, ordering: .releasing)
                case .acquiringAndReleasing:
                    atomic.pointee.compareExchange(
                        expected: expected.atomicBits, desired: desired.atomicBits, ordering: .acquiringAndReleasing)
                case .sequentiallyConsistent:
                    atomic.pointee.compareExchange(
                        expected: expected.atomicBits, desired: desired.atomicBits, ordering: .sequentiallyConsistent)
                }
            return (exchanged, Value(atomicBits: original))
        }
        let (exchanged, original) = AtomicFallback.compareExchange(
            word, expected: expected.atomicBits, desired: desired.atomicBits)
        return (exchanged, Value(atomicBits: original))
    }

    /// Replaces the value with `change` of it and returns the value it replaced: the read and
    /// the write are one atomic step (a compare-and-exchange loop, or the processor's own
    /// instruction where `Atomic` has one).
    @inlinable @inline(__always)
    func update(_ ordering: AtomicCellOrdering, _ change: (Int) -> Int) -> Int {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            let atomic = Self.atomic(word)
            var old = atomic.pointee.load(ordering: .relaxed)
            while true {
                let (exchanged, original) =
                    switch ordering {
                    case .relaxed:
                        atomic.pointee.weakCompareExchange(expected: old, desired: change(old), ordering: .relaxed)
                    case .acquiring:
                        atomic.pointee.weakCompareExchange(expected: old, desired: change(old), ordering: .acquiring)
                    case .releasing:
                        atomic.pointee.weakCompareExchange(expected: old, desired: change(old), ordering: .releasing)
                    case .acquiringAndReleasing:
                        atomic.pointee.weakCompareExchange(
                            expected: old, desired: change(old), ordering: .acquiringAndReleasing)
                    case .sequentiallyConsistent:
                        atomic.pointee.weakCompareExchange(
                            expected: old, desired: change(old), ordering: .sequentiallyConsistent)
                    }
                if exchanged { return old }
                old = original
            }
        }
        return AtomicFallback.update(word, change)
    }
}

extension AtomicCell where Value: FixedWidthInteger {
    /// Adds `operand` (wrapping) and returns the values before and after.
    @inlinable @inline(__always) @discardableResult
    public func add(_ operand: Value, ordering: AtomicCellOrdering) -> (oldValue: Value, newValue: Value) {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            let atomic = Self.atomic(word)
            let bits = operand.atomicBits
            let old =
                switch ordering {
                case .relaxed: atomic.pointee.wrappingAdd(bits, ordering: .relaxed).oldValue
                case .acquiring: atomic.pointee.wrappingAdd(bits, ordering: .acquiring).oldValue
                case .releasing: atomic.pointee.wrappingAdd(bits, ordering: .releasing).oldValue
                case .acquiringAndReleasing: atomic.pointee.wrappingAdd(bits, ordering: .acquiringAndReleasing).oldValue
                case .sequentiallyConsistent:
                    atomic.pointee.wrappingAdd(bits, ordering: .sequentiallyConsistent).oldValue
                }
            let oldValue = Value(atomicBits: old)
            return (oldValue, oldValue &+ operand)
        }
        let oldValue = Value(atomicBits: AtomicFallback.update(word) { $0 &+ operand.atomicBits })
        return (oldValue, oldValue &+ operand)
    }

    /// Sets the bits of `operand` and returns the values before and after.
    @inlinable @inline(__always) @discardableResult
    public func bitwiseOr(_ operand: Value, ordering: AtomicCellOrdering) -> (oldValue: Value, newValue: Value) {
        let oldValue = Value(atomicBits: update(ordering) { $0 | operand.atomicBits })
        return (oldValue, oldValue | operand)
    }

    /// Keeps only the bits of `operand` and returns the values before and after.
    @inlinable @inline(__always) @discardableResult
    public func bitwiseAnd(_ operand: Value, ordering: AtomicCellOrdering) -> (oldValue: Value, newValue: Value) {
        let oldValue = Value(atomicBits: update(ordering) { $0 & operand.atomicBits })
        return (oldValue, oldValue & operand)
    }
}

/// How an operation on an `AtomicCell` orders the memory accesses around it, as
/// `Synchronization`'s orderings do (a load that is asked to release, or a store to acquire,
/// is sequentially consistent).
@_spi(RewindInternals) public enum AtomicCellOrdering: Sendable {
    case relaxed, acquiring, releasing, acquiringAndReleasing, sequentiallyConsistent
}

/// A value that an `AtomicCell` holds: one that fits in a word.
@_spi(RewindInternals) public protocol AtomicCellValue {
    /// The value from the bits of a word.
    init(atomicBits: Int)
    /// The value as the bits of a word.
    var atomicBits: Int { get }
}

@_spi(RewindInternals) extension Int: AtomicCellValue {
    @inlinable public init(atomicBits: Int) { self = atomicBits }
    @inlinable public var atomicBits: Int { self }
}

@_spi(RewindInternals) extension UInt: AtomicCellValue {
    @inlinable public init(atomicBits: Int) { self = UInt(bitPattern: atomicBits) }
    @inlinable public var atomicBits: Int { Int(bitPattern: self) }
}

@_spi(RewindInternals) extension Bool: AtomicCellValue {
    @inlinable public init(atomicBits: Int) { self = atomicBits != 0 }
    @inlinable public var atomicBits: Int { self ? 1 : 0 }
}
