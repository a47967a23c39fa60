@_spi(RewindInternals) internal import RewindSupport

/// The lines of a trace, one at a time, when asked: from bytes in memory, or from a file read a
/// block at a time (a regular file with `pread`, a stream as it comes). Memory holds one block,
/// or one line when a line is longer; a line over `maximumLineLength` is not kept but reported as
/// overlong, and the rest of it skipped.
struct LineSource {
    /// A line without its `\n`.
    struct Line {
        var bytes: ArraySlice<UInt8>
        /// Whether it ends in `\n` (only the last line of a trace may not).
        var isTerminated: Bool
        /// Longer than the limit: `bytes` is empty.
        var isOverlong: Bool
    }

    private let input: TraceInput?
    private var reader: StreamReader?
    private var buffer: [UInt8]
    private var start = 0
    private var searched = 0
    private var atEnd: Bool
    private var fileOffset = 0
    private let blockSize: Int
    private let maximumLineLength: Int

    /// The lines of `bytes`.
    init(bytes: [UInt8], maximumLineLength: Int = LineReader.maximumLineLength) {
        input = nil
        buffer = bytes
        atEnd = true
        blockSize = 0
        self.maximumLineLength = maximumLineLength
    }

    /// The lines of `input`, from its start; only line 1 when it cannot be a trace header, so
    /// that a device that never ends is not read for ever.
    init(input: TraceInput, blockSize: Int = 1 << 20, maximumLineLength: Int = LineReader.maximumLineLength) {
        self.input = input
        self.blockSize = blockSize
        self.maximumLineLength = maximumLineLength
        if case .stream = input.kind { reader = StreamReader(input) }
        if let line = input.firstLineIfNotAHeader() {
            buffer = line
            atEnd = true
        } else {
            buffer = []
            atEnd = false
        }
    }

    /// The next line, or nil at the end.
    /// - Throws: the system's error when a read fails.
    mutating func next() throws(SystemError) -> Line? {
        var skipping = false
        while true {
            if let newline = buffer[searched...].firstIndex(of: 0x0A) {
                let line = buffer[start..<newline]
                start = newline + 1
                searched = start
                if skipping { return Line(bytes: [], isTerminated: true, isOverlong: true) }
                return Line(bytes: line, isTerminated: true, isOverlong: false)
            }
            searched = buffer.count
            if skipping || buffer.count - start > maximumLineLength {
                // Too long to keep: drop what was read of it, and read on to its end.
                skipping = true
                buffer.removeAll(keepingCapacity: false)
                start = 0
                searched = 0
            }
            if atEnd {
                guard start < buffer.count || skipping else { return nil }
                let line = buffer[start...]
                start = buffer.count
                searched = start
                if skipping { return Line(bytes: [], isTerminated: false, isOverlong: true) }
                return Line(bytes: line, isTerminated: false, isOverlong: false)
            }
            if start > 0 {
                buffer.removeSubrange(0..<start)
                searched -= start
                start = 0
            }
            try readBlock()
        }
    }

    /// Appends the next block of the input to `buffer`; sets `atEnd` when there is none.
    private mutating func readBlock() throws(SystemError) {
        guard let input else {
            atEnd = true
            return
        }
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: blockSize))
        let offset = fileOffset
        let size = blockSize
        var streamReader = reader
        let result = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(SystemError) in
                let target = bytes.baseAddress! + old
                if streamReader != nil { return try streamReader!.read(into: target, count: size) }
                return try input.file.read(into: target, count: size, at: offset)
            }
        }
        reader = streamReader
        let count: Int
        switch result {
        case .success(let read): count = read
        case .failure(let error):
            buffer.removeLast(blockSize)
            throw error
        }
        buffer.removeLast(blockSize - count)
        fileOffset += count
        if count == 0 { atEnd = true }
    }
}
