#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call: the system's error number, and its description.
package struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `errno` value.
    package var code: Int32

    package init(code: Int32) {
        self.code = code
    }

    /// The system's description: "No such file or directory".
    package var reason: String { String(cString: strerror(code)) }

    package var description: String { reason }
}
