@_spi(RewindInternals) package import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file, a stream or bytes in memory from its start in large blocks and hands out its
/// whole lines, a run of them at a time (`LineReader.Chunk`), when asked: the one reading loop
/// behind `LineReader.forEachChunk`, `TraceInput.forEachChunk` and the lines a comparison reads
/// one at a time (`LineCursor`). Memory stays the same whatever the input's size: one block, or
/// one line when a line is longer; a line over `maximumLineLength` is not kept but given as
/// `.overlongLine`, and the rest of it skipped.
///
/// Not copyable: it owns its buffer (`malloc`'s, so that a line longer than a block grows it
/// with `realloc`: a large block is moved by remapping its pages, not copied into new ones that
/// fault one by one; a header of 8 MB cost 2,000 page faults more than a trace of its size).
package struct ChunkReader: ~Copyable {
    /// Where the bytes come from.
    package enum Source {
        /// Bytes `range` of the regular file open as `descriptor`, read with `pread` (so that
        /// several threads may read parts of one file at once); the range ends at a line start
        /// or at the end of the file.
        case file(descriptor: Int32, range: Range<Int>)
        /// A regular file that `TraceInput` opened (and keeps open while it is read), read with
        /// `pread` from its start.
        case regularFile(TraceInput)
        /// A stream that `TraceInput` opened, read as it comes.
        case stream(StreamReader)
        /// Bytes in memory.
        case bytes([UInt8])
    }

    /// Where the reading loop takes up again at the next call.
    private enum Step {
        /// Looks for the whole lines read.
        case lookForLines
        /// The chunk of the first `end` bytes was given: drops them.
        case afterLines(end: Int)
        /// An overlong line was given: skips the rest of it.
        case afterOverlongLine
        /// Sees whether the unfinished line is too long, and makes room for more of it.
        case checkLength
        /// Reads the next block.
        case read
        /// At the end (or after a failed read).
        case finished
    }

    private var source: Source
    private let blockSize: Int
    private let maximumLineLength: Int
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int
    /// Bytes of the buffer that hold data; they start with an unfinished line.
    private var filled = 0
    /// Bytes of the buffer known to hold no `\n`.
    private var searched = 0
    /// Discarding the rest of an overlong line, up to its `\n`.
    private var skipping = false
    /// Bytes read so far.
    package private(set) var bytesRead = 0
    private var step = Step.lookForLines

    /// - Parameters:
    ///   - blockSize: the bytes read at a time (at least 16).
    ///   - maximumLineLength: the longest line kept.
    package init(_ source: consuming Source, blockSize: Int, maximumLineLength: Int = LineReader.maximumLineLength) {
        self.source = source
        self.blockSize = max(16, blockSize)
        self.maximumLineLength = maximumLineLength
        capacity = self.blockSize
        // A failed `malloc` of one block is not recoverable anyway.
        buffer = malloc(capacity)!
    }

    deinit {
        free(buffer)
    }

    /// The next chunk and the offset of its first byte from the start of the input, or nil at
    /// the end. The chunk's bytes are valid until the next call. The last line is given even
    /// without `\n`.
    /// - Throws: the system's error when a read fails (or memory runs out for a long line).
    package mutating func next() throws(SystemError) -> (chunk: LineReader.Chunk, offset: Int)? {
        while true {
            switch step {
            case .finished:
                return nil
            case .lookForLines:
                if skipping {
                    if let found = memchr(buffer, 0x0A, filled) {
                        let end = buffer.distance(to: found) + 1
                        filled -= end
                        if filled > 0 { memmove(buffer, buffer + end, filled) }
                        skipping = false
                        searched = 0
                    } else {
                        filled = 0
                    }
                }
                if !skipping,
                    let end = LineReader.lastLineEnd(ByteView(start: buffer, count: filled), from: searched, to: filled)
                {
                    step = .afterLines(end: end)
                    return (.lines(ByteView(start: buffer, count: end)), bytesRead - filled)
                }
                if !skipping { searched = filled }
                step = .checkLength
            case .afterLines(let end):
                filled -= end
                if filled > 0 { memmove(buffer, buffer + end, filled) }
                searched = filled
                step = .checkLength
            case .checkLength:
                if !skipping && filled > maximumLineLength {
                    step = .afterOverlongLine
                    return (.overlongLine, bytesRead - filled)
                }
                if filled == capacity {
                    // One line fills the buffer: make room for more of it.
                    let larger = min(capacity * 2, maximumLineLength + blockSize)
                    guard let grown = realloc(buffer, larger) else {
                        step = .finished
                        throw SystemError(code: ENOMEM)
                    }
                    buffer = grown
                    capacity = larger
                }
                step = .read
            case .afterOverlongLine:
                skipping = true
                filled = 0
                searched = 0
                step = .read
            case .read:
                let count: Int
                do throws(SystemError) {
                    count = try readMore(into: buffer + filled, count: capacity - filled)
                } catch {
                    step = .finished
                    throw error
                }
                if count == 0 {
                    step = .finished
                    guard filled > 0 && !skipping else { return nil }
                    return (.lines(ByteView(start: buffer, count: filled)), bytesRead - filled)
                }
                filled += count
                bytesRead += count
                step = .lookForLines
            }
        }
    }

    /// Reads up to `count` bytes, the next ones after the `bytesRead` read so far; 0 at the end.
    private mutating func readMore(into target: UnsafeMutableRawPointer, count: Int) throws(SystemError) -> Int {
        switch source {
        case .file(let descriptor, let range):
            let wanted = min(count, max(0, range.count - bytesRead))
            return try SystemCalls.read(descriptor, into: target, count: wanted, at: range.lowerBound + bytesRead)
        case .regularFile(let input):
            return try input.file.read(into: target, count: count, at: bytesRead)
        case .stream(var reader):
            // `StreamReader` reads through `SystemCalls`, which retries after an interruption.
            let read = try reader.read(into: target, count: count)
            source = .stream(reader)
            return read
        case .bytes(let bytes):
            let taken = min(count, bytes.count - bytesRead)
            guard taken > 0 else { return 0 }
            bytes.withUnsafeBytes { target.copyMemory(from: $0.baseAddress! + bytesRead, byteCount: taken) }
            return taken
        }
    }
}
