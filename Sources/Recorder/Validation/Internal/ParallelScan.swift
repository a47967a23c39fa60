import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Scans the lines of a large run of whole lines on several threads at once, so that a big trace
/// is checked as JSON on every core, while the validation rules are applied to the lines already
/// scanned, in order.
///
/// The run is cut into parts (several per thread). Every thread takes the next part not yet
/// taken and scans it; one of them (the consumer) also applies the rules to finished parts, in
/// order, whenever the next one is ready, and scans a part itself only while it is not. So the
/// rules, which one thread must apply in order, overlap with the scanning of later parts instead
/// of waiting for all of it.
///
/// Each part's scanned lines go to its own slot, kept between calls so their memory is reused.
/// A slot is written by the one thread that took the part and read by the consumer after it sees
/// the part's bit in `done` (release/acquire), so the slots need no lock.
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

    /// The number of threads.
    let width: Int
    /// Parts per thread: enough that the consumer rarely waits, few enough to keep parts large.
    static let partsPerThread = 4
    /// The most parts a run is cut into (one bit each in `done`).
    private var slotCount: Int { min(64, width * Self.partsPerThread) }
    /// One result per part.
    private let slots: UnsafeMutablePointer<PartResult>

    init(width: Int) {
        self.width = max(1, min(width, 16))
        let count = min(64, self.width * Self.partsPerThread)
        slots = .allocate(capacity: count)
        slots.initialize(repeating: PartResult(), count: count)
    }

    deinit {
        slots.deinitialize(count: slotCount)
        slots.deallocate()
    }

    /// The slots and the parts, handed to the threads of one `scan`, and the run, which only the
    /// consumer touches. `concurrentPerform` returns only when every thread is done, so all of
    /// them outlive every use.
    private struct Shared: @unchecked Sendable {
        let slots: UnsafeMutablePointer<PartResult>
        let parts: [UnsafeRawBufferPointer]
        let run: UnsafeMutablePointer<ValidationRun>
    }

    /// Scans `chunk` (whole lines) on `width` threads and has `run` consume each line and its
    /// scan, in order, until it returns false; returns whether it always returned true.
    func scan(_ chunk: UnsafeRawBufferPointer, maximumLineLength: Int, into run: inout ValidationRun) -> Bool {
        let parts = LineReader.split(chunk, into: slotCount)
        let slots = slots
        let width = width
        return withUnsafeMutablePointer(to: &run) { run in
            let shared = Shared(slots: slots, parts: parts, run: run)
            let partCount = parts.count
            let taken = Atomic<Int>(0)  // parts handed out so far (may run past partCount)
            let done = Atomic<UInt64>(0)  // bit p: part p is scanned
            let stopped = Atomic<Bool>(false)

            /// Takes the next part, scans it, marks it done; false when none was left.
            @Sendable func scanNextPart() -> Bool {
                let part = taken.wrappingAdd(1, ordering: .relaxed).oldValue
                guard part < partCount else { return false }
                Self.scanPart(shared.parts[part], into: &shared.slots[part], maximumLineLength: maximumLineLength)
                done.bitwiseOr(1 &<< UInt64(part), ordering: .releasing)
                return true
            }

            DispatchQueue.concurrentPerform(iterations: width) { role in
                guard role == 0 else {
                    while scanNextPart() {}
                    return
                }
                // The consumer: the rules for each part in order, scanning while the next is not ready.
                var next = 0
                while next < partCount {
                    if done.load(ordering: .acquiring) & (1 &<< UInt64(next)) != 0 {
                        if !Self.consumePart(shared.parts[next], shared.slots[next], into: &shared.run.pointee) {
                            stopped.store(true, ordering: .relaxed)
                            taken.store(partCount, ordering: .relaxed)  // the others stop after their part
                            return
                        }
                        next &+= 1
                    } else if !scanNextPart() {
                        sched_yield()  // another thread is finishing part `next`
                    }
                }
            }
            return !stopped.load(ordering: .relaxed)
        }
    }

    /// Scans every line of `part` into `result`.
    private static func scanPart(_ part: UnsafeRawBufferPointer, into result: inout PartResult, maximumLineLength: Int) {
        result.lines.removeAll(keepingCapacity: true)
        result.errors.removeAll(keepingCapacity: true)
        LineReader.forEachLine(in: part, maximumLineLength: maximumLineLength) { line in
            let start = line.isOverlong ? 0 : part.baseAddress.map { $0.distance(to: line.bytes.baseAddress!) } ?? 0
            result.lines.append(ScannedLine(start: start, count: line.isOverlong ? -1 : line.bytes.count, isTerminated: line.isTerminated, fields: EventFields(), error: -1))
            if !line.isOverlong && !ValidationRun.isEmpty(line.bytes) {
                // Scanned in place: the fields are not copied on their way into the array.
                let error: JSONParseError? = result.lines.withUnsafeMutableBufferPointer { lines in
                    do throws(JSONParseError) {
                        try EventScanner.scan(line.bytes, into: &lines[lines.count &- 1].fields)
                        return nil
                    } catch {
                        return error
                    }
                }
                if let error {
                    result.lines[result.lines.count - 1].error = result.errors.count
                    result.errors.append(error)
                }
            }
            return true
        }
    }

    /// Has `run` consume the lines of `part` as `result` scanned them; false when it stopped.
    private static func consumePart(_ part: UnsafeRawBufferPointer, _ result: borrowing PartResult, into run: inout ValidationRun) -> Bool {
        result.lines.withUnsafeBufferPointer { lines in
            for index in lines.indices {
                let isOverlong = lines[index].count < 0
                let start = lines[index].start
                let bytes = UnsafeRawBufferPointer(rebasing: part[start..<(start + max(0, lines[index].count))])
                let line = LineReader.Line(bytes: bytes, isTerminated: lines[index].isTerminated, isOverlong: isOverlong)
                let error = lines[index].error >= 0 ? result.errors[lines[index].error] : nil
                if !run.consume(line, scanned: lines[index].fields, error: error) { return false }
            }
            return true
        }
    }
}
