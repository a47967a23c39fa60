import Dispatch
import Recorder
@_spi(RewindInternals) internal import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Builds a `TraceIndex` from a trace: the body (every line after the header) is cut at line
/// starts into pieces, one per processor, each indexed by `ChunkIndex` on its own thread, then
/// joined in file order. A file is read with `pread`, each piece by its own thread; a trace held
/// in memory (read from a pipe) is indexed where it is.
enum TraceIndexer {
    /// Bodies smaller than this per processor are indexed on fewer threads.
    static let minimumPieceSize = 8 << 20

    /// Indexes `file[bodyStart...]`, a trace held in memory.
    /// - Parameters:
    ///   - pieceCount: how many pieces to cut the body into (for tests); by default one per
    ///     processor for a large body.
    ///   - maximumLineLength: longer lines are malformed (for tests; 1 GiB by default).
    ///   - headerEndsInCarriageReturn: line 1 ends in `\r\n`, for the `crlf` issue.
    static func index(
        _ file: ByteView, bodyStart: Int, headerEndsInCarriageReturn: Bool,
        machines: [String: MachineSpec], version: Int = 1, pieceCount: Int? = nil,
        maximumLineLength: Int = ChunkIndex.maximumLineLength
    ) -> TraceIndex {
        let bounds = pieceBounds(
            file, bodyStart: bodyStart, count: pieceCount ?? defaultPieceCount(bodySize: file.count - bodyStart))
        let shared = SharedBytes(buffer: file)
        var pieces = indexPieces(bounds) { range in
            ChunkIndex(
                file: shared.buffer, range: range, machines: machines, version: version,
                maximumLineLength: maximumLineLength)
        }
        return join(&pieces, byteCount: file.count, headerEndsInCarriageReturn: headerEndsInCarriageReturn)
    }

