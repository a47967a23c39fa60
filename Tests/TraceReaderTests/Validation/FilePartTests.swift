@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing

@testable import TraceReader

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A large file is read in parts, each by its own thread (`FilePart`): every line must be owned
/// by exactly one part, whatever the part size and however the lines fall across the parts.
@Suite struct FilePartTests {
    /// A line as a reader gives it: its bytes (nil when overlong) and whether it ends in `\n`.
    struct ReadLine: Equatable, CustomStringConvertible {
        var bytes: [UInt8]?
        var isTerminated: Bool

        var description: String {
            (bytes.map { "\"\(String(decoding: $0, as: UTF8.self))\"" } ?? "overlong")
                + (isTerminated ? "" : " (no \\n)")
        }
    }

    @Test(arguments: [1, 2, 3, 7, 63, 64, 65, 100, 1000])
    func thePartsGiveEveryLineOnceInOrder(partSize: Int) throws {
        var random = SeededGenerator(seed: UInt64(partSize) &* 31)
        for round in 0..<12 {
            let bytes = Self.randomFile(using: &random, partSize: partSize)
            let maximum = [40, 150, 1 << 30][round % 3]
            let file = try ValidationTemporaryFile(bytes)
            let fromParts = try Self.readInParts(file.path, partSize: partSize, maximumLineLength: maximum)
            let expected = Self.reference(bytes, maximumLineLength: maximum)
            #expect(fromParts == expected, "part size \(partSize), round \(round), \(bytes.count) bytes")
        }
    }

