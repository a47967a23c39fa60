@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) import TraceJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens a trace: reads its header and indexes its body, from a file (read with `pread`, in
/// pieces on every core) or from bytes (a pipe read whole, or bytes given in memory).
enum TraceLoader {
    /// What opening gives `TraceFile`.
    struct Loaded {
        var source: TraceSource
        var header: TraceHeader
        var index: TraceIndex
    }

    /// The most that is read from something that is not a regular file (a pipe, a device), since
    /// it must be held in memory whole.
    static let defaultStreamLimit = 1 << 30

    /// Opens the trace at `path`: the path is opened once (`TraceInput`), and a stream read
    /// whole into memory.
    static func open(path: String, streamLimit: Int = defaultStreamLimit) throws(TraceOpenError) -> Loaded {
        let input = try openInput(path)
        switch input.kind {
        case .regularFile(let size):
            return try indexWhole(input, size: size, path: path)
        case .stream:
            var reader = StreamReader(input)
            let bytes = try readAll(&reader, path: path, limit: streamLimit)
            return try load(bytes: bytes, path: path)
        }
    }

    /// Opens `path` once, or throws why it cannot be read as a trace.
    private static func openInput(_ path: String) throws(TraceOpenError) -> TraceInput {
        do {
            return try TraceInput.open(path)
        } catch {
            let (kind, line, message) = error.openError
            throw TraceOpenError(kind: kind, path: path, line: line, message: message)
        }
    }

    /// Indexes the whole regular file `input`, of `size` bytes; `progress` counts the bytes
    /// indexed as it goes.
    static func indexWhole(_ input: TraceInput, size: Int, path: String, progress: IndexProgress? = nil)
        throws(TraceOpenError) -> Loaded
    {
        let (header, index) = try indexFile(input.file.rawValue, size: size, path: path, progress: progress)
        return Loaded(source: TraceSource(file: input), header: header, index: index)
    }

    /// What `openFirstPart` gives: the first part's opening, and the input and size to index
    /// the whole from when the first part is not all of it.
    struct FirstPart {
        var loaded: Loaded
        /// The open file and its size, when the first part stops before its end.
        var rest: (input: TraceInput, size: Int)?
    }

    /// Opens the trace at `path` and indexes only its lines that start in the first
    /// `firstBytes` bytes (whole lines: the part ends at a line end), so that a view of the first
    /// events needs no more; a stream is read whole, as `open` does.
    static func openFirstPart(path: String, firstBytes: Int) throws(TraceOpenError) -> FirstPart {
        let input = try openInput(path)
        guard case .regularFile(let size) = input.kind else {
            var reader = StreamReader(input)
            return FirstPart(
                loaded: try load(bytes: try readAll(&reader, path: path, limit: defaultStreamLimit), path: path))
        }
        let cut: Int
        do {
            cut = try lineEnd(input.file.rawValue, atOrAfter: max(1, firstBytes), size: size)
        } catch {
            throw TraceInput.openError(path: path, code: error.code)
        }
        if cut >= size { return FirstPart(loaded: try indexWhole(input, size: size, path: path)) }
        let (header, index) = try indexFile(input.file.rawValue, size: cut, path: path)
        return FirstPart(
            loaded: Loaded(source: TraceSource(file: input), header: header, index: index), rest: (input, size))
    }

    /// The offset just past the first `\n` at or after `offset - 1` in the first `size` bytes
    /// of the file open as `descriptor`: where the first part of the file ends; `size` when there
    /// is none.
    private static func lineEnd(_ descriptor: Int32, atOrAfter offset: Int, size: Int) throws(SystemError) -> Int {
        let window = 64 << 10
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: window, alignment: 16)
        defer { buffer.deallocate() }
        var position = offset - 1
        while position < size {
            let read = try SystemCalls.read(descriptor, into: buffer, count: min(window, size - position), at: position)
            if read == 0 { return size }
            if let newline = memchr(buffer, 0x0A, read) { return position + buffer.distance(to: newline) + 1 }
            position += read
        }
        return size
    }

    /// The `seq` of the last line in the last 64 KiB of the first `size` bytes of the file open
    /// as `descriptor` that scans as an event with a `seq`; nil when none does (or a read fails).
    static func lastSeq(_ descriptor: Int32, size: Int) -> Int? {
        let window = min(size, 64 << 10)
        var bytes = [UInt8](repeating: 0, count: window)
        let read = bytes.withUnsafeMutableBytes { buffer in
            try? SystemCalls.read(descriptor, into: buffer.baseAddress!, count: window, at: size - window)
        }
        guard let read, read > 0 else { return nil }
        // Whole lines only: the first may be cut by the window, unless the window is the file.
        var lines = bytes[..<read].split(separator: 0x0A, omittingEmptySubsequences: true)
        if window < size && !lines.isEmpty { lines.removeFirst() }
        for line in lines.reversed() {
            let seq = ByteView.withBytes(of: Array(line)) { line in (try? EventScanner.scan(line))?.seq }
            if let seq { return seq }
        }
        return nil
    }

    /// Opens the trace held in `bytes`.
    static func load(bytes: [UInt8], path: String) throws(TraceOpenError) -> Loaded {
        if bytes.isEmpty { throw emptyFile(path) }
        let (header, index) = try ByteView.withBytes(of: bytes) { (buffer) throws(TraceOpenError) in
            try indexBytes(buffer, path: path)
        }
        return Loaded(source: TraceSource(bytes: bytes), header: header, index: index)
    }

    /// Reads the header and indexes the body of a trace held in memory.
    private static func indexBytes(_ file: ByteView, path: String) throws(TraceOpenError) -> (
        TraceHeader, TraceIndex
    ) {
        guard !file.isEmpty else { throw emptyFile(path) }
        let newline = file.firstIndex(of: 0x0A)
        let header = try parseHeader(file.prefix(newline ?? file.count), path: path)
        let index = TraceIndexer.index(
            file, bodyStart: newline.map { $0 + 1 } ?? file.count,
            headerEndsInCarriageReturn: newline != nil && newline! > 0 && file[newline! - 1] == 0x0D,
            machines: header.machines, version: header.version)
        return (header, index)
    }

    /// Reads the header and indexes the body of the first `size` bytes of the regular file open
    /// as `descriptor`, with `pread`: the file is never mapped, so a file cut short while it is
    /// opened reads short instead of killing the process with SIGBUS (as `TraceSource` reads it
    /// afterwards, for the same reason).
    private static func indexFile(_ descriptor: Int32, size: Int, path: String, progress: IndexProgress? = nil)
        throws(TraceOpenError) -> (
            TraceHeader, TraceIndex
        )
    {
        // Line 1, read until its `\n`; stopped early when its first byte shows it is no header.
        var line: [UInt8] = []
        var newline: Int?
        var whitespaceEnd = 0  // bytes before this are whitespace, for the check of the first byte
        let block = 64 << 10
        while newline == nil && line.count < size && line.count <= ChunkIndex.maximumLineLength {
            let start = line.count
            let wanted = min(block, size - start)
            line += [UInt8](repeating: 0, count: wanted)
            let read = line.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in
                    try SystemCalls.read(descriptor, into: buffer.baseAddress! + start, count: wanted, at: start)
                }
            }
            let count: Int
            switch read {
            case .success(let bytes): count = bytes
            case .failure(let error): throw TraceInput.openError(path: path, code: error.code)
            }
            line.removeLast(wanted - count)
            if count == 0 { break }  // the file is shorter than it was
            newline = line.withUnsafeBytes { bytes in
                memchr(bytes.baseAddress! + start, 0x0A, count).map { UnsafeRawPointer($0) - bytes.baseAddress! }
            }
            if startsOtherThanAnObject(line, whitespaceEnd: &whitespaceEnd) { break }
        }
        if newline == nil && line.count > ChunkIndex.maximumLineLength {
            throw TraceOpenError(
                kind: .notATrace, path: path, line: 1,
                message: "line 1 is longer than \(describeSize(ChunkIndex.maximumLineLength)); it is not a trace header"
            )
        }
        let headerEnd = newline ?? line.count
        let header = try ByteView.withBytes(of: line) { (bytes) throws(TraceOpenError) in
            try parseHeader(bytes.prefix(headerEnd), path: path)
        }
        do throws(SystemError) {
            let index = try TraceIndexer.index(
                descriptor: descriptor, size: size, bodyStart: newline.map { $0 + 1 } ?? size,
                headerEndsInCarriageReturn: newline.map { $0 > 0 && line[$0 - 1] == 0x0D } ?? false,
                machines: header.machines, version: header.version, progress: progress)
            return (header, index)
        } catch {
            throw TraceInput.openError(path: path, code: error.code)
        }
    }

    private static func parseHeader(_ line: ByteView, path: String) throws(TraceOpenError) -> TraceHeader {
        do {
            return try TraceHeader.parse(line)
        } catch {
            throw TraceOpenError(kind: .notATrace, path: path, line: 1, message: error.message)
        }
    }

    /// Reads what `descriptor` gives until its end, at most `limit` bytes. Stops at once when the
    /// first bytes show that this is not a trace (a device full of zeros, a binary file).
    private static func readAll(_ reader: inout StreamReader, path: String, limit: Int) throws(TraceOpenError)
        -> [UInt8]
    {
        var bytes: [UInt8] = []
        let block = 1 << 20
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: block, alignment: 16)
        defer { scratch.deallocate() }
        var whitespaceEnd = 0  // bytes before this are whitespace, for the check of the first byte
        var headerChecked = false
        while true {
            let count: Int
            do {
                count = try reader.read(into: scratch, count: block)
            } catch {
                throw TraceInput.openError(path: path, code: error.code)
            }
            if count == 0 { return bytes }
            let part = UnsafeRawBufferPointer(start: scratch, count: count)
            // Line 1 is the header: once it is whole, a line that is not one ends the reading at
            // once, with the message opening would give at the end. An endless device that starts
            // with `{` (/dev/urandom, now and then) is not read up to the limit for nothing.
            if !headerChecked, let newline = part.firstIndex(of: 0x0A) {
                let line = bytes + part[..<newline]
                _ = try ByteView.withBytes(of: line) { (line) throws(TraceOpenError) in
                    try parseHeader(line, path: path)
                }
                headerChecked = true
            }
            if bytes.count + count > limit {
                throw TraceOpenError(
                    kind: .unreadable, path: path,
                    message:
                        "more than \(describeSize(limit)) came from this pipe or device, which must be held in memory whole; save the trace to a file and open the file (files are indexed without reading them into memory)"
                )
            }
            bytes.append(contentsOf: part)
            if startsOtherThanAnObject(bytes, whitespaceEnd: &whitespaceEnd) {
                // Not a JSON object on line 1: let the header parser say what it is.
                let end = bytes.firstIndex(of: 0x0A) ?? bytes.count
                let message = ByteView.withBytes(of: Array(bytes[..<end])) { line in
                    do throws(TraceHeaderError) {
                        _ = try TraceHeader.parse(line)
                        return "line 1 is not a trace header"
                    } catch {
                        return error.message
                    }
                }
                throw TraceOpenError(kind: .notATrace, path: path, line: 1, message: message)
            }
        }
    }

    /// Whether the first byte of `bytes` that is not whitespace has been read and is not `{`, so
    /// that line 1 cannot be a trace header. `whitespaceEnd` keeps how far the whitespace was
    /// already skipped, so that bytes read block after block are not looked at again.
    private static func startsOtherThanAnObject(_ bytes: [UInt8], whitespaceEnd: inout Int) -> Bool {
        whitespaceEnd = JSONWhitespace.skip(bytes, from: whitespaceEnd)
        return whitespaceEnd < bytes.count && bytes[whitespaceEnd] != UInt8(ascii: "{")
    }

    /// `1 GiB`, `16 MiB`, `1000 bytes`.
    static func describeSize(_ bytes: Int) -> String {
        if bytes >= 1 << 30 && bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        return "\(bytes) bytes"
    }

    /// What a trace starts with, for messages about a file that does not.
    static let startsWithHeader =
        "a Rewind trace starts with its header line {\"type\":\"header\",\"format\":\"rewind-trace\",\"version\":1,...}"

    private static func emptyFile(_ path: String) -> TraceOpenError {
        TraceOpenError(kind: .notATrace, path: path, line: 1, message: "the file is empty; \(startsWithHeader)")
    }
}