    /// Indexes bytes `bodyStart..<size` of the regular file open as `descriptor` (parameters as
    /// above; `blockSize`, the bytes each piece reads at once, for tests; `progress` counts the
    /// bytes indexed as the pieces go).
    /// - Throws: the system's error number when a read fails.
    static func index(
        descriptor: Int32, size: Int, bodyStart: Int, headerEndsInCarriageReturn: Bool,
        machines: [String: MachineSpec], version: Int = 1, pieceCount: Int? = nil,
        maximumLineLength: Int = ChunkIndex.maximumLineLength, blockSize: Int = ChunkIndex.blockSize,
        progress: IndexProgress? = nil
    ) throws(SystemError) -> TraceIndex {
        let count = pieceCount ?? defaultPieceCount(bodySize: size - bodyStart)
        let bounds = try pieceBounds(descriptor: descriptor, size: size, bodyStart: bodyStart, count: count)
        let failure = Lock<SystemError?>(nil)
        var pieces = indexPieces(bounds) { range in
            do throws(SystemError) {
                return try ChunkIndex(
                    descriptor: descriptor, range: range, machines: machines, version: version,
                    maximumLineLength: maximumLineLength, blockSize: blockSize, progress: progress)
            } catch {
                failure.withLock { $0 = $0 ?? error }
                return ChunkIndex()
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return join(&pieces, byteCount: size, headerEndsInCarriageReturn: headerEndsInCarriageReturn)
    }

    /// The pieces between `bounds`, each indexed by `indexPiece`, on one thread per piece.
    private static func indexPieces(_ bounds: [Int], _ indexPiece: @Sendable (Range<Int>) -> ChunkIndex) -> [ChunkIndex]
    {
        let count = bounds.count - 1
        if count == 1 { return [indexPiece(bounds[0]..<bounds[1])] }
        // Each thread indexes its own piece and stores the result in its own slot; the
        // The lock guards the array of slots.
        let results = Lock<[ChunkIndex?]>(Array(repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { piece in
            let chunk = indexPiece(bounds[piece]..<bounds[piece + 1])
            results.withLock { $0[piece] = chunk }
        }
        return results.withLock { slots in
            let taken = slots.map { $0 ?? ChunkIndex() }
            slots = []  // so that `join` can release each piece as it goes
            return taken
        }
    }

    /// One piece per processor, each at least `minimumPieceSize`, at most 64 pieces.
    static func defaultPieceCount(bodySize: Int) -> Int {
        let processors = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        return max(1, min(processors, 64, bodySize / minimumPieceSize))
    }

    /// Offsets that cut `file[bodyStart...]` into at most `count` pieces of whole lines: every
    /// bound but the last is the start of a line.
    static func pieceBounds(_ file: ByteView, bodyStart: Int, count: Int) -> [Int] {
        let size = file.count - bodyStart
        let count = max(1, count)
        var bounds = [bodyStart]
        guard !file.isEmpty else { return [bodyStart, file.count] }
        for piece in 1..<count {
            let target = max(bodyStart + size / count * piece, bounds[bounds.count - 1])
            guard target < file.count, let newline = file.firstIndex(of: 0x0A, from: target) else { break }
            bounds.append(newline + 1)
        }
        bounds.append(file.count)
        return bounds
    }

    /// The same bounds for the first `size` bytes of the file open as `descriptor`, found by
    /// reading a little at each cut (more only inside a very long line).
    static func pieceBounds(descriptor: Int32, size: Int, bodyStart: Int, count: Int) throws(SystemError) -> [Int] {
        let count = max(1, count)
        var bounds = [bodyStart]
        let window = 64 << 10
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: window, alignment: 16)
        defer { buffer.deallocate() }
        pieces: for piece in 1..<count {
            var offset = max(bodyStart + (size - bodyStart) / count * piece, bounds[bounds.count - 1])
            while offset < size {
                let read = try SystemCalls.read(descriptor, into: buffer, count: min(window, size - offset), at: offset)
                if read == 0 { break pieces }  // the file is shorter than it was
                if let newline = memchr(buffer, 0x0A, read) {
                    let end = offset + buffer.distance(to: newline) + 1
                    if end < size { bounds.append(end) }
                    continue pieces
                }
                offset += read
            }
            break
        }
        bounds.append(size)
        return bounds
    }

    /// Joins the pieces' indices, in file order, releasing each piece as it goes.
    private static func join(_ pieces: inout [ChunkIndex], byteCount: Int, headerEndsInCarriageReturn: Bool)
        -> TraceIndex
    {
        var index = TraceIndex()
        index.byteCount = byteCount
        let eventCount = pieces.reduce(0) { $0 + $1.offsets.count }
        if pieces.count > 1 { index.offsets.reserveCapacity(eventCount) }

        var issues = IssueList()
        var carriageReturns = headerEndsInCarriageReturn ? 1 : 0
        var firstCarriageReturnLine: Int? = headerEndsInCarriageReturn ? 1 : nil
        var seqs = IntegerColumn()
        // Store ids: each piece's local ids → one id per name, in the order first met.
        var namesSeen: [String: Int] = [:]
        var names: [String] = []
        var eventStores: [Int32] = []
        eventStores.reserveCapacity(eventCount)
        // Version 2: which events carry a `patch`, in file order (empty in version 1).
        var eventPatched = BitColumn()
        // Per global store id: whether its latest register, in the pieces joined so far, carried
        // a `machine`.
        var carriesMachine: [Bool] = []
        var firstLine = 2
        for piece in pieces.indices {
            var chunk = ChunkIndex()
            swap(&chunk, &pieces[piece])
            let localToGlobal = chunk.stores.names.map { name -> Int32 in
                if let id = namesSeen[name] { return Int32(truncatingIfNeeded: id) }
                namesSeen[name] = names.count
                names.append(name)
                carriesMachine.append(false)
                return Int32(truncatingIfNeeded: names.count - 1)
            }
            resolvePending(&chunk, carriesMachine: carriesMachine, localToGlobal: localToGlobal)
            for (local, carries) in chunk.registerMachine.enumerated() where carries >= 0 {
                carriesMachine[Int(localToGlobal[local])] = carries == 1
            }
            if pieces.count == 1 {
                index.offsets = chunk.offsets  // moved, not copied
                chunk.offsets = []
            } else {
                index.offsets.append(contentsOf: chunk.offsets)
            }
            index.lines.append(contentsOf: chunk.lines, adding: firstLine)
            seqs.append(contentsOf: chunk.seqs, adding: 0)
            for local in chunk.storeIDs {
                eventStores.append(local < 0 ? -1 : localToGlobal[Int(local)])
            }
            eventPatched.append(contentsOf: chunk.patched)
            issues.append(chunk.issues, lineShift: firstLine)
            if chunk.carriageReturns > 0 {
                carriageReturns += chunk.carriageReturns
                if firstCarriageReturnLine == nil {
                    firstCarriageReturnLine = chunk.firstCarriageReturnLine.map { $0 + firstLine }
                }
            }
            firstLine += chunk.lineCount
        }
        if let line = firstCarriageReturnLine {
            issues.add(line: line, kind: .carriageReturn, carriageReturnMessage(lines: carriageReturns))
        }
        setSteps(&index, seqs: seqs, issues: &issues)
        groupByStore(&index, eventStores: eventStores, names: names, patched: eventPatched)
        index.issues = issues.issues()
        return index
    }

    /// Drops from `chunk` the events that are malformed after all: restores and transitions
    /// without `case`, `from` or `to` whose store's latest register, in an earlier piece, carried
    /// a `machine` (rare: a piece starts a megabytes into the file).
    private static func resolvePending(_ chunk: inout ChunkIndex, carriesMachine: [Bool], localToGlobal: [Int32]) {
        let dropped = chunk.pending.filter { entry in
            carriesMachine[Int(localToGlobal[Int(chunk.storeIDs[entry < 0 ? -1 - entry : entry])])]
        }
        guard !dropped.isEmpty else { return }
        var positions = Set<Int>()
        for entry in dropped {
            let event = entry < 0 ? -1 - entry : entry
            positions.insert(event)
            // The message `EventLineCheck` gives an event that has neither `case` nor `from` and `to`.
            let store = chunk.stores.names[Int(chunk.storeIDs[event])]
            let message =
                EventLineCheck.machineProblem(EventFields(), type: entry < 0 ? .restore : .transition, store: store)?
                .message ?? "the event lacks what its store's machine needs"
            chunk.issues.add(line: chunk.lines[event], kind: .malformed, "\(message); skipped")
        }
        var offsets: [Int] = []
        var seqs = IntegerColumn()
        var lines = IntegerColumn()
        var storeIDs: [Int32] = []
        var patched = BitColumn()
        for event in chunk.offsets.indices where !positions.contains(event) {
            offsets.append(chunk.offsets[event])
            seqs.append(chunk.seqs[event])
            lines.append(chunk.lines[event])
            storeIDs.append(chunk.storeIDs[event])
            if event < chunk.patched.count { patched.append(chunk.patched[event]) }
        }
        chunk.offsets = offsets
        chunk.seqs = seqs
        chunk.lines = lines
        chunk.storeIDs = storeIDs
        chunk.patched = patched
    }

    /// The `crlf` issue's message, for `lines` lines that end in `\r\n`.
    static func carriageReturnMessage(lines: Int) -> String {
        let others = lines - 1
        return others == 0
            ? "the line ends in \\r\\n; read as if it ended in \\n"
            : "this line and \(others) more end in \\r\\n; they are read as if they ended in \\n"
    }

    /// The `seq-order` issue's message for an event with `seq`, after the event with seq
    /// `previous.seq` on line `previous.line` (nil for the first event).
    static func seqOrderMessage(seq: Int, previous: (seq: Int, line: Int)?) -> String {
        guard let previous else {
            return "the first event has seq \(seq), not 1 or more; steps follow the order of the file in this trace"
        }
        return
            "seq \(seq) is not above the previous event's seq \(previous.seq) (line \(previous.line)); steps follow the order of the file in this trace"
    }

    /// Steps are the seqs when they go up from event to event (gaps allowed); otherwise the
    /// order of the file.
    private static func setSteps(_ index: inout TraceIndex, seqs: IntegerColumn, issues: inout IssueList) {
        var previous = 0
        var increasing = true
        for event in 0..<seqs.count {
            let seq = seqs[event]
            if seq <= previous {
                increasing = false
                issues.add(
                    line: index.lines[event], kind: .seqOrder,
                    seqOrderMessage(seq: seq, previous: event == 0 ? nil : (previous, index.lines[event - 1])))
            }
            previous = seq
        }
        if increasing {
            index.steps = seqs
        } else {
            index.steps.appendRun(from: 1, length: seqs.count)
            index.seqs = seqs
        }
    }

    /// Fills `storeEvents` and `storeBounds` from each event's store, stores in the order of
    /// their first event, and `patched` from which events carry a `patch` (by event, in file
    /// order; only when some does).
    private static func groupByStore(
        _ index: inout TraceIndex, eventStores: [Int32], names: [String], patched: BitColumn
    ) {
        // Renumber the stores in the order of their first event.
        var order = [Int32](repeating: -1, count: names.count)
        var counts: [Int] = []
        for store in eventStores where store >= 0 {
            if order[Int(store)] < 0 {
                order[Int(store)] = Int32(truncatingIfNeeded: counts.count)
                index.storeIDs[names[Int(store)]] = counts.count
                index.storeNames.append(names[Int(store)])
                counts.append(0)
            }
            counts[Int(order[Int(store)])] += 1
        }
        index.storeBounds = [0]
        index.storeBounds.reserveCapacity(counts.count + 1)
        for count in counts { index.storeBounds.append(index.storeBounds[index.storeBounds.count - 1] + count) }
        // A counting sort of the events by store, through a temporary array of event indices.
        var next = Array(index.storeBounds.dropLast())
        var grouped = [Int32](repeating: 0, count: index.storeBounds[index.storeBounds.count - 1])
        var wide: [Int] = []
        let fitsInt32 = eventStores.count <= Int(Int32.max)
        if !fitsInt32 {
            wide = [Int](repeating: 0, count: grouped.count)
            grouped = []
        }
        var storePatched = patched.hasSetBits ? BitColumn(clear: index.storeBounds[index.storeBounds.count - 1]) : nil
        for (event, store) in eventStores.enumerated() where store >= 0 {
            let final = Int(order[Int(store)])
            if fitsInt32 { grouped[next[final]] = Int32(truncatingIfNeeded: event) } else { wide[next[final]] = event }
            if storePatched != nil && patched[event] { storePatched?.set(next[final]) }
            next[final] += 1
        }
        index.patched = storePatched
        var column = IntegerColumn()
        if fitsInt32 {
            for event in grouped { column.append(Int(event)) }
        } else {
            for event in wide { column.append(event) }
        }
        index.storeEvents = column
    }
}

/// The trace's bytes, handed to the indexing threads. They only read them, and
/// `concurrentPerform` returns only when every thread is done, so the bytes outlive every use.
private struct SharedBytes: @unchecked Sendable {
    let buffer: ByteView
}
