#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A condition variable (`pthread_cond_t`) for threads that wait, holding a `Lock`, until
/// another thread changes the value it guards. Like `Lock`, visible to Thread Sanitizer.
@_spi(RewindInternals) public final class LockCondition: @unchecked Sendable {
    // @unchecked: the condition lives behind a pointer and is used only through pthread calls,
    // which are thread-safe.
    @usableFromInline let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        condition = .allocate(capacity: 1)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Wakes every thread waiting on the condition.
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }
}

extension Lock where Value: ~Copyable {
    /// Runs `body` with the value, holding the lock, once `isReady` says so: until then the thread
    /// waits on `condition` (without the lock) for a `broadcast`, and asks `isReady` again.
    /// `isReady` runs under the lock, at least once.
    ///
    /// Each check is a call of its own, with the value read anew: the value may change while
    /// the thread waits, which an access held across the wait would not see.
    @inlinable
    public func withLock<Result>(
        waitingOn condition: LockCondition, until isReady: (inout Value) -> Bool, _ body: (inout Value) -> Result
    ) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !isReady(&value.pointee) { pthread_cond_wait(condition.condition, mutex) }
        return body(&value.pointee)
    }
}
