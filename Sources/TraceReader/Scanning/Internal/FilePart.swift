@_spi(RewindInternals) internal import RewindSupport
import TraceJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One part of a large file, read with `pread` and scanned by one thread, so that several
/// threads read and scan the parts of a file at once (`ParallelScan`).
///
/// Part `k` of size `P` owns the lines that *start* in bytes `k·P ..< (k+1)·P` of the file: a line
/// starts at offset 0 and after every `\n`. To find its first line, a part reads from one byte
/// before its range (is that byte a `\n`?); to finish its last line, it reads past its range up
/// to the line's `\n`. So every line is owned by exactly one part, whatever the part size, with
/// no coordination between the threads. A part whose range lies inside one long line owns no
/// line. A line longer than `maximumLineLength` is an overlong line without its bytes: no more
/// of it is read than shows that it is too long.
///
/// The buffer and the arrays are kept from one part to the next, so that their memory is reused.
/// A part is used by one thread at a time (`ParallelScan` hands it over with release/acquire).
struct FilePart {
    /// One line, as the thread that read the part scanned it. A plain value (no references), so
    /// that the arrays of them are filled and read without reference counting.
    struct ScannedLine: Sendable {
        /// Where the line starts in `bytes`, and its length without `\n`; -1 when it is overlong.
        var start: Int
        var count: Int
        var isTerminated: Bool
        /// The line's members, when it is one JSON object.
        var fields: EventFields
        /// The index of the line's error in `errors`, or -1.
        var error: Int
    }

    /// The lines of a part, in order: a view of its memory, valid until the part is read again
    /// or freed.
    struct ScannedLines: RandomAccessCollection {
        let buffer: UnsafeBufferPointer<ScannedLine>

        var startIndex: Int { 0 }
        var endIndex: Int { buffer.count }
        subscript(index: Int) -> ScannedLine { buffer[index] }

