#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens a trace: reads its header and indexes its body, from a file (memory-mapped while it is
/// indexed) or from bytes (a pipe read whole, or bytes given in memory).
enum TraceLoader {
    /// What opening gives `TraceFile`.
    struct Loaded {
        var source: TraceSource
        var header: TraceHeader
        var index: TraceIndex
    }

    /// The most that is read from something that cannot be mapped (a pipe, a device), since it
    /// must be held in memory whole.
    static let defaultStreamLimit = 1 << 30

    /// Opens the trace at `path`.
    static func open(path: String, streamLimit: Int = defaultStreamLimit) throws(TraceOpenError) -> Loaded {
        let descriptor = openForReading(path)
        guard descriptor >= 0 else { throw openError(path: path, code: errno) }
        var closesDescriptor = true
        defer { if closesDescriptor { close(descriptor) } }

        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw openError(path: path, code: errno) }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR {
            throw TraceOpenError(
                kind: .unreadable, path: path,
                message: "is a directory, not a trace; pass one of the trace files in it (usually *.jsonl)")
        }
        // Reads from now on wait for data, as reads from a pipe should.
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }

        if type == S_IFREG {
            let size = Int(status.st_size)
            if size == 0 { throw emptyFile(path) }
            if let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0),
               mapping != UnsafeMutableRawPointer(bitPattern: -1) {
                defer { munmap(mapping, size) }
                _ = madvise(mapping, size, MADV_SEQUENTIAL)
                let (header, index) = try indexBytes(UnsafeRawBufferPointer(start: mapping, count: size), path: path, releasesPages: true)
                closesDescriptor = false
                return Loaded(source: TraceSource(descriptor: descriptor), header: header, index: index)
            }
            // A file that cannot be mapped (some network or virtual file systems) is read whole.
        }
        let bytes = try readAll(descriptor, path: path, limit: streamLimit)
        return try load(bytes: bytes, path: path)
    }

    /// Opens the trace held in `bytes`.
    static func load(bytes: [UInt8], path: String) throws(TraceOpenError) -> Loaded {
        if bytes.isEmpty { throw emptyFile(path) }
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(TraceOpenError) in try indexBytes(buffer, path: path, releasesPages: false) }
        }
        let (header, index) = try result.get()
        return Loaded(source: TraceSource(bytes: bytes), header: header, index: index)
    }

    /// Reads the header and indexes the body.
    private static func indexBytes(
        _ file: UnsafeRawBufferPointer, path: String, releasesPages: Bool
    ) throws(TraceOpenError) -> (TraceHeader, TraceIndex) {
        guard let base = file.baseAddress else { throw emptyFile(path) }
        let newline = memchr(base, 0x0A, file.count).map { UnsafeRawPointer($0) - base }
        let headerLine = UnsafeRawBufferPointer(rebasing: file[0..<(newline ?? file.count)])
        let header: TraceHeader
        do {
            header = try TraceHeader.parse(headerLine)
        } catch {
            throw TraceOpenError(kind: .notATrace, path: path, line: 1, message: error.message)
        }
        let bodyStart = newline.map { $0 + 1 } ?? file.count
        let endsInCarriageReturn = newline != nil && headerLine.last == 0x0D
        let index = TraceIndexer.index(
            file, bodyStart: bodyStart, headerEndsInCarriageReturn: endsInCarriageReturn,
            machines: header.machines, releasesPages: releasesPages)
        return (header, index)
    }

    /// Reads what `descriptor` gives until its end, at most `limit` bytes. Stops at once when the
    /// first bytes show that this is not a trace (a device full of zeros, a binary file).
    private static func readAll(_ descriptor: Int32, path: String, limit: Int) throws(TraceOpenError) -> [UInt8] {
        var bytes: [UInt8] = []
        let block = 1 << 20
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: block, alignment: 16)
        defer { scratch.deallocate() }
        var checkedStart = false
        var whitespaceEnd = 0  // bytes before this are whitespace, for the check of the first byte
        while true {
            let count = read(descriptor, scratch, block)
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw openError(path: path, code: code)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: UnsafeRawBufferPointer(start: scratch, count: count))
            if !checkedStart {
                while whitespaceEnd < bytes.count && isWhitespace(bytes[whitespaceEnd]) { whitespaceEnd += 1 }
            }
            if !checkedStart && whitespaceEnd < bytes.count {
                checkedStart = true
                if bytes[whitespaceEnd] != UInt8(ascii: "{") {
                    // Not a JSON object on line 1: let the header parser say what it is.
                    let end = bytes.firstIndex(of: 0x0A) ?? bytes.count
                    let message = bytes[..<end].withUnsafeBytes { line in
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
            if bytes.count > limit {
                throw TraceOpenError(
                    kind: .unreadable, path: path,
                    message: "more than \(describeSize(limit)) came from this pipe or device, which must be held in memory whole; save the trace to a file and open the file (files are indexed without reading them into memory)")
            }
        }
    }

    /// JSON's whitespace: space, tab, line feed, carriage return.
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// `1 GiB`, `16 MiB`, `1000 bytes`.
    static func describeSize(_ bytes: Int) -> String {
        if bytes >= 1 << 30 && bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        return "\(bytes) bytes"
    }

    private static func emptyFile(_ path: String) -> TraceOpenError {
        TraceOpenError(
            kind: .notATrace, path: path, line: 1,
            message: "the file is empty; a Rewind trace starts with its header line {\"type\":\"header\",\"format\":\"rewind-trace\",\"version\":1,...}")
    }

    /// An error for a failed `open`, `fstat` or `read`, saying what to do.
    private static func openError(path: String, code: Int32) -> TraceOpenError {
        let reason = String(cString: strerror(code))
        let message = switch code {
        case ENOENT: "no such file; check the path"
        case EACCES, EPERM: "cannot read the file: \(reason); check its permissions (traces are created readable by their owner only)"
        case ENOTDIR: "a part of the path is not a directory; check the path"
        case EISDIR: "is a directory, not a trace; pass one of the trace files in it (usually *.jsonl)"
        default: "cannot read the file: \(reason)"
        }
        return TraceOpenError(kind: .unreadable, path: path, message: message)
    }
}

/// `open(2)` for reading, without waiting for a writer when `path` is a named pipe (a function
/// apart from `TraceLoader`, whose `open(path:)` would hide the system call's name).
private func openForReading(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
}
