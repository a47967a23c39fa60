import Recorder
@_spi(RewindInternals) internal import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The index of one piece of a trace's body: a run of whole lines that one thread indexes on its
/// own. `TraceIndexer` cuts the body into pieces and joins their indices in file order.
///
/// Line numbers and store ids here are local to the piece: lines count from 0 at the piece's
/// first line, and store ids are the piece's `stores` table's.
struct ChunkIndex: Sendable {
    /// Each event's byte offset in the file.
    var offsets: [Int] = []
    /// Each event's `seq`.
    var seqs = IntegerColumn()
    /// Each event's line, from 0 at the piece's first line.
    var lines = IntegerColumn()
    /// Each event's store id in `stores`, or -1 for an event of an unknown type.
    var storeIDs: [Int32] = []
    /// In a version 2 trace, whether each event is a transition that carries a `patch` instead
    /// of its `state`; empty in a version 1 trace.
    var patched = BitColumn()
    /// Sorts the lines into events and issues, and keeps the stores.
    private var sorter = BodyLineSorter()
    /// The stores named by this piece's register, transition and restore events.
    var stores: StoreNameTable { sorter.stores }
    /// Per store id: whether the store's latest register in this piece carried a `machine` (1)
    /// or not (0); -1 before its first register in the piece. The last value is what the next
    /// piece starts from (`TraceIndexer` carries it over).
    var registerMachine: [Int8] { sorter.registerMachine }
    /// Restores and transitions that are events unless the store's latest register, in an
    /// earlier piece, carried a `machine` (then they lack `case`, or `from` and `to`): resolved
    /// by `TraceIndexer` when it joins the pieces in order. Each is its position among this
    /// piece's events (a restore's as `-1 - position`); its store and line are in the columns,
    /// and its message is made only if it is dropped, which is rare: a piece that starts in the
    /// middle of a trace has one of these for every such event of a store without a machine.
    private(set) var pending: [Int] = []
    /// The format version of the trace (1 or 2).
    private var version = 1
    /// What was skipped or noticed, on local line numbers.
    var issues: IssueList {
        get { sorter.issues }
        set { sorter.issues = newValue }
    }
    /// The number of lines in the piece, the last one counted even without its `\n`.
    var lineCount = 0
    /// Lines that end in `\r\n`, and the first of them.
    var carriageReturns: Int { sorter.carriageReturns }
    var firstCarriageReturnLine: Int? { sorter.firstCarriageReturnLine }

    /// Lines longer than this (1 GiB, the format's bound) are malformed, as the validator says.
    static let maximumLineLength = LineReader.maximumLineLength

    /// How much of the file a piece reads at once.
    static let blockSize = 4 << 20

    /// An empty index.
    init() {}

    /// Indexes the whole lines in `range` of `file`, a trace held in memory. A line that runs
    /// to the end of `range` without a `\n` is the file's last line. `version` is the trace's
    /// format version.
    /// - Parameter maximumLineLength: longer lines are malformed (a parameter for tests).
    init(
        file: ByteView, range: Range<Int>, machines: [String: MachineSpec], version: Int = 1,
        maximumLineLength: Int = maximumLineLength
    ) {
        self.version = version
        sorter = BodyLineSorter(machines: machines, version: version, maximumLineLength: maximumLineLength)
        guard !range.isEmpty else { return }
        var line = 0
        addLines(file[range], at: range.lowerBound, line: &line)
        lineCount = line
    }

    /// Indexes the whole lines in bytes `range` of the regular file open as `descriptor`, read
    /// with `pread` a block at a time, so that several pieces are read at once and memory holds
    /// one block per piece (or one line, when longer). The file is never mapped: a file cut short
    /// while it is indexed gives short reads (its last line is then `truncated`), where a mapping
    /// would kill the process with SIGBUS.
    /// - Parameters:
    ///   - blockSize: the bytes read at once (a parameter for tests).
    ///   - progress: counts the bytes indexed, block after block, for a view that says how far
    ///     indexing is.
    /// - Throws: the system's error number when a read fails.
    init(
        descriptor: Int32, range: Range<Int>, machines: [String: MachineSpec], version: Int = 1,
        maximumLineLength: Int = maximumLineLength,
        blockSize: Int = blockSize, progress: IndexProgress? = nil
    ) throws(SystemError) {
        self.version = version
        sorter = BodyLineSorter(machines: machines, version: version, maximumLineLength: maximumLineLength)
        var line = 0
        var sized = false
        try LineReader.forEachChunk(
            descriptor: descriptor, range: range, blockSize: blockSize, maximumLineLength: maximumLineLength
        ) { chunk, offset in
            switch chunk {
            case .lines(let bytes):
                addLines(bytes, at: offset, line: &line)
                progress?.add(bytes.count)
                if !sized {
                    sized = true
                    reserveColumns(forEventsIn: range.count, seen: offsets.count, inBytes: bytes.count)
                }
            case .overlongLine:
                sorter.addOverlongLine(line: line)
                line += 1
            }
            return true
        }
        lineCount = line
    }

    /// Makes room at once for the events of the whole piece (`bytes` of them), estimated from
    /// the first block's (`seen` in `blockBytes`) with a tenth more: growing the columns by
    /// doubling copied them into new memory again and again, whose pages the kernel cleared,
    /// which cost more than a tenth of opening a trace. Room never written takes no memory.
    private mutating func reserveColumns(forEventsIn bytes: Int, seen: Int, inBytes blockBytes: Int) {
        guard seen > 0, blockBytes > 0, bytes > blockBytes else { return }
        let estimate = Int(Double(seen) / Double(blockBytes) * Double(bytes) * 1.1)
        offsets.reserveCapacity(estimate)
        storeIDs.reserveCapacity(estimate)
    }

    /// Indexes the lines of `bytes`, which start at `offset` in the file; `line` is the local
    /// number of the first, and comes back past the last. A last line without `\n` is the
    /// file's last line.
    private mutating func addLines(_ bytes: ByteView, at offset: Int, line: inout Int) {
        // The sorter is taken out while it calls back, so that the closure may change the
        // columns without a second access to `self` (and without copying the sorter's tables).
        var sorter = BodyLineSorter()
        swap(&sorter, &self.sorter)
        sorter.addLines(bytes, at: offset, line: &line) { fields, event in
            if event.isPending { pending.append(event.type == .restore ? -1 - offsets.count : offsets.count) }
            offsets.append(event.offset)
            seqs.append(fields.seq ?? 0)
            lines.append(event.line)
            storeIDs.append(event.storeID)
            // `EventLineCheck` made sure that a version 2 transition has exactly one of the two.
            if version >= 2 { patched.append(event.type == .transition && fields.stateRange == nil) }
        }
        swap(&sorter, &self.sorter)
    }
}
