@_spi(RewindInternals) internal import RewindSupport
import TraceReader

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lines of a trace, one at a time, when asked: from bytes in memory, or from a file read a
/// block at a time (a regular file with `pread`, a stream as it comes). Memory holds one block,
/// or one line when a line is longer; a line over `maximumLineLength` is not kept but reported as
/// overlong, and the rest of it skipped. Lines are found with `memchr` in one buffer of raw
/// bytes, like `LineReader`'s. A class because it owns that buffer.
final class LineSource {
    /// A line without its `\n`.
    struct Line {
        var bytes: [UInt8]
        /// Whether it ends in `\n` (only the last line of a trace may not).
        var isTerminated: Bool
        /// Longer than the limit: `bytes` is empty.
        var isOverlong: Bool
    }

    private let input: TraceInput?
    private var reader: StreamReader?
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    /// Bytes of `storage` that hold data; the next line starts at `start`.
    private var filled = 0
    private var start = 0
    /// Bytes from `start` known to hold no `\n`.
    private var searched = 0
    private var atEnd: Bool
    private var fileOffset = 0
    private let blockSize: Int
    private let maximumLineLength: Int

    /// The lines of `bytes`.
    init(bytes: [UInt8], maximumLineLength: Int = LineReader.maximumLineLength) {
        input = nil
        capacity = max(16, bytes.count)
        let storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        bytes.withUnsafeBytes { if let base = $0.baseAddress { storage.copyMemory(from: base, byteCount: $0.count) } }
        self.storage = storage
        filled = bytes.count
        atEnd = true
        blockSize = 0
        self.maximumLineLength = maximumLineLength
    }

    /// The lines of `input`, from its start; only line 1 when it cannot be a trace header, so
    /// that a device that never ends is not read for ever.
    init(input: TraceInput, blockSize: Int = 1 << 20, maximumLineLength: Int = LineReader.maximumLineLength) {
        self.input = input
        self.blockSize = max(16, blockSize)
        self.maximumLineLength = maximumLineLength
        let first = input.firstLineIfNotAHeader()
        capacity = max(self.blockSize, first?.count ?? 0)
        let storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        self.storage = storage
        if case .stream = input.kind { reader = StreamReader(input) }
        if let line = first {
            line.withUnsafeBytes {
                if let base = $0.baseAddress { storage.copyMemory(from: base, byteCount: $0.count) }
            }
            filled = line.count
            atEnd = true
        } else {
            atEnd = false
        }
    }

    deinit {
        storage.deallocate()
    }

    /// The next line, or nil at the end.
    /// - Throws: the system's error when a read fails.
    func next() throws(SystemError) -> Line? {
        var skipping = false
        while true {
            let from = start + searched
            if let found = memchr(storage + from, 0x0A, filled - from) {
                let end = storage.distance(to: found)
                let line = skipping ? [] : [UInt8](UnsafeRawBufferPointer(start: storage + start, count: end - start))
                start = end + 1
                searched = 0
                return Line(bytes: line, isTerminated: true, isOverlong: skipping)
            }
            searched = filled - start
            if skipping || filled - start > maximumLineLength {
                // Too long to keep: drop what was read of it, and read on to its end.
                skipping = true
                start = filled
                searched = 0
            }
            if atEnd {
                guard start < filled || skipping else { return nil }
                let line =
                    skipping ? [] : [UInt8](UnsafeRawBufferPointer(start: storage + start, count: filled - start))
                start = filled
                searched = 0
                return Line(bytes: line, isTerminated: false, isOverlong: skipping)
            }
            try readBlock()
        }
    }

    /// Moves the unfinished line to the front, makes room for a block, and reads it; sets
    /// `atEnd` when there is no more.
    private func readBlock() throws(SystemError) {
        if start > 0 {
            if filled > start { memmove(storage, storage + start, filled - start) }
            filled -= start
            start = 0
        }
        if capacity - filled < blockSize {
            let larger = max(capacity * 2, filled + blockSize)
            let grown = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 16)
            grown.copyMemory(from: storage, byteCount: filled)
            storage.deallocate()
            storage = grown
            capacity = larger
        }
        guard let input else {
            atEnd = true
            return
        }
        let count: Int
        if reader != nil {
            count = try reader!.read(into: storage + filled, count: capacity - filled)
        } else {
            count = try input.file.read(into: storage + filled, count: capacity - filled, at: fileOffset)
        }
        filled += count
        fileOffset += count
        if count == 0 { atEnd = true }
    }
}
