#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a mutex: the one lock the library uses for shared mutable state.
///
/// It wraps a `pthread_mutex_t` rather than `Synchronization.Mutex` on purpose. On Linux,
/// `Mutex` locks with raw futex calls that Thread Sanitizer cannot see, so every section it
/// guards is reported as a data race (checked: two threads incrementing a `Mutex<Int>` give the
/// right total and six TSan reports). `.ci/run` runs the concurrency tests under TSan, so the
/// library's locks must be visible to it; a pthread mutex is, and costs about the same.
@_spi(RewindInternals) public final class Lock<Value: ~Copyable>: @unchecked Sendable {
    // @unchecked: `value` is only touched inside `withLock`, under `mutex`. Both live behind
    // pointers, not in stored `var`s, so an access pays no dynamic exclusivity check: the mutex
    // is what keeps accesses exclusive.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let value: UnsafeMutablePointer<Value>

    public init(_ value: consuming Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    @inlinable @inline(__always)
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }

    /// Runs `body` with the value without locking: only for the thread that holds the lock
    /// already (inside `withLock`), which would wait forever for it. Other threads wait for
    /// that lock before they touch the value, so this access is still exclusive.
    package func withLockHeldByCaller<Result>(_ body: (inout Value) -> Result) -> Result {
        body(&value.pointee)
    }
}
