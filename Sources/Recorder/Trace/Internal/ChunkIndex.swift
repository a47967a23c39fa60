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
    /// The stores named by this piece's register and transition events.
    var stores = StoreNameTable()
    /// Per store id: whether the header gives the store a machine.
    private var hasMachine: [Bool] = []
    /// What was skipped or noticed, on local line numbers.
    var issues = IssueList()
    /// The number of lines in the piece, the last one counted even without its `\n`.
    var lineCount = 0
    /// Lines that end in `\r\n`, and the first of them.
    var carriageReturns = 0
    var firstCarriageReturnLine: Int?

    /// Every this many bytes, the pages already read are released, so that indexing a large
    /// mapped file does not keep all of it resident.
    static let releaseStride = 8 << 20

    /// Lines longer than this (1 GiB, the format's bound) are malformed, as the validator says.
    static let maximumLineLength = 1 << 30

    /// An empty index.
    init() {}

    /// Indexes the whole lines in `range` of `file`. A line that runs to the end of `range`
    /// without a `\n` is the file's last line.
    /// - Parameter releasesPages: `file` is a private file mapping whose pages may be dropped
    ///   once read (they would be read from the file again if touched).
    /// - Parameter maximumLineLength: longer lines are malformed (a parameter for tests).
    init(
        file: UnsafeRawBufferPointer, range: Range<Int>, machines: [String: MachineSpec], releasesPages: Bool,
        maximumLineLength: Int = maximumLineLength
    ) {
        guard let base = file.baseAddress, !range.isEmpty else { return }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        var releasedUpTo = range.lowerBound
        var position = range.lowerBound
        var line = 0
        while position < range.upperBound {
            let remaining = range.upperBound - position
            let newline = memchr(base + position, 0x0A, remaining)
            let end = newline.map { UnsafeRawPointer($0) - base } ?? range.upperBound
            var contentEnd = end
            if newline != nil && end > position && file[end - 1] == 0x0D {
                contentEnd -= 1
                carriageReturns += 1
                if firstCarriageReturnLine == nil { firstCarriageReturnLine = line }
            }
            if end - position > maximumLineLength {
                issues.add(line: line, kind: .malformed, "the line is longer than \(TraceLoader.describeSize(maximumLineLength)), the longest line a trace may have; skipped")
            } else {
                indexLine(file, position..<contentEnd, line: line, complete: newline != nil, machines: machines)
            }
            line += 1
            position = newline == nil ? range.upperBound : end + 1
            if releasesPages && (position - releasedUpTo >= Self.releaseStride || position == range.upperBound) {
                releasedUpTo = Self.release(base, from: releasedUpTo, to: position, pageSize: pageSize)
            }
        }
        lineCount = line
    }

    /// Lets the system drop the pages of `base[from..<to]` from memory: only whole pages inside
    /// the range, so pages shared with a neighbouring piece stay. Returns where the next release
    /// starts: the end of the last page released.
    private static func release(_ base: UnsafeRawPointer, from: Int, to: Int, pageSize: Int) -> Int {
        let first = (from + pageSize - 1) / pageSize * pageSize
        let last = to / pageSize * pageSize
        guard last > first else { return from }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + first), last - first, MADV_DONTNEED)
        return last
    }

    /// Indexes one line, without its `\n` and `\r`.
    private mutating func indexLine(
        _ file: UnsafeRawBufferPointer, _ range: Range<Int>, line: Int, complete: Bool, machines: [String: MachineSpec]
    ) {
        let bytes = UnsafeRawBufferPointer(rebasing: file[range])
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
                issues.add(line: line, kind: .malformed, "not one JSON object (column \(error.column): \(error.message)); skipped")
            } else {
                issues.add(line: line, kind: .truncated, "the last line has no final newline and is not a complete JSON object (column \(error.column): \(error.message)), a write cut short; skipped")
            }
            return
        }
        let type: EventLineCheck.EventType
        switch EventLineCheck.check(fields, in: bytes) {
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
            issues.add(line: line, kind: .unknownType, "an event of type \(EventLineCheck.quoted(name)), which this library does not know; it changes no store")
        case .register, .transition:
            guard let store = fields.store else { return }  // EventLineCheck requires it
            let id = store.hasEscapes
                ? stores.id(for: EventFields.string(store, in: bytes))
                : stores.id(for: UnsafeRawBufferPointer(rebasing: bytes[store.range]))
            if id == hasMachine.count { hasMachine.append(machines[stores.names[id]] != nil) }
            if hasMachine[id], let problem = EventLineCheck.machineProblem(fields, type: type, store: stores.names[id]) {
                issues.add(line: line, kind: .malformed, "\(problem.message); skipped")
                return
            }
            storeID = Int32(truncatingIfNeeded: id)
        }
        offsets.append(range.lowerBound)
        seqs.append(fields.seq ?? 0)
        lines.append(line)
        storeIDs.append(storeID)
    }
}
