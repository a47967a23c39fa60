@_spi(RewindInternals) package import RewindSupport
@_spi(RewindInternals) internal import ToolSupport
@_spi(RewindInternals) import TraceJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A trace's path opened once, for every reader of it (`TraceFile`, `TraceValidator`,
/// `TransitionTally`): a regular file, read with `pread` as often as needed through the one
/// descriptor, or a stream (a pipe, a device, a file whose size says 0 as in /proc), read from
/// its start once, never opened again.
///
/// Opening never waits in `open()`: a named pipe is opened without waiting for a writer, and
/// one that no program writes to within `writerWait` is an error that says so, not "the file is
/// empty". The first bytes of a stream are read while opening (to tell an empty pipe from one
/// without a writer); `StreamReader` hands them out first.
///
/// A class because it owns the descriptor, closed with it; immutable, so `Sendable`.
package final class TraceInput: Sendable {
    /// What the path named, as it is read.
    package enum Kind: Sendable, Equatable {
        /// A regular file of `size` bytes when it was opened: read with `pread`.
        case regularFile(size: Int)
        /// Anything read from its start, once: `prefix` is what opening read of it already.
        case stream(prefix: [UInt8], description: String)
    }

    /// Why a path cannot be read as a trace at all.
    package enum Failure: Error, Equatable {
        /// A system call failed with this error number.
        case system(Int32)
        case directory
        /// A named pipe that no program wrote to within `writerWait`.
        case noWriter
        /// A stream that ended before its first byte; `description` says what it was.
        case nothingCame(description: String)

        /// What is wrong and what to do (the messages of `TraceFile(path:)`).
        package var openError: (kind: TraceOpenError.Kind, line: Int?, message: String) {
            switch self {
            case .system(let code): (.unreadable, nil, TraceInput.openMessage(code: code))
            case .directory:
                (.unreadable, nil, "is a directory, not a trace; pass one of the trace files in it (usually *.jsonl)")
            case .noWriter:
                (
                    .unreadable, nil,
                    "is a named pipe that no program writes to (none did within \(writerWait / 1000) s); start the program that writes the trace into it first, or give the trace file"
                )
            case .nothingCame(let description):
                switch description {
                case "a file": (.notATrace, 1, "the file is empty; \(TraceLoader.startsWithHeader)")
                case "a character device":
                    (
                        .notATrace, 1,
                        "is a character device that gave no bytes (such as /dev/null), not a trace; give the trace file"
                    )
                default:
                    (
                        .notATrace, 1,
                        "nothing came from \(description == "a named pipe" ? "this named pipe" : "this pipe"): the program writing to it ended without writing a trace"
                    )
                }
            }
        }
    }

    /// The path as given.
    let path: String
    package let file: FileDescriptor
    package let kind: Kind

    /// How long a named pipe may have no writer before opening gives up.
    static let writerWait = 5_000

    private init(path: String, file: consuming FileDescriptor, kind: Kind) {
        self.path = path
        self.file = file
        self.kind = kind
    }

    /// Opens `path`.
    /// - Throws: why the path cannot be read as a trace: it cannot be opened or read, it is a
    ///   directory or a named pipe that no program writes to, or it is a stream that gave no
    ///   byte at all.
    package static func open(_ path: String) throws(Failure) -> TraceInput {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, [.readOnly, .nonBlocking, .noControllingTerminal])
        } catch {
            throw .system(error.code)
        }
        let status: FileStatus
        do {
            status = try file.status()
        } catch {
            throw .system(error.code)
        }
        switch status.kind {
        case .directory:
            throw .directory
        case .regular where status.size > 0:
            do {
                try file.setBlocking()
            } catch {
                throw .system(error.code)
            }
            return TraceInput(path: path, file: file, kind: .regularFile(size: status.size))
        default:
            let named = (try? SystemCalls.status(ofPath: path, followingLinks: false))?.kind == .pipe
            let description = describe(status.kind, named: named)
            let prefix = try firstBytes(of: file, path: path, kind: status.kind, named: named, description: description)
            return TraceInput(path: path, file: file, kind: .stream(prefix: prefix, description: description))
        }
    }

    /// "a named pipe", "a pipe", "a character device", "a socket", "a file".
    private static func describe(_ kind: FileStatus.Kind, named: Bool) -> String {
        switch kind {
        case .pipe: named ? "a named pipe" : "a pipe"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .socket: "a socket"
        default: "a file"
        }
    }

    /// The first bytes of a stream, waiting for them as long as something may still write
    /// them; for a named pipe without a writer, at most `writerWait` milliseconds.
    private static func firstBytes(
        of file: borrowing FileDescriptor, path: String, kind: FileStatus.Kind, named: Bool, description: String
    ) throws(Failure) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var waited = 0
        while true {
            let result = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(SystemError) in try file.read(into: raw) }
            }
            switch result {
            case .success(let count) where count > 0:
                do {
                    try file.setBlocking()
                } catch {
                    throw .system(error.code)
                }
                return Array(buffer[..<count])
            case .success:
                // The end: of a file or a device, or a pipe that has no writer now. A named pipe
                // may get one soon; any other stream has ended without a byte.
                guard kind == .pipe && named else { throw .nothingCame(description: description) }
                guard waited < writerWait else { throw .noWriter }
                SystemCalls.pause(milliseconds: 50)
                waited += 50
            case .failure(let error) where error.code == EAGAIN || error.code == EWOULDBLOCK:
                // A writer is there but has not written yet: wait for it, as long as it takes.
                do {
                    _ = try SystemCalls.waitForInput(file.rawValue, timeoutMilliseconds: -1)
                } catch {
                    throw .system(error.code)
                }
            case .failure(let error):
                throw .system(error.code)
            }
        }
    }

    /// Whether the first byte of `bytes` that is not JSON whitespace is there and is not `{`,
    /// so that line 1 cannot be a trace header.
    static func cannotStartAHeader(_ bytes: some Collection<UInt8>) -> Bool {
        guard let first = bytes.first(where: { !JSONWhitespace.contains($0) }) else {
            return false
        }
        return first != UInt8(ascii: "{")
    }

    /// Line 1 (up to its first 64 KiB, enough to say what is wrong with it) when it cannot be
    /// a trace header, so that a reader stops there: a device that never ends (/dev/zero) or a
    /// huge binary file is not read further. Nil when line 1 may be a header.
    package func firstLineIfNotAHeader() -> [UInt8]? {
        let block: [UInt8]
        switch kind {
        case .stream(let prefix, _):
            block = prefix
        case .regularFile(let size):
            var bytes = [UInt8](repeating: 0, count: min(size, 64 << 10))
            let count = bytes.withUnsafeMutableBytes { raw in
                (try? file.read(into: raw.baseAddress!, count: raw.count, at: 0)) ?? 0
            }
            bytes.removeLast(bytes.count - count)
            block = bytes
        }
        guard Self.cannotStartAHeader(block) else { return nil }
        return Array(block[..<(block.firstIndex(of: 0x0A) ?? block.count)])
    }

    /// The input from its start, in blocks of about `blockSize` bytes: a regular file is read
    /// with `pread` (the descriptor's offset does not move, so it can be read again), a stream
    /// as it comes.
    package func chunks(blockSize: Int, maximumLineLength: Int = LineReader.maximumLineLength) -> ChunkReader {
        let source: ChunkReader.Source =
            switch kind {
            case .regularFile: .regularFile(self)
            case .stream: .stream(StreamReader(self))
            }
        return ChunkReader(source, blockSize: blockSize, maximumLineLength: maximumLineLength)
    }

    /// Reads the input from its start in blocks of about `blockSize` bytes (`chunks`), and calls
    /// `body` with the whole lines of each (see `LineReader.Chunk`) and how many bytes were read
    /// so far, until it returns false.
    /// - Throws: the system's error when a read fails.
    func forEachChunk(
        blockSize: Int, maximumLineLength: Int, _ body: (LineReader.Chunk, _ bytesRead: Int) -> Bool
    ) throws(SystemError) {
        var reader = chunks(blockSize: blockSize, maximumLineLength: maximumLineLength)
        while let (chunk, offset) = try reader.next() {
            let bytesRead = if case .lines(let bytes) = chunk { offset + bytes.count } else { offset }
            if !body(chunk, bytesRead) { return }
        }
    }

    /// An error for a failed `open`, `fstat` or `read`, saying what to do.
    static func openError(path: String, code: Int32) -> TraceOpenError {
        TraceOpenError(kind: .unreadable, path: path, message: openMessage(code: code))
    }

    /// What a failed `open`, `fstat` or `read` means, and what to do.
    static func openMessage(code: Int32) -> String {
        let reason = SystemError(code: code).reason
        let message =
            switch code {
            case ENOENT: "no such file; check the path"
            case EACCES, EPERM:
                "cannot read the file: \(reason); check its permissions (traces are created readable by their owner only)"
            case ENOTDIR: "a part of the path is not a directory; check the path"
            case EISDIR: "is a directory, not a trace; pass one of the trace files in it (usually *.jsonl)"
            case ENXIO: "cannot read: \(reason); a socket or a device without a reader cannot be read as a trace"
            default: "cannot read the file: \(reason)"
            }
        return message
    }
}

/// Reads a stream opened by `TraceInput` from its start: the bytes opening read first, then the
/// rest from the descriptor.
package struct StreamReader {
    let input: TraceInput
    private var prefixOffset = 0

    package init(_ input: TraceInput) {
        self.input = input
    }

    /// Reads at most `count` bytes into `buffer`; 0 at the end.
    package mutating func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(SystemError) -> Int {
        guard count > 0 else { return 0 }
        if case .stream(let prefix, _) = input.kind, prefixOffset < prefix.count {
            let taken = min(count, prefix.count - prefixOffset)
            prefix.withUnsafeBytes { bytes in
                buffer.copyMemory(from: bytes.baseAddress! + prefixOffset, byteCount: taken)
            }
            prefixOffset += taken
            return taken
        }
        return try input.file.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
    }
}
