import Dispatch
@_spi(RewindInternals) internal import RewindSupport
import TraceJSON

/// Reads a regular file for `TraceStream` on two threads: one thread of its own reads the parts
/// of the file (`FilePart`: `pread`, the lines found, each checked as strict JSON into its
/// fields), while the calling thread takes the scanned parts in file order and gives their
/// lines, with their fields, to the rules and to what the command does with each line (`log`
/// writing its rows). So the strict JSON scan of one part runs while the rows of the part before
/// it are written.
///
/// Memory is bounded: at most `window` parts are in flight (read, or being read, and not yet
/// given back by the calling thread), each about `partSize` bytes plus its scanned lines.
///
/// The parts are handed over in order through `HandOver`, behind `Lock` (RewindSupport, a
/// pthread mutex, which Thread Sanitizer sees; `Synchronization.Mutex` it does not, on Linux):
/// part `k` is in slot `k % window`; the reading thread fills a slot only after the calling
/// thread counted it given back (`consumed`), and the calling thread reads a slot only after the
/// reading thread counted it scanned (`scanned`). Two semaphores only wake the thread that waits.
///
/// With an `EventPreparer`, the reading thread also runs its work on each event of a part it
/// scanned (once the work is set), into the slot's `Prepared` bytes, handed over with the part;
/// but not when the calling thread is waiting for the part.
///
/// Nor does it go on scanning a part once the calling thread waits for it: it scans (and
/// prepares) a batch of lines at a time, and as soon as the calling thread has nothing left, it
/// hands the part over as it is, the calling thread scans the lines left (and makes the rows not
/// prepared), and the reading thread goes on to read the next part. So the work of a part is
/// shared between the two threads whichever has more to do per line (`log` without the
/// preparer: the calling thread) instead of one waiting.
struct ScanPipeline: ~Copyable {
    /// The bytes of a part (its last line runs on past it).
    let partSize: Int
    /// The most parts in flight.
    let window: Int
    private let slots: UnsafeMutablePointer<FilePart>
    /// What the preparer made of each slot's events.
    private let prepared: UnsafeMutablePointer<Prepared>

    /// What an `EventPreparer` made of the events of one part: line `index`'s bytes are
    /// `bytes[starts[index]..<starts[index + 1]]`, none when `starts[index]` is -1. Empty when
    /// nothing was prepared.
    struct Prepared {
        var bytes: [UInt8] = []
        /// One per line, and the end of the last.
        var starts: [Int] = []

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
                    if index > 0 && index % ScanPipeline.batchLines == 0 && !keepGoing() { break }
                    let line = lines.baseAddress! + index
                    let start = bytes.count
                    if line.pointee.count > 0 && line.pointee.error < 0,
                        let event = ScannedEvent(
                            fields: line.pointer(to: \.fields)!,
                            bytes: UnsafeRawBufferPointer(start: base + line.pointee.start, count: line.pointee.count),
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

        /// The bytes prepared for line `index`, if any, in `buffer` (`bytes`).
        @inline(__always)
        func line(_ index: Int, in buffer: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
            guard index < starts.count - 1, starts[index] >= 0 else { return nil }
            var end = index + 1
            while starts[end] < 0 { end += 1 }
            return UnsafeRawBufferPointer(rebasing: buffer[starts[index]..<starts[end]])
        }
    }

    /// The lines scanned or prepared between two looks at whether the calling thread waits.
    static let batchLines = 256

    /// - Parameters:
    ///   - partSize: the bytes of a part.
    ///   - window: the most parts in flight, at least 2 (one read while one is used).
    init(partSize: Int, window: Int = 4) {
        self.partSize = max(1, partSize)
        self.window = max(2, window)
        slots = .allocate(capacity: self.window)
        for index in 0..<self.window { (slots + index).initialize(to: FilePart()) }
        prepared = .allocate(capacity: self.window)
        prepared.initialize(repeating: Prepared(), count: self.window)
    }

    deinit {
        for index in 0..<window { slots[index].deallocate() }
        slots.deinitialize(count: window)
        slots.deallocate()
        prepared.deinitialize(count: window)
        prepared.deallocate()
    }

    /// How a reading ended.
    package enum Outcome: Equatable {
        /// Every line of the file was given.
        case finished
        /// `body` returned false.
        case stopped
        /// A read failed with this error number.
        case readFailed(Int32)
    }

    /// What the two threads share, behind `HandOver`'s lock.
    private struct HandOver {
        /// The parts the reading thread has scanned.
        var scanned = 0
        /// The parts the calling thread is done with.
        var consumed = 0
        /// Set by the calling thread when it needs no more parts.
        var stop = false
    }

    /// The reading thread's view of the pipeline. `@unchecked Sendable`: `slots` is a pointer,
    /// and each slot is touched by one thread at a time, as `HandOver` says (see the type's
    /// comment); `read` waits for the reading thread to end before it returns.
    private struct Shared: @unchecked Sendable {
        let slots: UnsafeMutablePointer<FilePart>
        let prepared: UnsafeMutablePointer<Prepared>
        let preparer: EventPreparer?
        let handOver: Lock<HandOver>
        /// Signalled once per part scanned, and once per slot given back (or at the stop).
        let ready = DispatchSemaphore(value: 0)
        let free = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
    }

