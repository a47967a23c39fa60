#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The calling thread's identity (`pthread_self`) as a number: never 0, and unique among the
/// threads alive now. Costs about a nanosecond, so a lock's owner can be checked on every use.
@inlinable @inline(__always)
package func currentThreadIdentity() -> UInt {
    #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
    #else
        UInt(pthread_self())
    #endif
}
