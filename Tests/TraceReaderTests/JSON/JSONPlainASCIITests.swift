import TestSupport
import Testing

@_spi(RewindInternals) @testable import TraceJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The runs of plain ASCII a string scan passes (`JSONScanner+PlainASCII.swift`): sixteen bytes
/// at a time with SSE2 on x86-64, eight elsewhere. Both must stop at exactly the byte a
/// byte-by-byte reading stops at, from any start, at any distance from the end, and never read a
/// byte at or past `count`: the bytes here end where a page ends, before a page that cannot be
/// read, so a read past them stops the test process.
@Suite struct JSONPlainASCIITests {
    /// Bytes of every class the runs tell apart, plain ones most often (so runs get long).
    private static let alphabet: [UInt8] =
        Array(repeating: UInt8(ascii: "a"), count: 24) + Array(repeating: UInt8(ascii: "7"), count: 24) + [
            UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x00, 0x0A, 0x1F, 0x20, 0x2F, 0x30, 0x39, 0x3A, 0x7E, 0x7F, 0x80,
            0xC3, 0xFF, UInt8(ascii: "{"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "e"),
        ]

    /// Calls `body` with `bytes` copied to the end of a readable page that a page without access
    /// follows.
    private func withGuardedCopy(of bytes: [UInt8], _ body: (UnsafePointer<UInt8>) -> Void) throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let length = (bytes.count / page + 2) * page
        let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        let memory = try #require(mapped == MAP_FAILED ? nil : mapped)
        defer { munmap(memory, length) }
        try #require(mprotect(memory + (length - page), page, PROT_NONE) == 0)
        let start = (memory + (length - page - bytes.count)).assumingMemoryBound(to: UInt8.self)
        start.update(from: bytes, count: bytes.count)
        body(start)
    }

    /// Where a byte-by-byte reading stops a plain ASCII run: at the first byte that needs a look,
    /// or where fewer than eight bytes are left with none (the contract's word-sized tail).
    private func plainEnd(_ bytes: [UInt8], from offset: Int) -> Int {
        for index in offset..<bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 {
                // Found by a vector or a word either way, unless it lies in the last bytes that no
                // whole word covers from `offset`.
                let wholeWords = offset + (bytes.count - offset) / 8 * 8
                return index < wholeWords ? index : wholeWords
            }
        }
        return offset + (bytes.count - offset) / 8 * 8
    }

    @Test(arguments: 0..<40)
    func plainASCIIRunsEndWhereAByteByByteReadingEnds(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed))
        for length in [0, 1, 7, 8, 15, 16, 17, 31, 33, 64, 100] {
            let bytes = (0..<length).map { _ in Self.alphabet[Int(random.next() % UInt64(Self.alphabet.count))] }
            try withGuardedCopy(of: bytes) { base in
                for offset in 0...length {
                    let expected = plainEnd(bytes, from: offset)
                    #expect(JSONScanner.skipPlainASCII(base, from: offset, count: length) == expected)
                    #expect(JSONScanner.skipPlainASCIIByWords(base, from: offset, count: length) == expected)
                }
            }
        }
    }

    @Test func everyByteValueIsClassedAsTheRulesSay() throws {
        // Each value alone in a run of plain bytes, at each position of a 16-byte block: only
        // `"`, `\`, the control bytes and the bytes from 0x80 stop the run (0x7F does not).
        for value in 0...255 {
            let byte = UInt8(value)
            for position in 0..<16 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 32)
                bytes[position] = byte
                let needsLook = byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80
                try withGuardedCopy(of: bytes) { base in
                    #expect(JSONScanner.skipPlainASCII(base, from: 0, count: 32) == (needsLook ? position : 32))
                }
            }
        }
    }
}
