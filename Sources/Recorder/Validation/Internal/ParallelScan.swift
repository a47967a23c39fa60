import Dispatch
import Synchronization

/// Scans the lines of a large run of whole lines on several threads at once, so that a big trace
/// is checked as JSON on every core; the validation rules are then applied in order, on the
/// calling thread, to the scanned lines.
///
/// Each worker scans its own part into its own array; the arrays are kept between calls so that
/// their memory is reused.
struct ParallelScan: ~Copyable {
    /// One line of a part, as a worker scanned it. A plain value (no references), so that
    /// the arrays of them are filled and read without reference counting.
    struct ScannedLine: Sendable {
        /// Where the line starts in its part, and its length without `\n`.
        var start: Int
        var count: Int
        var isTerminated: Bool
        /// The line's members, when it is one JSON object.
        var fields: EventFields
        /// The index of the line's error in the part's errors, or -1.
        var error: Int
    }

    /// A part's scanned lines and the errors of those that are not one JSON object.
    struct PartResult: Sendable {
        var lines: [ScannedLine] = []
        var errors: [JSONParseError] = []
    }

    /// A read-only view of a part of the chunk, handed to one worker. The chunk's memory stays
    /// valid and unchanged until `scan` returns, after every worker is done.
    private struct Part: @unchecked Sendable {
        var bytes: UnsafeRawBufferPointer
    }

    /// The number of parts a chunk is cut into.
    let width: Int
    /// Each part's scanned lines, moved out by the worker that fills them and back in when done.
    /// A Mutex guards the array of arrays; each worker holds the lock only to take and return its own.
    private let results: Mutex<[PartResult]>

    init(width: Int) {
        self.width = max(1, width)
        self.results = Mutex(Array(repeating: PartResult(), count: self.width))
    }

    /// Scans `chunk` (whole lines) on `width` threads, then calls `body` with each line and its
    /// scan, in order, until it returns false; returns whether it always returned true.
    func scan(_ chunk: UnsafeRawBufferPointer, maximumLineLength: Int, into run: inout ValidationRun) -> Bool {
        let parts = LineReader.split(chunk, into: width).map { Part(bytes: $0) }
        DispatchQueue.concurrentPerform(iterations: parts.count) { index in
            var result = results.withLock { all in
                let taken = all[index]
                all[index] = PartResult()
                return taken
            }
            result.lines.removeAll(keepingCapacity: true)
            result.errors.removeAll(keepingCapacity: true)
            let part = parts[index].bytes
            LineReader.forEachLine(in: part, maximumLineLength: maximumLineLength) { line in
                let start = line.isOverlong ? 0 : part.baseAddress.map { $0.distance(to: line.bytes.baseAddress!) } ?? 0
                var scanned = ScannedLine(start: start, count: line.isOverlong ? -1 : line.bytes.count, isTerminated: line.isTerminated, fields: EventFields(), error: -1)
                if !line.isOverlong && !ValidationRun.isEmpty(line.bytes) {
                    do throws(JSONParseError) {
                        scanned.fields = try EventScanner.scan(line.bytes)
                    } catch {
                        scanned.error = result.errors.count
                        result.errors.append(error)
                    }
                }
                result.lines.append(scanned)
                return true
            }
            results.withLock { $0[index] = result }
        }
        // In order, on this thread. Each part's result is taken out of the lock to be read.
        for (index, part) in parts.enumerated() {
            let result = results.withLock { all in
                let taken = all[index]
                all[index] = PartResult()
                return taken
            }
            defer { results.withLock { $0[index] = result } }
            let goOn = result.lines.withUnsafeBufferPointer { lines in
                for index in lines.indices {
                    let isOverlong = lines[index].count < 0
                    let start = lines[index].start
                    let bytes = UnsafeRawBufferPointer(rebasing: part.bytes[start..<(start + max(0, lines[index].count))])
                    let line = LineReader.Line(bytes: bytes, isTerminated: lines[index].isTerminated, isOverlong: isOverlong)
                    let error = lines[index].error >= 0 ? result.errors[lines[index].error] : nil
                    if !run.consume(line, scanned: lines[index].fields, error: error) { return false }
                }
                return true
            }
            if !goOn { return false }
        }
        return true
    }
}
