@_spi(RewindInternals) internal import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where an open trace's lines are read from after indexing: the open file, read with `pread`
/// one line at a time, or the bytes in memory for a trace that was read whole (a pipe, or
/// `TraceFile(bytes:)`).
///
/// The file is never mapped (nor while it is indexed, see `ChunkIndex`): a file that is
/// truncated or rewritten while it is open (a new recording with `replacing: true`) would make a
/// mapped read crash the process with SIGBUS, while `pread` just comes back short, and the line
/// is reported as unreadable.
///
/// A class because it owns the file descriptor, closed with it. Immutable, so `Sendable`; `pread`
/// does not move the file offset, so threads may read lines at the same time.
package final class TraceSource: Sendable {
    package enum Storage: Sendable {
        /// A regular file, open once (closed when the input is released).
        case file(TraceInput)
        case memory([UInt8])
    }

    package let storage: Storage

    /// Reads from the regular file `input`.
    init(file input: TraceInput) {
        storage = .file(input)
    }

    /// Reads from `bytes`.
    init(bytes: [UInt8]) {
        storage = .memory(bytes)
    }

    /// The first read of a line: enough for most lines in one call.
    static let firstReadSize = 64 << 10

    /// Calls `body` with the line that starts at `offset`, without its `\n` (or `\r\n`). The line
    /// ends at the first `\n` before `limit`, or at `limit`. Returns nil when the bytes cannot be
    /// read any more (the file shrank since it was indexed, or a read failed).
    func withLine<Result>(at offset: Int, limit: Int, _ body: (ByteView) -> Result) -> Result? {
        guard offset >= 0, limit >= offset else { return nil }
        switch storage {
        case .memory(let bytes):
            guard limit <= bytes.count else { return nil }
            return bytes.withUnsafeBytes { all in
                body(Self.line(in: ByteView(all)[offset..<limit]))
            }
        case .file(let input):
            return readLine(input.file.rawValue, at: offset, limit: limit, body)
        }
    }

    private func readLine<Result>(
        _ descriptor: Int32, at offset: Int, limit: Int, _ body: (ByteView) -> Result
    ) -> Result? {
        let total = limit - offset
        var capacity = max(1, min(total, Self.firstReadSize))
        var buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var filled = 0
        while true {
            if filled == capacity {
                // The line is longer than what was read: read as much again (at most up to `limit`).
                let larger = min(total, capacity * 2)
                let grown = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 16)
                grown.copyMemory(from: buffer, byteCount: filled)
                buffer.deallocate()
                buffer = grown
                capacity = larger
            }
            let wanted = min(capacity, total) - filled
            if wanted == 0 { break }  // read up to `limit` without a newline: the last line
            guard
                let count = try? SystemCalls.read(descriptor, into: buffer + filled, count: wanted, at: offset + filled)
            else { return nil }
            if let newline = memchr(buffer + filled, 0x0A, count) {
                let end = UnsafeRawPointer(newline) - UnsafeRawPointer(buffer) + 1
                return body(Self.line(in: ByteView(start: buffer, count: end)))
            }
            if count < wanted { return nil }  // the file ended before `limit`: it shrank
            filled += count
        }
        return body(Self.line(in: ByteView(start: buffer, count: filled)))
    }

    /// The most bytes `forEachLine(ofEvents:in:_:)` reads at once (more for a longer line).
    package static let blockSize = 4 << 20

    /// Calls `body` with the index and line (as `withLine` gives it) of each event of `events`, in
    /// order, reading the file in blocks of a few megabytes instead of a read per line; the line
    /// is nil when it cannot be read any more (the file shrank since it was indexed).
    func forEachLine(ofEvents events: Range<Int>, in index: TraceIndex, _ body: (Int, ByteView?) -> Void) {
        var first = events.lowerBound
        while first < events.upperBound {
            // The events whose lines fit in one block (at least one).
            let start = index.offsets[first]
            var end = first + 1
            while end < events.upperBound && index.lineLimit(of: end) - start <= Self.blockSize { end += 1 }
            let limit = index.lineLimit(of: end - 1)
            let block = first..<end
            first = end
            switch storage {
            case .memory(let bytes):
                bytes.withUnsafeBytes { all in
                    for event in block {
                        let lineLimit = index.lineLimit(of: event)
                        guard lineLimit <= all.count else {
                            body(event, nil)
                            continue
                        }
                        body(
                            event,
                            Self.line(in: ByteView(all)[index.offsets[event]..<lineLimit]))
                    }
                }
            case .file(let input):
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: limit - start, alignment: 16)
                defer { buffer.deallocate() }
                var filled = 0
                while filled < buffer.count {
                    guard
                        let count = try? SystemCalls.read(
                            input.file.rawValue, into: buffer.baseAddress! + filled, count: buffer.count - filled,
                            at: start + filled),
                        count > 0
                    else { break }
                    filled += count
                }
                for event in block {
                    let lineLimit = index.lineLimit(of: event) - start
                    guard lineLimit <= filled else {
                        body(event, nil)
                        continue
                    }
                    let offset = index.offsets[event] - start
                    body(event, Self.line(in: ByteView(UnsafeRawBufferPointer(buffer))[offset..<lineLimit]))
                }
            }
        }
    }

    /// A window of the file kept between reads, for a reader that goes through lines near each
    /// other (a chain of causes, each usually just before the last): a line inside the window is
    /// read without a system call. Memory: one window (`size` bytes, or one longer line).
    package struct Window: ~Copyable {
        private var buffer: UnsafeMutableRawBufferPointer
        /// The file offset of the buffer's first byte, and how many bytes it holds.
        private var start = 0
        private var filled = 0
        private let size: Int
        /// Whether a read starts the window at the line asked for (for a reader going forward)
        /// rather than ending it there.
        private let forward: Bool
        /// The source the buffer was filled from (nil before the first read): a line the buffer
        /// holds is handed over without looking at the source's storage, whose case binding
        /// costs a reference count update on an object the threads share.
        private var filledFrom: TraceSource?

        package init(size: Int = 1 << 20, forward: Bool = false) {
            self.size = size
            self.forward = forward
            buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 0, alignment: 16)
        }

        deinit { buffer.deallocate() }

        /// `source.withLine(at:limit:body)`, from the window when the line is in it; otherwise
        /// the window is read again to end at `limit` (reading backward costs one read per window).
        mutating func withLine<Result>(
            in source: TraceSource, at offset: Int, limit: Int, _ body: (ByteView) -> Result
        ) -> Result? {
            if filledFrom === source, offset >= start, limit >= offset, limit <= start + filled {
                return body(
                    TraceSource.line(in: ByteView(UnsafeRawBufferPointer(buffer))[(offset - start)..<(limit - start)]))
            }
            guard case .file(let input) = source.storage, offset >= 0, limit >= offset else {
                return source.withLine(at: offset, limit: limit, body)
            }
            if offset < start || limit > start + filled {
                let newStart = forward ? offset : min(offset, max(0, limit - size))
                if buffer.count < limit - newStart {
                    buffer.deallocate()
                    buffer = UnsafeMutableRawBufferPointer.allocate(
                        byteCount: max(size, limit - newStart), alignment: 16)
                }
                start = newStart
                filled = 0
                filledFrom = source
                // Going forward, the window is filled past the line, up to its size.
                let wanted = forward ? max(limit - start, min(size, buffer.count)) : limit - start
                while filled < wanted {
                    guard
                        let count = try? SystemCalls.read(
                            input.file.rawValue, into: buffer.baseAddress! + filled, count: wanted - filled,
                            at: start + filled),
                        count > 0
                    else { break }
                    filled += count
                }
                guard limit <= start + filled else { return nil }  // the file shrank
            }
            return body(
                TraceSource.line(in: ByteView(UnsafeRawBufferPointer(buffer))[(offset - start)..<(limit - start)]))
        }
    }

    /// The line at the start of `piece`: up to its first `\n`, without that `\n` and a `\r`
    /// before it; the whole piece when it has no `\n`.
    static func line(in piece: ByteView) -> ByteView {
        guard var end = piece.firstIndex(of: 0x0A) else { return piece }
        if end > 0 && piece[end - 1] == 0x0D { end -= 1 }
        return piece.prefix(end)
    }
}
