import Testing

@testable import ToolSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct PipeBufferTests {
    #if os(Linux)
        /// A command's standard output, when it is a pipe, holds 1 MB before the command waits
        /// for its reader (`log` of a large trace into `grep`).
        @Test func aPipeGrowsToAMegabyte() throws {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            defer {
                close(ends[0])
                close(ends[1])
            }
            let before = try #require(PipeBuffer.size(ends[1]))
            #expect(before < PipeBuffer.grownSize)
            PipeBuffer.grow(ends[1])
            #expect(PipeBuffer.size(ends[1]) == PipeBuffer.grownSize)
            #expect(PipeBuffer.size(ends[0]) == PipeBuffer.grownSize)  // one buffer, both ends
        }

        /// A descriptor that is not a pipe is left alone.
        @Test func aFileIsLeftAlone() throws {
            let descriptor = open("/dev/null", O_WRONLY)
            #expect(descriptor >= 0)
            defer { close(descriptor) }
            PipeBuffer.grow(descriptor)
            #expect(PipeBuffer.size(descriptor) == nil)
        }
    #endif
}
