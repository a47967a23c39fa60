@_spi(RewindInternals) package import RewindSupport

/// The lines of an input one at a time, when asked, read by a `ChunkReader`: what lets a
/// comparison walk two traces side by side, its memory one block of each (or its longest line).
package struct LineCursor: ~Copyable {
    private var reader: ChunkReader
    /// The lines of the chunk being given, and how far they were given.
    private var chunk = ByteView.empty
    private var position = 0

    package init(_ reader: consuming ChunkReader) {
        self.reader = reader
    }

    /// The next line, without its `\n`, or nil at the end. Its bytes are valid until the next
    /// call; an overlong line (`isOverlong`) has none.
    /// - Throws: the system's error when a read fails.
    package mutating func next() throws(SystemError) -> LineReader.Line? {
        if position >= chunk.count {
            guard let (next, _) = try reader.next() else { return nil }
            switch next {
            case .overlongLine:
                chunk = .empty
                position = 0
                return LineReader.Line(bytes: chunk, isTerminated: true, isOverlong: true)
            case .lines(let bytes):
                chunk = bytes
                position = 0
            }
        }
        let start = position
        if let end = chunk.firstIndex(of: 0x0A, from: start) {
            position = end + 1
            return LineReader.Line(bytes: chunk[start..<end], isTerminated: true, isOverlong: false)
        }
        // The last line of the input, without `\n`.
        position = chunk.count
        return LineReader.Line(bytes: chunk.suffix(from: start), isTerminated: false, isOverlong: false)
    }
}
