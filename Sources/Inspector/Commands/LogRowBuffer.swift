/// The rows `log` writes from bytes (`EventLineWriter`), gathered in memory of its own and
/// handed to standard output 64 KB at a time: a row then costs one copy, without the checks of
/// an append to the stream's array (uniqueness, exclusive access) per row.
///
/// Whatever else is written to the stream must come after the rows gathered before it:
/// `flush(to:)` first. A class: it owns its memory.
final class LogRowBuffer {
    /// The bytes gathered when they are handed on.
    static let flushSize = 1 << 16

    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    /// The bytes gathered: whole rows, each ending with a newline.
    private(set) var count = 0

    init() {
        capacity = 2 * Self.flushSize
        base = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        base.deallocate()
    }

    /// The rows gathered, valid until the next change.
    var rows: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Whether the rows gathered should be handed on.
    var isFull: Bool { count >= Self.flushSize }

    /// Adds `row`, which ends with a newline.
    @inline(__always)
    func append(_ row: UnsafeRawBufferPointer) {
        guard let source = row.baseAddress else { return }
        if count &+ row.count > capacity { grow(to: count + row.count) }
        (base + count).copyMemory(from: source, byteCount: row.count)
        count &+= row.count
    }

    /// Lets `body` write a row (ending with a newline) of at most `room` bytes at the end, and
    /// return its length; false, nothing added, when it returns nil.
    @inline(__always)
    func append(room: Int, _ body: (UnsafeMutableRawPointer) -> Int?) -> Bool {
        if count &+ room > capacity { grow(to: count + room) }
        guard let written = body(base + count) else { return false }
        count &+= written
        return true
    }

    /// Appends the rows gathered to `stream` (which sends them on when its buffer is full) and
    /// empties the buffer.
    func flush(to stream: TextStream) {
        guard count > 0 else { return }
        let rows = UnsafeRawBufferPointer(start: base, count: count - 1)
        // The last newline is the stream's own, which ends the line.
        _ = stream.appendLine { output in
            output.append(contentsOf: rows)
            return true
        }
        count = 0
    }

    private func grow(to wanted: Int) {
        let larger = max(wanted, 2 * capacity)
        let grown = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 16)
        grown.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = grown
        capacity = larger
    }
}
