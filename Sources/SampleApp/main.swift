// sample-app: a terminal shop built the way the state-container talks build iOS apps, recorded
// by Rewind. All of the app is in the other files; this one only runs it.

@_spi(RewindInternals) internal import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// A closed pipe (`sample-app record happy-path | head`) must end writes with an error, which
// the recorder reports, instead of killing the process.
signal(SIGPIPE, SIG_IGN)
// The arguments as given: a file name that is not UTF-8 is kept, byte for byte (`PathName`).
// The shop's wishlist is an `@Observable` model, as a SwiftUI app writes one: Observation needs
// macOS 14. The libraries themselves support macOS 13 (a `Store` is watched with `subscribe`).
if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
    exit(SampleAppCLI.run(PathName.arguments(), console: .standard()))
} else {
    let message = "sample-app: needs macOS 14 or later (its wishlist is an @Observable model)\n"
    _ = message.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    exit(1)
}
