import Dispatch
@_spi(RewindInternals) internal import RewindSupport
import TraceJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a large file on several threads: each reads (`pread`) and scans parts of the file
/// (`FilePart`), and a `ScannedLineConsumer` (the validation rules; `inspector stats`' counts),
/// which must see the lines in order, is given each part as soon as it and all the parts before
/// it are scanned.
///
/// There is no step at which one thread reads while the others wait, and no barrier between
/// blocks: the copying out of the page cache, the JSON scanning and the rules all run on every
/// thread, and the threads only wait for one another when the rules fall a whole window behind.
///
/// - Every thread takes the next part not yet taken, as long as it is less than `window` parts
///   ahead of the rules (the parts in flight are the memory used: about `window` × `partSize`).
/// - Part `k` is read into slot `k % window`; its bit in `done` is set (release) when it is
///   scanned, and cleared by the thread that applied the rules to it, which then advances
///   `consumed` (release), letting part `k + window` into the slot.
/// - Whichever thread finds the next part in order scanned, and the rules free (`applying`, a
///   flag taken by compare-exchange), applies them, part after part while they are ready. So no
///   thread is set aside for the rules, and no thread waits for one that was never started.
///
/// A thread that finds nothing to do (the window full, the next part in order still being scanned)
/// yields, and after `yieldsBeforeSleeping` yields in a row sleeps briefly between looks.
///
/// The slots need no lock: a slot is written by the one thread that took its part and read by
/// the one that applies the rules to it, after the bit was seen (acquire).
///
/// `scanOnCallingThread` is the same reading for a consumer that must stay on the calling thread
/// (`TraceStream`'s body): the calling thread alone takes the parts in order, the other threads
/// only read, scan and prepare them (`EventPreparer`, into `PreparedRows`).
struct ParallelScan: ~Copyable {
    /// The number of threads.
    let width: Int
    /// The threads a large file is scanned on by default: the machine's cores, at most 8.
    static let defaultWidth = min(8, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    /// The bytes of a part, for validation, `stats` and the streaming readers alike: a part's
    /// bytes, lines and rows stay within a core's cache while they are scanned (the kernel copies
    /// a part in, and the scan reads it right after), and their memory is touched once (every
    /// page first written costs a fault, which a part of 1 MB paid for 3,000 times). Validation
    /// read parts of 1 MB until measured on an AMD EPYC with 1 MB of L2 per core: 256 KB took
    /// 6% less time and half the memory there, and the same on the machine before.
    static let preferredPartSize = 256 << 10
    /// The size of a part (the last line of a part runs on past it).
    let partSize: Int
    /// The most parts in flight: read or being read, and not yet through the rules.
    let window: Int
    private let slots: UnsafeMutablePointer<FilePart>
    /// What the `EventPreparer` made of each slot's events (`scanOnCallingThread` only).
    private let rows: UnsafeMutablePointer<PreparedRows>

    /// How many times in a row a thread with nothing to do yields before it sleeps instead. A
    /// yield is cheap when the part waited for is a few microseconds from done; but when its
    /// thread is descheduled (a busy machine), spinning on `sched_yield` until it runs again cost
    /// 10–15% more CPU time on a 1 GB trace, in about half the runs (80,000–110,000 yields).
    static let yieldsBeforeSleeping = 32
    /// The sleep of a thread that has yielded that often: short beside a part's scan (about 0.2 ms
    /// for 256 KB), so the wake-up comes soon after the part is ready.
    static let idleSleep = 50_000

    /// - Parameters:
    ///   - width: the number of threads, 1 to 16.
    ///   - partSize: the bytes of a part.
    init(width: Int, partSize: Int) {
        self.width = max(1, min(width, 16))
        self.partSize = max(1, partSize)
        // Enough parts that a thread rarely waits for the rules, few enough to bound memory.
        self.window = min(UInt.bitWidth, 3 * self.width)
        slots = .allocate(capacity: window)
        slots.initialize(repeating: FilePart(), count: window)
        // `initialize(repeating:)` copied one part (and its buffer pointer) into every slot.
        for index in 1..<window { slots[index] = FilePart() }
        rows = .allocate(capacity: window)
        rows.initialize(repeating: PreparedRows(), count: window)
    }

    deinit {
        for index in 0..<window { slots[index].deallocate() }
        slots.deinitialize(count: window)
        slots.deallocate()
        rows.deinitialize(count: window)
        rows.deallocate()
    }

    /// What a scan ended with.
    package enum Outcome {
        /// Every line was given to the rules (or they stopped: not a trace).
        case finished
        /// A read failed with this error number.
        case readFailed(Int32)
    }

    /// The threads' shared state for one `scan`. `concurrentPerform` returns only when every
    /// thread is done, so it outlives every use. Unchecked: the consumer (perhaps not `Sendable`,
    /// a command's closure in it) is used by one thread at a time, the one that took `applying`
    /// (acquire) after the last one let go of it (release).
    private struct Shared<Consumer: ScannedLineConsumer>: @unchecked Sendable {
        let slots: UnsafeMutablePointer<FilePart>
        /// The consumer, and what else only the thread applying the rules touches.
        let run: UnsafeMutablePointer<Consumer>
        let rules: UnsafeMutablePointer<RuleState>
        let progress: (Int) -> Void
    }

    /// Touched only by the thread applying the rules.
    private struct RuleState {
        /// The error number of the first failed read, or 0.
        var failure: Int32 = 0
        /// The progress reported so far.
        var reported = 0
    }

    /// Reads the regular file open as `descriptor` from its start and has `run` consume every
    /// line, in order. `progress` gets the bytes read so far, after each part, from one thread at
    /// a time.
    func scan<Consumer: ScannedLineConsumer>(
        descriptor: Int32, maximumLineLength: Int, into run: inout Consumer, progress: (Int) -> Void = { _ in }
    ) -> Outcome {
        let slots = slots
        let width = width
        let window = window
        let partSize = partSize
        var rules = RuleState()
        return withoutActuallyEscaping(progress) { progress in
            withUnsafeMutablePointer(to: &rules) { rules in
                withUnsafeMutablePointer(to: &run) { run in
                    let shared = Shared(slots: slots, run: run, rules: rules, progress: progress)
                    let taken = AtomicCell<Int>(0)  // parts handed out so far
                    let consumed = AtomicCell<Int>(0)  // parts through the rules
                    let done = AtomicCell<UInt>(0)  // bit s: the part in slot s is scanned
                    let applying = AtomicCell<Bool>(false)  // a thread is applying the rules
                    let finished = AtomicCell<Bool>(false)  // the rules need no more parts

                    /// Applies the rules to the parts that are next in order and scanned; false when
                    /// another thread is applying them or the next part is not ready.
                    @Sendable func applyReadyParts() -> Bool {
                        guard applying.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
                        else { return false }
                        defer { applying.store(false, ordering: .releasing) }
                        var applied = false
                        var next = consumed.load(ordering: .relaxed)
                        while !finished.load(ordering: .relaxed) {
                            let slot = next % window
                            guard done.load(ordering: .acquiring) & (1 &<< UInt(slot)) != 0 else { break }
                            let part = shared.slots[slot]
                            if part.readError != 0 {
                                shared.rules.pointee.failure = part.readError
                                finished.store(true, ordering: .relaxed)
                            } else if !Self.consume(part, into: &shared.run.pointee) || part.endsFile {
                                finished.store(true, ordering: .relaxed)
                            }
                            if part.end > shared.rules.pointee.reported {
                                shared.rules.pointee.reported = part.end
                                shared.progress(part.end)
                            }
                            done.bitwiseAnd(~(1 &<< UInt(slot)), ordering: .relaxed)
                            next += 1
                            consumed.store(next, ordering: .releasing)
                            applied = true
                        }
                        return applied
                    }

                    /// Takes the next part, if the window allows, and reads and scans it; false when none
                    /// could be taken.
                    @Sendable func scanNextPart() -> Bool {
                        guard let part = Self.takePart(taken, consumed: consumed, window: window) else { return false }
                        let slot = part % window
                        shared.slots[slot].read(
                            descriptor: descriptor, index: part, size: partSize, maximumLineLength: maximumLineLength)
                        done.bitwiseOr(1 &<< UInt(slot), ordering: .releasing)
                        return true
                    }

                    DispatchQueue.concurrentPerform(iterations: width) { _ in
                        var idle = 0  // turns in a row with nothing to do
                        while !finished.load(ordering: .relaxed) {
                            if applyReadyParts() || scanNextPart() {
                                idle = 0
                                continue
                            }
                            // The next part in order is being scanned by another thread, and the
                            // window is full: wait for it.
                            Self.wait(&idle)
                        }
                    }
                    return rules.pointee.failure != 0 ? .readFailed(rules.pointee.failure) : .finished
                }
            }
        }
    }

    /// The threads' shared state for one `scanOnCallingThread`, which waits for every scanning
    /// thread to end before it returns, so it outlives every use. Unchecked: a slot (and its
    /// rows) is written by the one thread that took its part and read by the calling thread
    /// after its bit in `done` was seen (acquire), as in `scan`.
    private struct Handover: @unchecked Sendable {
        let slots: UnsafeMutablePointer<FilePart>
        let rows: UnsafeMutablePointer<PreparedRows>
        let preparer: EventPreparer?
        let taken = AtomicCell<Int>(0)  // parts handed out so far
        let consumed = AtomicCell<Int>(0)  // parts given to the body
        let done = AtomicCell<UInt>(0)  // bit s: the part in slot s is scanned
        let finished = AtomicCell<Bool>(false)  // the body needs no more parts
    }

    /// Reads the regular file open as `descriptor` from its start and calls `body` with each of
    /// its lines, in order, with its fields when it was scanned as one JSON object, or why it is
    /// not one (`error`), and what `preparer` made of it (nil for none), until `body` returns
    /// false or the file ends. The header (line 1 of part 0), empty lines and overlong lines are
    /// given unscanned (their fields are empty).
    ///
    /// `body` runs only on the calling thread (`TraceStream`'s body is public API: it must not
    /// hop threads), each part's lines as soon as it and the parts before it are scanned. The
    /// other `width - 1` threads read, scan and prepare the parts ahead of it (at most `window`
    /// in flight); the calling thread scans the first part itself (its rows come at once), and a
    /// later part when the next one in order is not ready, but does not prepare them (`body`
    /// makes those rows itself). A `body` that stops stops the threads: this returns once they
    /// have ended.
    func scanOnCallingThread(
        descriptor: Int32, maximumLineLength: Int, preparer: EventPreparer? = nil,
        _ body: (LineReader.Line, ScannedFields, JSONParseError?, ByteView?) -> Bool
    ) -> Outcome {
        let window = window
        let partSize = partSize
        let shared = Handover(slots: slots, rows: rows, preparer: preparer)

        /// Takes the next part, if the window allows, and reads, scans and (on a scanning
        /// thread) prepares it; false when none could be taken.
        @Sendable func scanNextPart(preparing: Bool) -> Bool {
            guard let part = Self.takePart(shared.taken, consumed: shared.consumed, window: window) else {
                return false
            }
            scan(part, preparing: preparing)
            return true
        }

        /// Reads, scans and (with `preparing`) prepares `part`, taken.
        @Sendable func scan(_ part: Int, preparing: Bool) {
            let slot = part % window
            shared.slots[slot].read(
                descriptor: descriptor, index: part, size: partSize, maximumLineLength: maximumLineLength)
            if preparing, shared.slots[slot].readError == 0, let work = shared.preparer?.current() {
                // Not to the end of the part once the body stopped: the stop waits for this thread.
                shared.rows[slot].prepare(shared.slots[slot], with: work) {
                    !shared.finished.load(ordering: .relaxed)
                }
            } else {
                shared.rows[slot].clear()
            }
            shared.done.bitwiseOr(1 &<< UInt(slot), ordering: .releasing)
        }

        // The first part is read on this thread, not prepared: its rows come at once, not after
        // a scanning thread made them (or after this thread scanned a later part).
        shared.taken.store(1, ordering: .relaxed)
        let scanning = DispatchGroup()
        for _ in 1..<width {
            DispatchQueue.global(qos: .userInitiated).async(group: scanning) {
                var idle = 0  // turns in a row with nothing to do
                while !shared.finished.load(ordering: .relaxed) {
                    if scanNextPart(preparing: true) {
                        idle = 0
                    } else {
                        Self.wait(&idle)
                    }
                }
            }
        }
        defer {
            // The slots are freed with `self`: no scanning thread may be left using one.
            shared.finished.store(true, ordering: .relaxed)
            scanning.wait()
        }
        scan(0, preparing: false)
        var next = 0  // the next part in order
        var idle = 0
        while true {
            let slot = next % window
            guard shared.done.load(ordering: .acquiring) & (1 &<< UInt(slot)) != 0 else {
                // Not scanned yet: scan a part meanwhile, or wait.
                if scanNextPart(preparing: false) {
                    idle = 0
                } else {
                    Self.wait(&idle)
                }
                continue
            }
            idle = 0
            let part = slots + slot
            if part.pointee.readError != 0 { return .readFailed(part.pointee.readError) }
            guard Self.giveLines(of: part, rows: rows + slot, to: body), !part.pointee.endsFile else {
                return .finished
            }
            shared.done.bitwiseAnd(~(1 &<< UInt(slot)), ordering: .relaxed)
            next += 1
            shared.consumed.store(next, ordering: .releasing)
        }
    }

    /// The next part to read, taken from `taken` (the parts handed out so far) when the window
    /// allows it (fewer than `window` parts ahead of the `consumed` ones); nil when it does not.
    private static func takePart(_ taken: AtomicCell<Int>, consumed: AtomicCell<Int>, window: Int) -> Int? {
        var part = taken.load(ordering: .relaxed)
        while true {
            guard part < consumed.load(ordering: .acquiring) + window else { return nil }
            let (exchanged, original) = taken.compareExchange(expected: part, desired: part + 1, ordering: .relaxed)
            if exchanged { return part }
            part = original
        }
    }

    /// A thread with nothing to do waits for another: it yields at first, then sleeps.
    private static func wait(_ idle: inout Int) {
        idle += 1
        if idle < yieldsBeforeSleeping {
            sched_yield()
        } else {
            SystemCalls.sleep(nanoseconds: idleSleep)
        }
    }

    /// Gives the lines of the part in `slot` to `body`, with what was prepared of them; false
    /// when it stopped.
    private static func giveLines(
        of slot: UnsafeMutablePointer<FilePart>, rows: UnsafeMutablePointer<PreparedRows>,
        to body: (LineReader.Line, ScannedFields, JSONParseError?, ByteView?) -> Bool
    ) -> Bool {
        let bytes = UnsafeRawPointer(slot.pointee.bytes)
        return rows.pointee.bytes.withUnsafeBytes { prepared in
            slot.pointee.lines.withUnsafeBufferPointer { lines in
                slot.pointee.errors.withUnsafeBufferPointer { errors in
                    for index in lines.indices {
                        let isOverlong = lines[index].count < 0
                        let line = LineReader.Line(
                            bytes: ByteView(start: bytes + lines[index].start, count: max(0, lines[index].count)),
                            isTerminated: !isOverlong && lines[index].isTerminated, isOverlong: isOverlong)
                        let error = lines[index].error >= 0 ? errors[lines[index].error] : nil
                        // By pointer: the fields (150 bytes) are not copied per line.
                        let fields = ScannedFields((lines.baseAddress! + index).pointer(to: \.fields)!)
                        if !body(line, fields, error, rows.pointee.line(index, in: ByteView(prepared))) { return false }
                    }
                    return true
                }
            }
        }
    }

    /// Has `run` consume the lines of `part`; false when it stopped.
    private static func consume<Consumer: ScannedLineConsumer>(_ part: borrowing FilePart, into run: inout Consumer)
        -> Bool
    {
        let bytes = UnsafeRawPointer(part.bytes)
        return part.lines.withUnsafeBufferPointer { lines in
            part.errors.withUnsafeBufferPointer { errors in
                for index in lines.indices {
                    let isOverlong = lines[index].count < 0
                    let line = LineReader.Line(
                        bytes: ByteView(start: bytes + lines[index].start, count: max(0, lines[index].count)),
                        isTerminated: lines[index].isTerminated, isOverlong: isOverlong)
                    // By pointer: passing `lines[index].fields` copied the fields (150 bytes) per line.
                    let fields = ScannedFields((lines.baseAddress! + index).pointer(to: \.fields)!)
                    // Two calls, not one with an optional error: that optional was released after
                    // every line (two runtime calls), though almost every line has no error.
                    let error = lines[index].error
                    guard
                        error < 0
                            ? run.consume(line, scanned: fields, error: nil)
                            : run.consume(line, scanned: fields, error: errors[error])
                    else { return false }
                }
                return true
            }
        }
    }
}