    /// Reads the regular file `input` from its start and calls `body` with each of
    /// its lines, in order, with its fields when it was scanned as one JSON object, or why it is
    /// not one (`error`), and what `preparer` made of it (nil for none), until `body` returns
    /// false or the file ends. The header (line 1 of part 0), empty lines and overlong lines are
    /// given unscanned (their fields are empty).
    func read(
        _ input: TraceInput, maximumLineLength: Int, preparer: EventPreparer? = nil,
        _ body: (LineReader.Line, UnsafePointer<EventFields>, JSONParseError?, UnsafeRawBufferPointer?) -> Bool
    ) -> Outcome {
        let shared = Shared(slots: slots, prepared: prepared, preparer: preparer, handOver: Lock(HandOver()))
        // Made at 0 and signalled: libdispatch traps when a semaphore is freed below the value it
        // was made with, as `free` is when the reading stops early.
        for _ in 0..<window { shared.free.signal() }
        let window = window
        let partSize = partSize
        // `input` outlives the reading thread: `read` waits for its end.
        let descriptor = input.file.rawValue
        DispatchQueue.global(qos: .userInitiated).async {
            Self.readParts(
                shared, descriptor: descriptor, window: window, partSize: partSize,
                maximumLineLength: maximumLineLength)
        }
        defer {
            // The reading thread may be waiting for a free slot: stop it, and wait for its end
            // before the slots can be freed.
            shared.handOver.withLock { $0.stop = true }
            shared.free.signal()
            shared.ended.wait()
        }
        var part = 0
        while true {
            shared.ready.wait()
            // Taken under the lock, so that what the reading thread wrote to the slot is seen.
            let isScanned = shared.handOver.withLock { $0.scanned > part }
            guard isScanned else { continue }
            let slot = slots + part % window
            if slot.pointee.readError != 0 { return .readFailed(slot.pointee.readError) }
            slot.pointee.scanLines()
            guard Self.giveLines(of: slot, prepared: prepared + part % window, to: body) else { return .stopped }
            if slot.pointee.endsFile { return .finished }
            shared.handOver.withLock { $0.consumed = part + 1 }
            shared.free.signal()
            part += 1
        }
    }

    /// The reading thread: reads and scans part after part into the free slots, until the file
    /// ends, a read fails or the calling thread stops it.
    private static func readParts(
        _ shared: Shared, descriptor: Int32, window: Int, partSize: Int, maximumLineLength: Int
    ) {
        defer { shared.ended.signal() }
        var part = 0
        while true {
            shared.free.wait()
            let (stop, consumed) = shared.handOver.withLock { ($0.stop, $0.consumed) }
            if stop { return }
            // A signal of `free` without a slot given back (cannot happen but at the stop).
            guard part < consumed + window else { continue }
            let slot = shared.slots + part % window
            slot.pointee.read(
                descriptor: descriptor, index: part, size: partSize, maximumLineLength: maximumLineLength,
                scanning: false)
            let prepared = shared.prepared + part % window
            // Scanned and prepared, a batch of lines at a time, only while the calling thread is
            // busy with a part before this one: once it waits for this one, the part is handed
            // over as it is and the calling thread does the rest, so that neither thread waits
            // for the other for long.
            let isBusy = { shared.handOver.withLock { $0.scanned - $0.consumed } > 0 }
            var busy = isBusy()
            while busy && !slot.pointee.isScanned {
                slot.pointee.scanLines(upTo: slot.pointee.scannedLines + Self.batchLines)
                busy = isBusy()
            }
            if busy, let work = shared.preparer?.current() {
                prepared.pointee.prepare(slot.pointee, with: work, while: isBusy)
            } else if !prepared.pointee.starts.isEmpty {
                prepared.pointee = Prepared()
            }
            let isLast = slot.pointee.endsFile || slot.pointee.readError != 0
            shared.handOver.withLock { $0.scanned = part + 1 }
            shared.ready.signal()
            if isLast { return }
            part += 1
        }
    }

    /// Gives the lines of the part in `slot` to `body`; false when it stopped.
    private static func giveLines(
        of slot: UnsafeMutablePointer<FilePart>, prepared: UnsafeMutablePointer<Prepared>,
        to body: (LineReader.Line, UnsafePointer<EventFields>, JSONParseError?, UnsafeRawBufferPointer?) -> Bool
    ) -> Bool {
        let bytes = UnsafeRawPointer(slot.pointee.bytes)
        return prepared.pointee.bytes.withUnsafeBytes { rows in
            slot.pointee.lines.withUnsafeBufferPointer { lines in
                slot.pointee.errors.withUnsafeBufferPointer { errors in
                    for index in lines.indices {
                        let isOverlong = lines[index].count < 0
                        // An overlong line, as `LineReader.forEachChunk` gives it: not terminated.
                        let line = LineReader.Line(
                            bytes: UnsafeRawBufferPointer(
                                start: bytes + lines[index].start, count: max(0, lines[index].count)),
                            isTerminated: !isOverlong && lines[index].isTerminated, isOverlong: isOverlong)
                        let error = lines[index].error >= 0 ? errors[lines[index].error] : nil
                        // By pointer: the fields (150 bytes) are not copied per line.
                        let fields = (lines.baseAddress! + index).pointer(to: \.fields)!
                        if !body(line, fields, error, prepared.pointee.line(index, in: rows)) { return false }
                    }
                    return true
                }
            }
        }
    }
}