    /// Lines far longer than a part and than one read past it (`FilePart.lineEndRead`), kept or
    /// over the limit, so that a part reads on several times for its last line or to drop it.
    @Test func linesOfManyPartsAreReadOnOrDropped() throws {
        var random = SeededGenerator(seed: 77)
        var bytes: [UInt8] = []
        for length in [10, 100_000, 5, 250_000, 0, 70_000, 3] {
            bytes += (0..<length).map { _ in UInt8.random(in: 0x20..<0x7F, using: &random) } + [0x0A]
        }
        bytes += Array(repeating: UInt8(ascii: "z"), count: 90_000)  // and no final newline
        let file = try ValidationTemporaryFile(bytes)
        for maximum in [1 << 30, 80_000] {
            for partSize in [4096, 65_536] {
                let fromParts = try Self.readInParts(file.path, partSize: partSize, maximumLineLength: maximum)
                #expect(
                    fromParts == Self.reference(bytes, maximumLineLength: maximum),
                    "parts of \(partSize), limit \(maximum)")
            }
        }
    }

    /// A part keeps its lines in raw memory that it reuses without deinitializing them and frees
    /// without destroying them: that is only sound while a line holds no reference (a `String`
    /// or an array added to `EventFields` would leak, or be released twice).
    @Test func aScannedLineHoldsNoReference() {
        #expect(_isPOD(FilePart.ScannedLine.self))
        #expect(_isPOD(EventFields.self))
    }

    @Test func anEmptyFileIsOnePartThatEndsIt() throws {
        let file = try ValidationTemporaryFile([])
        #expect(try Self.readInParts(file.path, partSize: 100, maximumLineLength: 100) == [])
    }

    /// The validator on several threads says what it says on one, for files with long lines,
    /// lines longer than the limit, `\r\n`, empty lines and a last line without `\n`.
    @Test func theParallelValidationAgreesWithTheSequentialOne() throws {
        var random = SeededGenerator(seed: 2026)
        let events = try ValidationFixtures.recordedTrace(seed: 3, actions: 200)
        var lines = events.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if lines.last?.isEmpty == true { lines.removeLast() }
        for round in 0..<8 {
            var mutated = lines
            for _ in 0..<6 {
                let index = Int.random(in: 1..<mutated.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    mutated[index] =
                        Array(#"{"type":"note","seq":1,"pad":""#.utf8)
                        + Array(repeating: UInt8(ascii: "x"), count: 3000) + Array(#""}"#.utf8)
                case 1: mutated[index] += [0x0D]
                case 2: mutated.insert([], at: index)
                default: mutated[index] = Array(mutated[index].prefix(mutated[index].count / 2))
                }
            }
            var bytes = mutated.joined(separator: [0x0A]).map { $0 }
            if round % 2 == 0 { bytes.append(0x0A) }
            let file = try ValidationTemporaryFile(bytes)
            for (width, partSize) in [(2, 1), (2, 97), (3, 700), (4, 4096)] {
                var parallel = TraceValidator()
                parallel.parallelism = width
                parallel.parallelThreshold = 0
                parallel.blockSize = partSize * 4
                parallel.maximumLineLength = 2000
                var sequential = TraceValidator()
                sequential.maximumLineLength = 2000
                #expect(
                    try parallel.validate(file: file.path) == sequential.validate(bytes: bytes, file: file.path),
                    "round \(round), \(width) threads, parts of \(partSize)")
            }
        }
    }

    /// Recorded lines, whose ends the scan finds (`EventScanner.scanRecorderLine`), are split
    /// as the sequential reader splits them, each with the fields of its own scan, whatever the
    /// part size and the longest line allowed (some recorded lines are longer than 100 bytes).
    @Test(arguments: [1, 150, 4096]) func recordedLinesAreSplitAndScannedAsAlone(partSize: Int) throws {
        let bytes = try ValidationFixtures.recordedTrace(seed: 5, actions: 60) + Array(#"{"type":"x"}"#.utf8)
        let file = try ValidationTemporaryFile(bytes)
        let descriptor = open(file.path, O_RDONLY)
        guard descriptor >= 0 else { throw ValidationTestError("cannot open \(file.path)") }
        defer { close(descriptor) }
        for maximum in [100, 1 << 30] {
            var part = FilePart()
            defer { part.deallocate() }
            var lines: [ReadLine] = []
            for index in 0... {
                part.read(descriptor: descriptor, index: index, size: partSize, maximumLineLength: maximum)
                for line in part.lines {
                    guard line.count >= 0 else {
                        lines.append(ReadLine(bytes: nil, isTerminated: true))
                        continue
                    }
                    let text = ByteView(start: part.bytes + line.start, count: line.count)
                    lines.append(ReadLine(bytes: text.array, isTerminated: line.isTerminated))
                    guard line.start != 0 || index != 0 else { continue }  // the header
                    #expect(line.fields == (try? EventScanner.scan(text)) ?? EventFields(), "\(lines.last!)")
                }
                if part.endsFile { break }
            }
            #expect(lines == Self.reference(bytes, maximumLineLength: maximum), "at most \(maximum) bytes")
            #expect(lines.filter { $0.bytes == nil }.count > 3 || maximum > 100)
        }
    }

    // MARK: Helpers

    /// Lines of every length that matters: empty, short, about a part, several parts, over the limit.
    static func randomFile(using random: inout SeededGenerator, partSize: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 0..<40, using: &random) {
            let length =
                switch Int.random(in: 0..<5, using: &random) {
                case 0: 0
                case 1: Int.random(in: 1..<10, using: &random)
                case 2: Int.random(in: max(1, partSize - 2)...(partSize + 2), using: &random)
                case 3: Int.random(in: partSize...(partSize * 3 + 1), using: &random)
                default: Int.random(in: 100..<400, using: &random)
                }
            bytes += (0..<length).map { _ in UInt8.random(in: 0x20..<0x7F, using: &random) }
            if Bool.random(using: &random) { bytes.append(0x0D) }
            bytes.append(0x0A)
        }
        if Bool.random(using: &random) { bytes += Array("no newline at the end".utf8) }
        return bytes
    }

    /// The lines of `bytes` as the sequential reader splits them.
    static func reference(_ bytes: [UInt8], maximumLineLength: Int) -> [ReadLine] {
        var lines: [ReadLine] = []
        _ = ByteView.withBytes(of: bytes) { buffer in
            LineReader.forEachLine(in: buffer, maximumLineLength: maximumLineLength) { line in
                lines.append(
                    ReadLine(
                        bytes: line.isOverlong ? nil : line.bytes.array,
                        isTerminated: line.isTerminated || line.isOverlong))
                return true
            }
        }
        return lines
    }

    /// The lines of the file at `path`, part after part until one ends the file.
    static func readInParts(_ path: String, partSize: Int, maximumLineLength: Int) throws -> [ReadLine] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw ValidationTestError("cannot open \(path)") }
        defer { close(descriptor) }
        var part = FilePart()
        defer { part.deallocate() }
        var lines: [ReadLine] = []
        for index in 0... {
            part.read(descriptor: descriptor, index: index, size: partSize, maximumLineLength: maximumLineLength)
            guard part.readError == 0 else { throw ValidationTestError("read error \(part.readError)") }
            for line in part.lines {
                let bytes =
                    line.count < 0
                    ? nil : Array(UnsafeRawBufferPointer(start: part.bytes + line.start, count: line.count))
                lines.append(ReadLine(bytes: bytes, isTerminated: line.isTerminated || line.count < 0))
            }
            if part.endsFile { break }
            if index > 1_000_000 { throw ValidationTestError("no part ended the file") }
        }
        return lines
    }
}
