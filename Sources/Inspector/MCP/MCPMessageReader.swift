@_spi(RewindInternals) internal import RewindSupport

/// Reads newline-delimited messages (the MCP standard input/output transport) from a file
/// descriptor, each at most `limit` bytes. A longer line is not kept: its bytes are dropped as
/// they come until its newline, and it is handed on as `.tooLong`, so that no message can make
/// the server hold more than `limit` bytes or stop answering.
struct MCPMessageReader {
    /// One line read.
    enum Message: Equatable {
        /// A line, without its `\n` (nor a `\r` before it).
        case line([UInt8])
        /// A line longer than the limit, dropped; `byteCount` is how long it was.
        case tooLong(byteCount: Int)
    }

    /// The longest message kept: 4 MiB.
    static let defaultLimit = 4 << 20

    let limit: Int
    private let read: (UnsafeMutableRawBufferPointer) -> Int
    private var pending: [UInt8] = []
    private var start = 0
    private var dropping: Int?
    private var ended = false

    /// A reader of `descriptor` (0: standard input).
    init(descriptor: Int32, limit: Int = MCPMessageReader.defaultLimit) {
        self.init(limit: limit) { buffer in
            (try? SystemCalls.read(descriptor, into: buffer)) ?? 0
        }
    }

    /// A reader of whatever `read` gives: the bytes it puts in the buffer, 0 at the end.
    init(limit: Int = MCPMessageReader.defaultLimit, read: @escaping (UnsafeMutableRawBufferPointer) -> Int) {
        self.limit = limit
        self.read = read
    }

    /// The next message, or nil at the end of input (a last line without `\n` is a message).
    mutating func next() -> Message? {
        while true {
            if let newline = pending[start...].firstIndex(of: 10) {
                var end = newline
                defer { start = newline + 1 }
                if let dropped = dropping {
                    dropping = nil
                    return .tooLong(byteCount: dropped + (newline - start))
                }
                if newline - start > limit { return .tooLong(byteCount: newline - start) }
                if end > start && pending[end - 1] == 13 { end -= 1 }
                return .line(Array(pending[start..<end]))
            }
            if let dropped = dropping {
                dropping = dropped + (pending.count - start)
                pending.removeAll(keepingCapacity: true)
                start = 0
            } else if pending.count - start > limit {
                dropping = pending.count - start
                pending.removeAll(keepingCapacity: true)
                start = 0
            }
            if ended {
                defer {
                    pending.removeAll()
                    start = 0
                    dropping = nil
                }
                if let dropped = dropping { return .tooLong(byteCount: dropped) }
                guard pending.count > start else { return nil }
                return .line(Array(pending[start...]))
            }
            if start > 0 {
                pending.removeSubrange(..<start)
                start = 0
            }
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            let count = chunk.withUnsafeMutableBytes { read($0) }
            if count <= 0 {
                ended = true
            } else {
                pending.append(contentsOf: chunk[..<count])
            }
        }
    }
}
