#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call: the system's error number, and its description.
@_spi(RewindInternals) public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `errno` value.
    public var code: Int32

    public init(code: Int32) {
        self.code = code
    }

    /// The system's description: "No such file or directory".
    public var reason: String { String(cString: strerror(code)) }

    public var description: String { reason }
}
