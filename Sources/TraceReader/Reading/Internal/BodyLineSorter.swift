import Recorder
@_spi(RewindInternals) package import RewindSupport
import TraceJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sorts the lines of a trace's body into events and `TraceReadIssue`s, as `TraceFile` reads
/// them: an empty, overlong, malformed or truncated line is an issue and no event; an event of
/// an unknown type is both. Used by `ChunkIndex` (one piece of the body per thread) and by
/// `TraceEventScan` (the whole body once, without an index).
///
/// Line numbers and store ids are the caller's: lines count from wherever the caller starts,
/// and store ids are `stores`' ids.
package struct BodyLineSorter: Sendable {
    /// One event line, valid only during the call that gives it (with its `EventFields`, given
    /// apart so that they are not copied once more per event).
    package struct Event {
        /// The line's bytes, without its `\n` and `\r`.
        package var bytes: ByteView
        /// The byte offset of the line in the file.
        var offset: Int
        /// The line's number (the caller's count).
        var line: Int
        package var type: EventLineCheck.EventType
        /// The store's id in `stores`, or -1 for an event of an unknown type.
        package var storeID: Int32
        /// A restore or transition that is malformed after all if the store's latest register,
        /// before the lines sorted here, carried a `machine` (see `ChunkIndex.pending`).
        var isPending: Bool
    }

    /// The stores named by the register, transition and restore events sorted so far.
    var stores = StoreNameTable()
    /// Per store id: whether the header gives the store a machine.
    private var hasMachine: [Bool] = []
    /// Per store id: whether the store's latest register carried a `machine` (1) or not (0); -1
    /// before its first register among the lines sorted here.
    private(set) var registerMachine: [Int8] = []
    /// The format version of the trace (1 or 2).
    private let version: Int
    private let machines: [String: MachineSpec]
    private let maximumLineLength: Int
    /// What was skipped or noticed.
    var issues = IssueList()
    /// Lines that end in `\r\n`, and the first of them.
    var carriageReturns = 0
    var firstCarriageReturnLine: Int?

    init(machines: [String: MachineSpec] = [:], version: Int = 1, maximumLineLength: Int = LineReader.maximumLineLength)
    {
        self.machines = machines
        self.version = version
        self.maximumLineLength = maximumLineLength
    }

    /// Sorts the lines of `bytes`, which start at `offset` in the file, calling `body` with
    /// each event's members and line; `line` is the number of the first, and comes back past the last. A last line
    /// without `\n` is the file's last line.
    @inline(__always)
    mutating func addLines(
        _ bytes: ByteView, at offset: Int, line: inout Int, _ body: (EventFields, Event) -> Void
    ) {
        var position = 0
        while position < bytes.count {
            let newline = bytes.firstIndex(of: 0x0A, from: position)
            let end = newline ?? bytes.count
            var contentEnd = end
            if newline != nil && end > position && bytes[end - 1] == 0x0D {
                contentEnd -= 1
                noteCarriageReturn(line: line)
            }
            if end - position > maximumLineLength {
                addOverlongLine(line: line)
            } else {
                sortLine(
                    bytes[position..<contentEnd], at: offset + position, line: line,
                    complete: newline != nil
                ) { fields, event in body(fields.pointee, event) }
            }
            line += 1
            position = newline == nil ? bytes.count : end + 1
        }
    }

    /// Notes a line longer than the longest a trace may have.
    mutating func addOverlongLine(line: Int) {
        issues.add(
            line: line, kind: .malformed,
            "the line is longer than \(TraceLoader.describeSize(maximumLineLength)), the longest line a trace may have; skipped"
        )
    }

    /// Notes a line that ends in `\r\n`.
    private mutating func noteCarriageReturn(line: Int) {
        carriageReturns += 1
        if firstCarriageReturnLine == nil { firstCarriageReturnLine = line }
    }

    /// Sorts one line read and scanned by `ParallelScan` (its `\n` off, its `\r` on): into
    /// `fields`, or found not to be one JSON object (`error`); `body` gets an event's fields
    /// where they are (150 bytes, not copied per event). As `addLines` would: a line that
    /// ends in `\r\n` is scanned again without its `\r`.
    mutating func addScannedLine(
        _ given: LineReader.Line, fields: ScannedFields, error: JSONParseError?, at offset: Int,
        line: Int, _ body: (ScannedFields, Event) -> Void
    ) {
        if given.isOverlong { return addOverlongLine(line: line) }
        let bytes = given.bytes
        // (Not `bytes.last`: a generic call per line, not inlined.)
        if given.isTerminated && bytes.count > 0 && bytes[bytes.count - 1] == 0x0D {
            noteCarriageReturn(line: line)
            return sortLine(
                bytes.prefix(bytes.count - 1), at: offset, line: line, complete: true,
                body)
        }
        sortLine(bytes, at: offset, line: line, complete: given.isTerminated, scanned: (fields, error), body)
    }

    /// Sorts one line, without its `\n` and `\r`: calls `body` when it is an event. `scanned` is
    /// what `ParallelScan` made of these very bytes (their fields, or why they are not one JSON
    /// object); without it the line is scanned here.
    @inline(__always)
    private mutating func sortLine(
        _ bytes: ByteView, at offset: Int, line: Int, complete: Bool,
        scanned: (fields: ScannedFields, error: JSONParseError?)? = nil,
        _ body: (ScannedFields, Event) -> Void
    ) {
        // `\n`, `\r\n`, or a `\r` alone at the very end.
        if bytes.isEmpty || (bytes.count == 1 && bytes[0] == 0x0D) {
            issues.add(line: line, kind: .emptyLine, "an empty line; skipped")
            return
        }
        // The fields where they are (150 bytes, not copied once more per line).
        if let scanned {
            if let error = scanned.error { return addUnreadable(line: line, complete: complete, error) }
            return sortEvent(bytes, fields: scanned.fields, at: offset, line: line, body)
        }
        let fields: EventFields
        do throws(JSONParseError) {
            fields = try EventScanner.scan(bytes)
        } catch {
            return addUnreadable(line: line, complete: complete, error)
        }
        ScannedFields.lending(fields) { sortEvent(bytes, fields: $0, at: offset, line: line, body) }
    }

    /// Notes a line that is not one JSON object: malformed, or `truncated` when it is the
    /// file's last line and has no `\n` (not `complete`).
    private mutating func addUnreadable(line: Int, complete: Bool, _ error: JSONParseError) {
        if complete {
            issues.add(
                line: line, kind: .malformed, "not one JSON object (column \(error.column): \(error.message)); skipped")
        } else {
            issues.add(
                line: line, kind: .truncated,
                "the last line has no final newline and is not a complete JSON object (column \(error.column): \(error.message)), a write cut short; skipped"
            )
        }
    }

    /// Sorts one line read as a JSON object into `fields`: calls `body` when it is an event.
    @inline(__always)
    private mutating func sortEvent(
        _ bytes: ByteView, fields pointer: ScannedFields, at offset: Int, line: Int,
        _ body: (ScannedFields, Event) -> Void
    ) {
        let type: EventLineCheck.EventType
        switch EventLineCheck.check(pointer.pointee, in: bytes, version: version) {
        case .failure(let problem):
            issues.add(line: line, kind: .malformed, "\(problem.message); skipped")
            return
        case .success(let checked):
            type = checked
        }
        var storeID: Int32 = -1
        var isPending = false
        switch type {
        case .unknown:
            let name = pointer.pointee.type.map { EventFields.string($0, in: bytes) } ?? ""
            issues.add(
                line: line, kind: .unknownType,
                "an event of type \(EventLineCheck.quoted(name)), which this library does not know; it changes no store"
            )
        case .register, .restore, .transition:
            guard let store = pointer.pointee.store else { return }  // EventLineCheck requires it
            let id =
                store.hasEscapes
                ? stores.id(for: EventFields.string(store, in: bytes))
                : stores.id(for: bytes[store.range])
            if id == hasMachine.count {
                hasMachine.append(machines[stores.names[id]] != nil)
                registerMachine.append(-1)
            }
            // The store's machine at the event: the header's, or its latest register's (at a
            // register, its own) `machine`; the validator's rule. Looked at only for a store that
            // has one or may have one (its latest register is before these lines): the problem's
            // message is a string made each time.
            if type == .register {
                let carries: Int8 = pointer.pointee.machineRange != nil ? 1 : 0
                if hasMachine[id] || carries == 1,
                    let problem = EventLineCheck.machineProblem(pointer.pointee, type: type, store: stores.names[id])
                {
                    issues.add(line: line, kind: .malformed, "\(problem.message); skipped")
                    return
                }
                registerMachine[id] = carries
            } else if hasMachine[id] || registerMachine[id] != 0,
                type == .transition
                    ? pointer.pointee.from == nil || pointer.pointee.to == nil : pointer.pointee.caseName == nil
            {
                // What `EventLineCheck.machineProblem` finds, checked without making its message:
                // a pending event (every one of a store without a machine in a piece before the
                // store's first register there) has it made only if it is dropped.
                if hasMachine[id] || registerMachine[id] == 1,
                    let problem = EventLineCheck.machineProblem(pointer.pointee, type: type, store: stores.names[id])
                {
                    issues.add(line: line, kind: .malformed, "\(problem.message); skipped")
                    return
                }
                isPending = true
            }
            storeID = Int32(truncatingIfNeeded: id)
        }
        body(
            pointer,
            Event(bytes: bytes, offset: offset, line: line, type: type, storeID: storeID, isPending: isPending))
    }
}
