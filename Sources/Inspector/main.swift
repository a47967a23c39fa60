#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let console = Console.standard()
let status = Inspector.run(Array(CommandLine.arguments.dropFirst()), console: console)
console.out.flush()
exit(status)
