@_spi(RewindInternals) internal import RewindSupport

/// Work on each event that `TraceStream.forEachScannedLine` has done on the thread that scans a
/// large file, ahead of the calling thread: `inspector log` writes each event's row there, so
/// that rows are written while the calling thread applies the rules to the lines before them.
///
/// The work given to `set` runs on each event of the parts of the file scanned from then on, in
/// any order: `ScannedLine.prepared` is what it wrote for the event, nil where it did not run
/// (the parts scanned before, a file read on one thread, a line that is not an event) or
/// refused; the caller does the work itself then. So what the caller makes of a line must not
/// depend on whether it was prepared: only on which thread it was made.
///
/// ```swift
/// let preparer = EventPreparer()
/// preparer.set { event, output in
///     output.append(contentsOf: "\(event.seq)".utf8)
///     return true
/// }
/// try TraceStream(path: "big.jsonl").forEachScannedLine(preparing: preparer) { line in
///     if let row = line.prepared { print(String(decoding: row, as: UTF8.self)) }
///     return true
/// }
/// ```
public final class EventPreparer: Sendable {
    /// Appends what is made of an event to the buffer and returns true, or returns false and
    /// leaves the buffer as it was. The event's `index` and `line` are 0 (they are known only
    /// in file order); its bytes and members are its own.
    public typealias Work = @Sendable (ScannedEvent, inout [UInt8]) -> Bool

    /// The work, read by the scanning thread before each part and set by the caller's thread.
    /// (In a box: a closure kept in the generic `Lock` came back wrapped in one more thunk at
    /// each read, a chain that grew with every part.)
    private let work = Lock<Box?>(nil)

    private final class Box: Sendable {
        let work: Work
        init(_ work: @escaping Work) { self.work = work }
    }

    /// No work until `set`.
    public init() {}

    /// Has `work` run on the events of the parts scanned from now on.
    public func set(_ work: @escaping Work) {
        let box = Box(work)
        self.work.withLock { $0 = box }
    }

    /// The work to run now, if any.
    func current() -> Work? {
        work.withLock { $0 }?.work
    }
}
