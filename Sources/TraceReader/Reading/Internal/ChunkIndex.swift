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
    /// The stores named by this piece's register, transition and restore events.
    var stores = StoreNameTable()
    /// Per store id: whether the header gives the store a machine.
    private var hasMachine: [Bool] = []
    /// Per store id: whether the store's latest register in this piece carried a `machine` (1)
    /// or not (0); -1 before its first register in the piece. The last value is what the next
    /// piece starts from (`TraceIndexer` carries it over).
    private(set) var registerMachine: [Int8] = []
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
    var issues = IssueList()
    /// The number of lines in the piece, the last one counted even without its `\n`.
    var lineCount = 0
    /// Lines that end in `\r\n`, and the first of them.
    var carriageReturns = 0
    var firstCarriageReturnLine: Int?

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
        file: UnsafeRawBufferPointer, range: Range<Int>, machines: [String: MachineSpec], version: Int = 1,
        maximumLineLength: Int = maximumLineLength
    ) {
        self.version = version
        guard !range.isEmpty else { return }
        var line = 0
        addLines(
            UnsafeRawBufferPointer(rebasing: file[range]), at: range.lowerBound, line: &line, machines: machines,
            maximumLineLength: maximumLineLength)
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
        var line = 0
        try LineReader.forEachChunk(
            descriptor: descriptor, range: range, blockSize: blockSize, maximumLineLength: maximumLineLength
        ) { chunk, offset in
            switch chunk {
            case .lines(let bytes):
                addLines(bytes, at: offset, line: &line, machines: machines, maximumLineLength: maximumLineLength)
                progress?.add(bytes.count)
            case .overlongLine:
                addOverlongLine(line: line, maximumLineLength: maximumLineLength)
                line += 1
            }
            return true
        }
        lineCount = line
    }

    /// Indexes the lines of `bytes`, which start at `offset` in the file; `line` is the local
    /// number of the first, and comes back past the last. A last line without `\n` is the
    /// file's last line.
    private mutating func addLines(
        _ bytes: UnsafeRawBufferPointer, at offset: Int, line: inout Int, machines: [String: MachineSpec],
        maximumLineLength: Int
    ) {
        guard let base = bytes.baseAddress else { return }
        var position = 0
        while position < bytes.count {
            let newline = memchr(base + position, 0x0A, bytes.count - position)
            let end = newline.map { UnsafeRawPointer($0) - base } ?? bytes.count
            var contentEnd = end
            if newline != nil && end > position && bytes[end - 1] == 0x0D {
                contentEnd -= 1
                carriageReturns += 1
                if firstCarriageReturnLine == nil { firstCarriageReturnLine = line }
            }
            if end - position > maximumLineLength {
                addOverlongLine(line: line, maximumLineLength: maximumLineLength)
            } else {
                indexLine(
                    UnsafeRawBufferPointer(rebasing: bytes[position..<contentEnd]), at: offset + position, line: line,
                    complete: newline != nil, machines: machines)
            }
            line += 1
            position = newline == nil ? bytes.count : end + 1
        }
    }

    private mutating func addOverlongLine(line: Int, maximumLineLength: Int) {
        issues.add(
            line: line, kind: .malformed,
            "the line is longer than \(TraceLoader.describeSize(maximumLineLength)), the longest line a trace may have; skipped"
        )
    }

    /// Indexes one line, without its `\n` and `\r`.
    private mutating func indexLine(
        _ bytes: UnsafeRawBufferPointer, at offset: Int, line: Int, complete: Bool, machines: [String: MachineSpec]
    ) {
        // `\n`, `\r\n`, or a `\r` alone at the very end.
        if bytes.isEmpty || (bytes.count == 1 && bytes[0] == 0x0D) {
            issues.add(line: line, kind: .emptyLine, "an empty line; skipped")
            return
        }
        let fields: EventFields
        do {
            fields = try EventScanner.scan(bytes)
        } catch {
            if complete {
                issues.add(
                    line: line, kind: .malformed,
                    "not one JSON object (column \(error.column): \(error.message)); skipped")
            } else {
                issues.add(
                    line: line, kind: .truncated,
                    "the last line has no final newline and is not a complete JSON object (column \(error.column): \(error.message)), a write cut short; skipped"
                )
            }
            return
        }
        let type: EventLineCheck.EventType
        switch EventLineCheck.check(fields, in: bytes, version: version) {
        case .failure(let problem):
            issues.add(line: line, kind: .malformed, "\(problem.message); skipped")
            return
        case .success(let checked):
            type = checked
        }
        var storeID: Int32 = -1
        switch type {
        case .unknown:
            let name = fields.type.map { EventFields.string($0, in: bytes) } ?? ""
            issues.add(
                line: line, kind: .unknownType,
                "an event of type \(EventLineCheck.quoted(name)), which this library does not know; it changes no store"
            )
        case .register, .restore, .transition:
            guard let store = fields.store else { return }  // EventLineCheck requires it
            let id =
                store.hasEscapes
                ? stores.id(for: EventFields.string(store, in: bytes))
                : stores.id(for: UnsafeRawBufferPointer(rebasing: bytes[store.range]))
            if id == hasMachine.count {
                hasMachine.append(machines[stores.names[id]] != nil)
                registerMachine.append(-1)
            }
            // The store's machine at the event: the header's, or its latest register's (at a
            // register, its own) `machine`; the validator's rule. Looked at only for a store that
            // has one or may have one (its latest register is in an earlier piece): the problem's
            // message is a string made each time.
            if type == .register {
                let carries: Int8 = fields.machineRange != nil ? 1 : 0
                if hasMachine[id] || carries == 1,
                    let problem = EventLineCheck.machineProblem(fields, type: type, store: stores.names[id])
                {
                    issues.add(line: line, kind: .malformed, "\(problem.message); skipped")
                    return
                }
                registerMachine[id] = carries
            } else if hasMachine[id] || registerMachine[id] != 0,
                let problem = EventLineCheck.machineProblem(fields, type: type, store: stores.names[id])
            {
                if hasMachine[id] || registerMachine[id] == 1 {
                    issues.add(line: line, kind: .malformed, "\(problem.message); skipped")
                    return
                }
                pending.append(type == .restore ? -1 - offsets.count : offsets.count)
            }
            storeID = Int32(truncatingIfNeeded: id)
        }
        offsets.append(offset)
        seqs.append(fields.seq ?? 0)
        lines.append(line)
        storeIDs.append(storeID)
        // `EventLineCheck` made sure that a version 2 transition has exactly one of the two.
        if version >= 2 { patched.append(type == .transition && fields.stateRange == nil) }
    }
}
