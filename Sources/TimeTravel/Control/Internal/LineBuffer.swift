/// The bytes received on a connection, cut into lines: a message is a line, at most `limit`
/// bytes before its `\n`.
struct LineBuffer {
    let limit: Int
    private var bytes: [UInt8] = []

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether part of a line has come and not its end.
    var hasPartialLine: Bool { !bytes.isEmpty }

    /// Whether the part of a line that has come is already longer than a message may be.
    var isOverLimit: Bool { bytes.count > limit }

    mutating func append(_ chunk: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: chunk)
    }

    /// The next complete line, without its `\n` (and a `\r` before it); nil when none is there.
    mutating func nextLine() -> [UInt8]? {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return nil }
        var line = Array(bytes[..<newline])
        bytes.removeSubrange(...newline)
        if line.last == 0x0D { line.removeLast() }
        return line
    }
}
