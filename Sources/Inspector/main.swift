@_spi(RewindInternals) internal import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let console = Console.standard()
// The arguments as given: a file name that is not UTF-8 is kept, byte for byte (`PathName`).
let status = Inspector.run(PathName.arguments(), console: console)
console.out.flush()
exit(status)
