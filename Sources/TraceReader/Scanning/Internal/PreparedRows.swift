@_spi(RewindInternals) internal import RewindSupport
import TraceJSON

/// What an `EventPreparer` made of the events of one part of a file (`FilePart`), on the thread
/// that scanned it (`ParallelScan.scanOnCallingThread`): line `index`'s bytes are
/// `bytes[starts[index]..<starts[index + 1]]`, none when `starts[index]` is -1. Empty when
/// nothing was prepared.
struct PreparedRows {
    var bytes: [UInt8] = []
    /// One per line, and the end of the last.
    var starts: [Int] = []

    /// The lines prepared between two looks at whether to go on.
    static let batchLines = 256

    /// Runs `work` on each event of `part` (scanned), while `keepGoing` (asked every
    /// `batchLines` lines) says so: the lines after are left not prepared.
    mutating func prepare(
        _ part: borrowing FilePart, with work: EventPreparer.Work, while keepGoing: () -> Bool = { true }
    ) {
        bytes.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        let base = UnsafeRawPointer(part.bytes)
        part.lines.withUnsafeBufferPointer { lines in
            for index in lines.indices {
                if index > 0 && index % Self.batchLines == 0 && !keepGoing() { break }
                let line = lines.baseAddress! + index
                let start = bytes.count
                if line.pointee.count > 0 && line.pointee.error < 0,
                    let event = ScannedEvent(
                        fields: ScannedFields(line.pointer(to: \.fields)!),
                        bytes: ByteView(start: base + line.pointee.start, count: line.pointee.count),
                        index: 0, line: 0),
                    work(event, &bytes)
                {
                    starts.append(start)
                } else {
                    bytes.removeSubrange(start...)
                    starts.append(-1)
                }
            }
        }
        starts.append(bytes.count)
    }

    /// Forgets what was prepared: no line has prepared bytes.
    mutating func clear() {
        bytes.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
    }

    /// The bytes prepared for line `index`, if any, in `buffer` (`bytes`).
    @inline(__always)
    func line(_ index: Int, in buffer: ByteView) -> ByteView? {
        guard index < starts.count - 1, starts[index] >= 0 else { return nil }
        var end = index + 1
        while starts[end] < 0 { end += 1 }
        return buffer[starts[index]..<starts[end]]
    }
}
