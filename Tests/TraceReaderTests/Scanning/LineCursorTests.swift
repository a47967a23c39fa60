@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing

@testable import TraceReader

/// `ChunkReader` is the one reading loop of the trace readers; `LineCursor` gives its lines one
/// at a time (a comparison walks two traces side by side with it). Whatever the block size, a
/// file and the same bytes in memory must give every line once, in order, with its bytes, and a
/// line too long to keep as overlong.
@Suite struct LineCursorTests {
    /// A line as the cursor gives it: its bytes (nil when overlong) and whether it ends in `\n`.
    struct ReadLine: Equatable {
        var bytes: [UInt8]?
        var isTerminated: Bool
    }

    static let maximumLineLength = 40

    /// Random lines: empty, short, `\r\n`-ended, just under the limit, and far over it (over
    /// the limit and a block, so always overlong); the last one perhaps without `\n`.
    static func randomLines(using random: inout SeededGenerator, blockSize: Int) -> [[UInt8]] {
        (0..<Int.random(in: 1...30, using: &random)).map { _ in
            let length: Int
            switch Int.random(in: 0..<6, using: &random) {
            case 0: length = 0
            case 1: length = maximumLineLength
            case 2: length = maximumLineLength + blockSize + Int.random(in: 1...100, using: &random)
            default: length = Int.random(in: 1...20, using: &random)
            }
            var line = (0..<length).map { _ in UInt8.random(in: 0x61...0x7A, using: &random) }
            if length > 0 && Bool.random(using: &random) { line[length - 1] = 0x0D }
            return line
        }
    }

    static func read(_ reader: consuming ChunkReader) throws -> [ReadLine] {
        var cursor = LineCursor(reader)
        var read: [ReadLine] = []
        while let line = try cursor.next() {
            read.append(ReadLine(bytes: line.isOverlong ? nil : line.bytes.array, isTerminated: line.isTerminated))
        }
        return read
    }

    @Test(arguments: [16, 17, 64, 1000])
    func givesEveryLineOnceInOrderFromAFileAndFromMemory(blockSize: Int) throws {
        var random = SeededGenerator(seed: UInt64(blockSize) &* 7919)
        for _ in 0..<20 {
            let lines = Self.randomLines(using: &random, blockSize: blockSize)
            let terminated = Bool.random(using: &random) || lines.last!.isEmpty
            var bytes = lines.joined(separator: [0x0A]).map { $0 }
            if terminated { bytes.append(0x0A) }
            let expected = lines.enumerated().map { index, line in
                ReadLine(
                    bytes: line.count > Self.maximumLineLength ? nil : line,
                    isTerminated: index < lines.count - 1 || terminated)
            }
            // An empty file, or one empty line without `\n`, has no line.
            let wanted = bytes.isEmpty ? [] : expected
            let fromMemory = try Self.read(
                ChunkReader(.bytes(bytes), blockSize: blockSize, maximumLineLength: Self.maximumLineLength))
            #expect(fromMemory.map(\.bytes) == wanted.map(\.bytes))
            #expect(
                zip(fromMemory, wanted).allSatisfy { $0.bytes == nil || $0.isTerminated == $1.isTerminated })
            guard !bytes.isEmpty else { continue }
            let file = try ValidationTemporaryFile(bytes)
            let input = try TraceInput.open(file.path)
            let fromFile = try Self.read(input.chunks(blockSize: blockSize, maximumLineLength: Self.maximumLineLength))
            #expect(fromFile == fromMemory)
        }
    }
}
