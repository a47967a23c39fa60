@_spi(RewindInternals) internal import RewindSupport
import TraceJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The events and issues `TraceFile(path:)` would have, read once from the first line to the
/// last with no index: memory is one block of the file (or its longest line), the stores'
/// names and at most a hundred issues of each kind. For a command that only counts (`inspector
/// stats`); unlike `TraceStream`, nothing is validated.
package enum TraceEventScan {
    /// What is given each event, in file order.
    package protocol Visitor: SendableMetatype {
        /// Takes the event at `index` among the events (from 0, as `TraceFile` numbers them): its
        /// members (valid during the call) and its line (`event.line` the 1-based file line).
        mutating func visit(_ fields: ScannedFields, _ event: BodyLineSorter.Event, index: Int)
    }

    /// What the reading found besides the events.
    package struct Summary {
        package var eventCount: Int
        /// `TraceFile.issues`, for the same bytes.
        package var issues: [TraceReadIssue]
        /// Whether the events' seqs go up from event to event, so that each event's step is its
        /// seq; otherwise the steps follow the order of the file (step = index + 1).
        package var stepsAreSeqs: Bool
    }

    /// Reads the trace at `path` (a file, or a pipe read as it comes), giving `visitor` each
    /// event in file order.
    /// - Throws: `TraceOpenError` as `TraceFile(path:)` throws it; `visitor` is given nothing when
    ///   line 1 is not a trace header.
    package static func forEachEvent(
        path: String, into visitor: inout some TraceEventScan.Visitor
    )
        throws(TraceOpenError)
        -> Summary
    {
        let input: TraceInput
        do throws(TraceInput.Failure) {
            input = try TraceInput.open(path)
        } catch {
            let (kind, line, message) = error.openError
            throw TraceOpenError(kind: kind, path: path, line: line, message: message)
        }
        if let line = input.firstLineIfNotAHeader() {
            throw TraceOpenError(kind: .notATrace, path: path, line: 1, message: TraceHeader.whyNotAHeader(line))
        }
        var reading = Reading(path: path)
        let partSize = ChunkIndex.blockSize / 4
        let width = ParallelScan.defaultWidth
        if case .regularFile(let size) = input.kind, size > partSize, width > 1 {
            // Read and scanned in parts on every core, as `validate` reads, the lines sorted and
            // counted in order by whichever thread has the next part (`ParallelScan`): the counting
            // is light beside the scan, so no thread is kept for it.
            let scan = ParallelScan(width: width, partSize: ParallelScan.preferredPartSize)
            let outcome = withUnsafeMutablePointer(to: &reading) { reading in
                withUnsafeMutablePointer(to: &visitor) { visitor in
                    var counting = Counting(reading: reading, visitor: visitor)
                    return scan.scan(
                        descriptor: input.file.rawValue, maximumLineLength: LineReader.maximumLineLength,
                        into: &counting)
                }
            }
            if case .readFailed(let code) = outcome {
                throw TraceOpenError(
                    kind: .unreadable, path: path, message: "cannot read: \(SystemError(code: code).reason)")
            }
            if let failure = reading.failure { throw failure }
            return reading.finish()
        }
        do {
            try input.forEachChunk(blockSize: ChunkIndex.blockSize, maximumLineLength: LineReader.maximumLineLength) {
                chunk, _ in
                reading.add(chunk, &visitor)
                return reading.failure == nil
            }
        } catch {
            throw TraceOpenError(kind: .unreadable, path: path, message: "cannot read: \(error.reason)")
        }
        if let failure = reading.failure { throw failure }
        return reading.finish()
    }

    /// A reading and what it gives each event to, as `ParallelScan` takes them.
    /// (A visitor, not a closure: a closure kept in it was retained and released per line. By
    /// pointer: both are the caller's, which a copy would make copy their arrays when written.)
    private struct Counting<Visitor: TraceEventScan.Visitor>: ScannedLineConsumer {
        let reading: UnsafeMutablePointer<Reading>
        let visitor: UnsafeMutablePointer<Visitor>

        mutating func consume(
            _ line: LineReader.Line, scanned fields: ScannedFields, error: JSONParseError?
        ) -> Bool {
            reading.pointee.add(line, fields: fields, error: error, &visitor.pointee)
            return reading.pointee.failure == nil
        }
    }

    /// The state of one reading: the header, the sorter of the body's lines, the seqs.
    private struct Reading {
        let path: String
        /// The sorter, once line 1 was read as a header (`hasHeader`). Not an optional: a
        /// comparison of one with nil per line copied the sorter (its arrays retained).
        var sorter = BodyLineSorter()
        var hasHeader = false
        var failure: TraceOpenError?
        var headerEndsInCarriageReturn = false
        var line = 2
        /// The file offset of the next line scanned by `ParallelScan`.
        var offset = 0
        var events = Events()

        /// The events counted, and their seqs.
        struct Events {
            var count = 0
            var seqIssues = IssueList()
            var previous: (seq: Int, line: Int)?
            var stepsAreSeqs = true

            /// Counts the next event and gives it to `visitor`.
            @inline(__always)
            mutating func count(
                _ fields: ScannedFields, _ event: BodyLineSorter.Event,
                _ visitor: inout some TraceEventScan.Visitor
            ) {
                let seq = fields.pointee.seq ?? 0
                if seq <= (previous?.seq ?? 0) {
                    stepsAreSeqs = false
                    seqIssues.add(
                        line: event.line, kind: .seqOrder, TraceIndexer.seqOrderMessage(seq: seq, previous: previous))
                }
                previous = (seq, event.line)
                visitor.visit(fields, event, index: count)
                count += 1
            }
        }

        init(path: String) { self.path = path }

        mutating func add(
            _ chunk: LineReader.Chunk, _ visitor: inout some TraceEventScan.Visitor
        ) {
            guard case .lines(var bytes) = chunk else {
                guard hasHeader else { return failOverlongHeader() }
                sorter.addOverlongLine(line: line)
                line += 1
                return
            }
            if !hasHeader {
                guard !bytes.isEmpty else { return }
                let newline = bytes.firstIndex(of: 0x0A)
                begin(header: bytes.prefix(newline ?? bytes.count), isTerminated: newline != nil)
                guard hasHeader else { return }
                bytes = bytes.suffix(from: newline.map { $0 + 1 } ?? bytes.count)
            }
            sorter.addLines(bytes, at: 0, line: &line) { fields, event in
                ScannedFields.lending(fields) { events.count($0, event, &visitor) }
            }
        }

        /// Sorts and counts a line read and scanned by `ParallelScan` (line 1, the header, comes
        /// unscanned).
        mutating func add(
            _ given: LineReader.Line, fields: ScannedFields, error: JSONParseError?,
            _ visitor: inout some TraceEventScan.Visitor
        ) {
            guard hasHeader else {
                guard !given.isOverlong else { return failOverlongHeader() }
                begin(header: given.bytes, isTerminated: given.isTerminated)
                offset = given.bytes.count + 1
                return
            }
            sorter.addScannedLine(given, fields: fields, error: error, at: offset, line: line) { fields, event in
                events.count(fields, event, &visitor)
            }
            // (After an overlong line, whose length is not known, the offsets are approximate:
            // nothing here uses them.)
            offset += given.bytes.count + 1
            line += 1
        }

        /// Reads line 1 (`bytes`, without its `\n`) as the header and sorts the lines after it by
        /// its machines; fails when it is not a header.
        private mutating func begin(header bytes: ByteView, isTerminated: Bool) {
            let header: TraceHeader
            do {
                header = try TraceHeader.parse(bytes)
            } catch {
                return fail(error.message)
            }
            headerEndsInCarriageReturn = isTerminated && bytes.count > 0 && bytes[bytes.count - 1] == 0x0D
            sorter = BodyLineSorter(machines: header.machines, version: header.version)
            hasHeader = true
        }

        private mutating func failOverlongHeader() {
            fail(
                "line 1 is longer than \(TraceLoader.describeSize(LineReader.maximumLineLength)); it is not a trace header"
            )
        }

        private mutating func fail(_ message: String) {
            failure = TraceOpenError(kind: .notATrace, path: path, line: 1, message: message)
        }

        /// The issues in `TraceIndexer`'s order: the lines', the `crlf` one, the seqs'.
        func finish() -> Summary {
            var issues = sorter.issues
            var carriageReturns = sorter.carriageReturns
            var firstCarriageReturnLine = sorter.firstCarriageReturnLine
            if headerEndsInCarriageReturn {
                carriageReturns += 1
                firstCarriageReturnLine = 1
            }
            if let line = firstCarriageReturnLine {
                issues.add(
                    line: line, kind: .carriageReturn, TraceIndexer.carriageReturnMessage(lines: carriageReturns))
            }
            issues.append(events.seqIssues, lineShift: 0)
            return Summary(eventCount: events.count, issues: issues.issues(), stepsAreSeqs: events.stepsAreSeqs)
        }
    }
}