        /// Calls `body` with the lines' memory, as `Array.withUnsafeBufferPointer` does.
        func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<ScannedLine>) throws -> Result) rethrows
            -> Result
        {
            try body(buffer)
        }
    }

    /// The part's bytes: its lines, and the bytes read around them.
    private(set) var bytes: UnsafeMutableRawPointer
    private var capacity: Int
    /// The part's lines, in order, kept in memory of its own rather than an array: an array's
    /// `append` and element writes checked that its buffer was not shared, three times per line
    /// (about 2% of the validator's instructions). A `ScannedLine` holds no reference, so the
    /// memory is reused without deinitializing it.
    private var lineStorage: UnsafeMutablePointer<ScannedLine>
    private var lineCapacity: Int
    private var lineCount = 0
    /// The part's lines, in order.
    var lines: ScannedLines { ScannedLines(buffer: UnsafeBufferPointer(start: lineStorage, count: lineCount)) }
    /// The errors of the lines that are not one JSON object.
    private(set) var errors: [JSONParseError] = []
    /// Whether the file ends within (or before) this part's range: the parts after it own no line.
    private(set) var endsFile = false
    /// Whether a read found the end of the file (perhaps past the range, in the last line).
    private var reachedEnd = false
    /// The error number of a failed read, or 0.
    private(set) var readError: Int32 = 0
    /// Whether this is part 0, whose first line is the header.
    private var isFirstPart = false
    /// The file offset just past the last byte read, for progress.
    private(set) var end = 0
    /// The alignment of the buffer, and of the file offsets read into its start.
    static let alignment = 64
    /// The first read past the part's range, for the rest of its last line.
    static let lineEndRead = 16 << 10

    init() {
        capacity = Self.alignment
        bytes = .allocate(byteCount: capacity, alignment: Self.alignment)
        lineCapacity = 16
        lineStorage = .allocate(capacity: lineCapacity)
    }

    /// Frees the buffer and the lines. (A struct, kept in a slot that `ParallelScan` frees with this.)
    func deallocate() {
        bytes.deallocate()
        lineStorage.deallocate()
    }

    /// Reads part `index` (of `size` bytes) of the file open as `descriptor`, and scans its lines.
    mutating func read(descriptor: Int32, index: Int, size: Int, maximumLineLength: Int) {
        lineCount = 0
        errors.removeAll(keepingCapacity: true)
        endsFile = false
        reachedEnd = false
        readError = 0
        isFirstPart = index == 0
        // Memory once held by a long line is not kept for the parts that follow.
        if capacity > 4 * (size + Self.alignment + Self.lineEndRead) && capacity > 1 << 16 {
            replaceBuffer(capacity: size + Self.alignment + Self.lineEndRead)
        }
        // Room for the part and the usual rest of its last line, made once: growing the buffer
        // (and the lines) as the first parts were read copied them into new memory, and the
        // kernel cleared its pages twice.
        if capacity < size + Self.alignment + Self.lineEndRead {
            replaceBuffer(capacity: size + Self.alignment + Self.lineEndRead)
        }
        if lineCapacity < min(size / 128, 1 << 16) { growLines(to: min(size / 128, 1 << 16)) }

        let rangeStart = index * size
        let rangeEnd = rangeStart + size
        // The file offset of bytes[0]: from the byte before the range, rounded down to a multiple
        // of 64, so that the kernel copies between equally aligned addresses (copying from an
        // offset one byte off took longer).
        let base = index == 0 ? 0 : (rangeStart - 1) & ~(Self.alignment - 1)
        var filled = 0
        defer { endsFile = reachedEnd && end <= rangeEnd }
        guard fill(&filled, upTo: rangeEnd - base, base: base, descriptor: descriptor) else { return }

        var start: Int
        if index == 0 {
            start = 0
        } else {
            let before = rangeStart - 1 - base  // the byte before the range
            guard filled > before else { return }  // the file ends before this part
            if bytes.load(fromByteOffset: before, as: UInt8.self) == 0x0A {
                start = before + 1
            } else if let newline = memchr(bytes + before + 1, 0x0A, filled - before - 1) {
                start = bytes.distance(to: newline) + 1
            } else {
                return  // inside a line that an earlier part owns
            }
        }
        var searched = start  // bytes before this hold no `\n` of the current line
        while base + start < rangeEnd && start < filled {
            // Most lines: scanned with their end found by the scan, not by a `memchr` before it.
            if let count = addRecorderLine(start: start, filled: filled, maximumLineLength: maximumLineLength) {
                start &+= count &+ 1
                searched = start
                continue
            }
            if let newline = memchr(bytes + searched, 0x0A, filled - searched) {
                let lineEnd = bytes.distance(to: newline)
                addLine(start: start, count: lineEnd - start, isTerminated: true, maximumLineLength: maximumLineLength)
                start = lineEnd + 1
                searched = start
                continue
            }
            if reachedEnd {
                // The last line of the file, without `\n`.
                addLine(start: start, count: filled - start, isTerminated: false, maximumLineLength: maximumLineLength)
                break
            }
            searched = filled
            if filled - start > maximumLineLength {
                // Overlong, and it runs past the range (the whole range was read): no line of
                // this part comes after it, and the parts it runs through own none of it.
                appendLine(ScannedLine(start: 0, count: -1, isTerminated: false, fields: EventFields(), error: -1))
                break
            }
            // A line that goes on past what was read: read more of it, a little at first (the
            // last line of almost every part ends within a few hundred bytes; reading a whole part
            // more doubled the copying), then as much again as the line has, but no more than
            // decides whether it is overlong.
            let wanted = min(filled + max(Self.lineEndRead, filled - start), start + maximumLineLength + 1)
            guard fill(&filled, upTo: wanted, base: base, descriptor: descriptor) else { return }
        }
    }

    /// Reads into `bytes[filled...]` until `wanted` bytes are there or the file ends (which sets
    /// `reachedEnd`); false when a read failed (`readError`).
    private mutating func fill(_ filled: inout Int, upTo wanted: Int, base: Int, descriptor: Int32) -> Bool {
        if wanted > capacity { grow(to: wanted, keeping: filled) }
        do {
            let count = try SystemCalls.read(
                descriptor, into: bytes + filled, count: wanted - filled, at: base + filled)
            if count < wanted - filled { reachedEnd = true }
            filled += count
        } catch {
            readError = error.code
            return false
        }
        end = base + filled
        return true
    }

    /// Adds the line at `bytes[start..<start + count]`, scanned.
    @inline(__always)
    private mutating func addLine(start: Int, count: Int, isTerminated: Bool, maximumLineLength: Int) {
        guard count <= maximumLineLength else {
            appendLine(ScannedLine(start: 0, count: -1, isTerminated: isTerminated, fields: EventFields(), error: -1))
            return
        }
        appendLine(
            ScannedLine(start: start, count: count, isTerminated: isTerminated, fields: EventFields(), error: -1))
        scanLine(at: lineCount &- 1)
    }

    /// Adds `line` after the others.
    @inline(__always)
    private mutating func appendLine(_ line: ScannedLine) {
        if lineCount == lineCapacity { growLines(to: lineCapacity * 2) }
        (lineStorage + lineCount).initialize(to: line)
        lineCount &+= 1
    }

    /// Room for `capacity` lines, keeping those there.
    private mutating func growLines(to capacity: Int) {
        let grown = UnsafeMutablePointer<ScannedLine>.allocate(capacity: capacity)
        grown.moveInitialize(from: lineStorage, count: lineCount)
        lineStorage.deallocate()
        lineStorage = grown
        lineCapacity = capacity
    }

    /// Adds and scans the line at `bytes[start...]` when it is in the recorder's layout and ends
    /// with `}` and `\n` within `bytes[..<filled]` (`EventScanner.scanRecorderLine`); returns its
    /// length without `\n`, or nil (nothing added) for any other line.
    @inline(__always)
    private mutating func addRecorderLine(start: Int, filled: Int, maximumLineLength: Int) -> Int? {
        // Line 1, the header, is read by the run itself; a line not starting with `{` is no event.
        guard !(isFirstPart && start == 0), bytes.load(fromByteOffset: start, as: UInt8.self) == 0x7B else {
            return nil
        }
        let rest = ByteView(start: bytes + start, count: filled &- start)
        // Scanned in place, in the slot after the last line, which counts only when the scan
        // took the line: the fields are not copied on their way there.
        if lineCount == lineCapacity { growLines(to: lineCapacity * 2) }
        let slot = lineStorage + lineCount
        slot.initialize(to: ScannedLine(start: start, count: 0, isTerminated: true, fields: EventFields(), error: -1))
        guard let count = EventScanner.scanRecorderLine(rest, into: &slot.pointee.fields), count <= maximumLineLength
        else { return nil }
        slot.pointee.count = count
        lineCount &+= 1
        return count
    }

    /// Scans line `index` (not overlong) into its fields, or its error.
    @inline(__always)
    private mutating func scanLine(at index: Int) {
        let slot = lineStorage + index
        let line = ByteView(start: bytes + slot.pointee.start, count: slot.pointee.count)
        // Line 1, the header, is read by the run itself, not as an event.
        guard !LineReader.isEmpty(line), !(isFirstPart && slot.pointee.start == 0) else { return }
        // Scanned in place: the fields are not copied on their way into the lines.
        do throws(JSONParseError) {
            try EventScanner.scan(line, into: &slot.pointee.fields)
        } catch {
            slot.pointee.error = errors.count
            errors.append(error)
        }
    }

    /// A larger buffer holding the first `filled` bytes of the current one.
    private mutating func grow(to wanted: Int, keeping filled: Int) {
        let larger = max(wanted, capacity * 2)
        let grown = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: Self.alignment)
        grown.copyMemory(from: bytes, byteCount: filled)
        bytes.deallocate()
        bytes = grown
        capacity = larger
    }

    private mutating func replaceBuffer(capacity: Int) {
        bytes.deallocate()
        bytes = .allocate(byteCount: capacity, alignment: Self.alignment)
        self.capacity = capacity
    }
}
