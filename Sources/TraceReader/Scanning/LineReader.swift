@_spi(RewindInternals) package import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits a file or a buffer into lines, reading a file in large blocks (`ChunkReader`) so that
/// memory stays the same whatever the file's size: one block, or one line when a line is longer.
///
/// Lines end at `\n`, found with `memchr`; the `\n` is not part of the line (a `\r` before it
/// is, and JSON reads it as whitespace).
package enum LineReader {
    /// One line.
    package struct Line {
        /// The line's bytes without its `\n`; empty when `isOverlong`.
        package var bytes: ByteView
        /// Whether the line ends with `\n` (only the last line of a file may not).
        package var isTerminated: Bool
        /// Whether the line is longer than the limit, so its bytes were not kept.
        package var isOverlong: Bool
    }

    /// What a file is read as: runs of whole lines, and the lines too long to keep.
    package enum Chunk {
        /// One or more whole lines, each ending in `\n` except, at the end of the file, the last.
        case lines(ByteView)
        /// A line longer than the limit, skipped up to its `\n`.
        case overlongLine
    }

    /// The longest line read: lines up to 1 GiB are allowed (shared/TRACE_FORMAT.md).
    package static let maximumLineLength = 1 << 30

    /// Whether a line is empty: `\n` or `\r\n` (given without its `\n`), which readers skip.
    @inline(__always)
    package static func isEmpty(_ bytes: ByteView) -> Bool {
        bytes.isEmpty || (bytes.count == 1 && bytes[0] == 0x0D)
    }

    /// Reads bytes `range` of the regular file open as `descriptor` (with `pread`, so that
    /// several threads may read parts of one file at once) in blocks of about `blockSize` bytes,
    /// calling `body` with the whole lines of each block and the file offset of its first byte,
    /// until it returns false. The range ends at a line start or at the end of the file; the
    /// last line of the range (or of the file, if it ends first) is given even without `\n`.
    ///
    /// - Throws: the system's error number when a read fails.
    static func forEachChunk(
        descriptor: Int32, range: Range<Int>, blockSize: Int, maximumLineLength: Int = maximumLineLength,
        _ body: (Chunk, _ offset: Int) -> Bool
    ) throws(SystemError) {
        var reader = ChunkReader(
            .file(descriptor: descriptor, range: range), blockSize: blockSize, maximumLineLength: maximumLineLength)
        while let (chunk, offset) = try reader.next() {
            if !body(chunk, range.lowerBound + offset) { return }
        }
    }

    /// The offset just past the last `\n` in bytes `from..<to` of `bytes`, if there is one.
    @inline(__always)
    static func lastLineEnd(_ bytes: ByteView, from start: Int, to end: Int) -> Int? {
        var index = end
        // Eight bytes at a time while no `\n` is among them: a line of megabytes (a header of
        // thousands of machines) is searched in a fraction of the time.
        let ones: UInt64 = 0x0101_0101_0101_0101
        while index &- 8 >= start {
            let word = UInt64(littleEndian: bytes.loadUnaligned(at: index &- 8, as: UInt64.self))
            let newlines = word ^ (ones &* 0x0A)
            if (newlines &- ones) & ~newlines & (ones &* 0x80) != 0 { break }
            index &-= 8
        }
        while index > start {
            index -= 1
            if bytes[index] == 0x0A { return index + 1 }
        }
        return nil
    }

    /// Calls `body` for each line of `bytes` until it returns false; returns whether it always
    /// returned true.
    @discardableResult
    static func forEachLine(
        in bytes: ByteView, maximumLineLength: Int = maximumLineLength, _ body: (Line) -> Bool
    ) -> Bool {
        var start = 0
        while start < bytes.count {
            let found = bytes.firstIndex(of: 0x0A, from: start)
            let end = found ?? bytes.count
            let terminated = found != nil
            let line =
                end - start > maximumLineLength
                ? Line(bytes: .empty, isTerminated: terminated, isOverlong: true)
                : Line(bytes: bytes[start..<end], isTerminated: terminated, isOverlong: false)
            if !body(line) { return false }
            start = end + 1
        }
        return true
    }
}
