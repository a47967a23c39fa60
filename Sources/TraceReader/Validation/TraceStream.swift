@_spi(RewindInternals) package import RewindSupport
import TraceJSON

/// A trace read once, from its first line to its last, and validated as it goes: each event is
/// given with the problems found on its line as soon as the reading reaches it, so that a command
/// that lists events prints its first line at once, whatever the size of the file (where
/// `TraceFile` indexes the whole file and `TraceValidator` reads all of it before answering).
///
/// ```swift
/// let report = try TraceStream(path: "traces/big.jsonl").forEachLine { line in
///     if let event = line.event { print(event.seq, event.store ?? "-", line.problems.count) }
///     return true  // false stops the reading
/// }
/// print(report.errors, "errors")
/// ```
///
/// Memory stays that of a few blocks of the file (or its longest line) plus what validation keeps
/// (see `TraceValidator`): events come without their `state` (checked as JSON and skipped, never
/// built). A regular file of more than 1 MB is read in parts of 256 KB by other threads
/// (`TraceValidator.parallelism` in all), which check each line as JSON a few parts ahead, while
/// the calling thread applies the rules and calls `body`, in file order (what `body` gets is the
/// same as on one thread); a smaller file is read on the calling thread, and a pipe as it comes.
/// `body` is always called on the calling thread.
///
/// The events are those `TraceFile` has (lines that are not `malformed` or `truncated`), with
/// the same `index` and `line`. A problem is given with its line, as validation finds it; the few
/// found only later (an `unresolved` rule, found at the end; the final count of a `cause-loop`)
/// are in the returned report, which is what `TraceValidator` says of the same bytes.
public struct TraceStream: Sendable {
    /// One line of the trace as the reading reaches it: an event, or a line that is not one but
    /// has problems (the header, a malformed line).
    public struct Line: Sendable {
        /// The 1-based file line.
        public var line: Int
        /// The event on the line, without its `state`; nil when the line is not an event.
        public var event: TraceEvent?
        /// The problems validation found on the line so far, in the report's order.
        public var problems: [Problem]
        /// The line's problems past `TraceValidator.maximumProblems`, when the validator
        /// `recordsOmittedPlaces` (otherwise they are only counted).
        public var omittedProblems: [ProblemPlace] = []
        /// The bytes of the file read up to the end of this line: how far the reading went.
        public var end: Int
    }

    /// One line as `forEachScannedLine` reaches it: `Line` with the event as the bytes of its
    /// line, valid only during the call.
    public struct ScannedLine {
        /// The 1-based file line.
        public var line: Int
        /// The event on the line, as bytes; nil when the line is not an event.
        public var event: ScannedEvent?
        /// The problems validation found on the line so far, in the report's order.
        public var problems: [Problem]
        /// The line's problems past `TraceValidator.maximumProblems`, as in `Line`.
        public var omittedProblems: [ProblemPlace]
        /// The bytes of the file read up to the end of this line.
        public var end: Int
        /// What the `EventPreparer` given to `forEachScannedLine` made of the event on the
        /// scanning thread; nil when it did not run on it or refused it.
        public var prepared: UnsafeRawBufferPointer? {
            preparedBytes.map { UnsafeRawBufferPointer(start: $0.unsafeBaseAddress, count: $0.count) }
        }
        /// The same bytes, as the reader holds them.
        package var preparedBytes: ByteView?
    }

    /// The path read, as given.
    public let path: String
    /// The validation applied as the lines are read.
    public var validator: TraceValidator
    /// Where the lines come from.
    private enum Origin {
        case path
        case bytes([UInt8])
        /// A trace already open: its file (read again with `pread`) or its bytes.
        case open(TraceSource)
    }
    private let origin: Origin

    /// A stream of the trace at `path`: a file, or a pipe such as `/dev/stdin` (read as it
    /// comes, never held whole). Nothing is opened before `forEachLine`.
    public init(path: String, validator: TraceValidator = TraceValidator()) {
        self.path = path
        self.validator = validator
        self.origin = .path
    }

    /// A stream of the trace `trace` was opened from, without opening its path again: the file
    /// through the descriptor `trace` holds, or the bytes read from a pipe (as `validate` reads it).
    public init(trace: TraceFile, validator: TraceValidator = TraceValidator()) {
        self.path = trace.path
        self.validator = validator
        self.origin = .open(trace.source)
    }

    /// A stream of a trace held in memory, such as `MemorySink().data` in a test.
    /// - Parameter name: what errors and the report call the trace.
    public init(bytes: [UInt8], name: String = "trace", validator: TraceValidator = TraceValidator()) {
        self.path = name
        self.validator = validator
        self.origin = .bytes(bytes)
    }

    /// Reads the trace from its start, calling `body` with each event and each other line that
    /// has problems, in file order, until `body` returns false or the file ends; returns the
    /// validation report of what was read.
    ///
    /// - Throws: `TraceOpenError` as `TraceFile(path:)` throws it: the file cannot be opened or
    ///   read, or line 1 is not a trace header (then `body` is never called).
    @discardableResult
    public func forEachLine(_ body: (Line) -> Bool) throws(TraceOpenError) -> ValidationReport {
        try forEachScannedLine { line in
            body(
                Line(
                    line: line.line, event: line.event?.event, problems: line.problems,
                    omittedProblems: line.omittedProblems, end: line.end))
        }
    }

    /// Reads the trace as `forEachLine` does, giving each event as the bytes of its line
    /// (`ScannedEvent`) instead of a `TraceEvent`: nothing is made of a line that `body` does
    /// not ask for. `preparer`'s work runs on the events of a large file on the thread that
    /// scans it (see `EventPreparer`).
    ///
    /// - Throws: as `forEachLine`.
    @discardableResult
    public func forEachScannedLine(preparing preparer: EventPreparer? = nil, _ body: (ScannedLine) -> Bool)
        throws(TraceOpenError) -> ValidationReport
    {
        var reader = StreamState(path: path, validator: validator)
        var failure: TraceOpenError?
        // Where a line read on this thread is scanned (kept until `body` has it).
        let scratch = UnsafeMutablePointer<EventFields>.allocate(capacity: 1)
        scratch.initialize(to: EventFields())
        defer { scratch.deallocate() }
        /// Validates one line and gives it to `body`; false to stop (a bad header stops too).
        func feed(_ line: LineReader.Line) -> Bool {
            do throws(TraceOpenError) {
                guard let found = try reader.consume(line, scratch: scratch) else { return true }
                return body(found)
            } catch {
                failure = error
                return false
            }
        }
        let maximumLineLength = validator.maximumLineLength
        var opened: TraceInput?
        switch origin {
        case .path: break
        case .open(let source):
            switch source.storage {
            case .file(let input): opened = input
            case .memory(let bytes):
                return try Self(bytes: bytes, name: path, validator: validator).forEachScannedLine(
                    preparing: preparer, body)
            }
        case .bytes(let bytes):
            guard !bytes.isEmpty else { throw TraceStream.emptyFile(path) }
            ByteView.withBytes(of: bytes) { buffer in
                _ = LineReader.forEachLine(in: buffer, maximumLineLength: maximumLineLength, feed)
            }
            if let failure { throw failure }
            return reader.run.finish()
        }
        let input: TraceInput
        do throws(TraceInput.Failure) {
            if let opened { input = opened } else { input = try TraceInput.open(path) }
        } catch {
            let (kind, line, message) = error.openError
            throw TraceOpenError(kind: kind, path: path, line: line, message: message)
        }
        if let line = input.firstLineIfNotAHeader() {
            // No header can start this way: only line 1 is read (a device may never end).
            throw TraceOpenError(kind: .notATrace, path: path, line: 1, message: TraceHeader.whyNotAHeader(line))
        }
        let partSize = max(1, validator.blockSize / 4)
        if case .regularFile(let size) = input.kind, size > partSize, validator.parallelism > 1 {
            // A file of more than one part is read and scanned on other threads, parts ahead of
            // the rules and `body`, which see the same lines in the same order on this thread.
            let scanner = ParallelScan(
                width: validator.parallelism, partSize: min(partSize, ParallelScan.preferredPartSize))
            // `input` (its descriptor) outlives the scan, which returns once its threads have ended.
            let outcome = withExtendedLifetime(input) {
                scanner.scanOnCallingThread(
                    descriptor: input.file.rawValue, maximumLineLength: maximumLineLength, preparer: preparer
                ) { line, fields, error, prepared in
                    do throws(TraceOpenError) {
                        guard var found = try reader.consume(line, scanned: fields, error: error, scratch: scratch)
                        else { return true }
                        if found.event != nil { found.preparedBytes = prepared }
                        return body(found)
                    } catch {
                        failure = error
                        return false
                    }
                }
            }
            if case .readFailed(let code) = outcome {
                throw TraceOpenError(
                    kind: .unreadable, path: path, message: "cannot read: \(SystemError(code: code).reason)")
            }
            if let failure { throw failure }
            if reader.lineNumber == 0 { throw TraceStream.emptyFile(path) }
            return reader.run.finish()
        }
        do {
            try input.forEachChunk(blockSize: validator.blockSize, maximumLineLength: maximumLineLength) { chunk, _ in
                let lines: ByteView
                switch chunk {
                case .overlongLine:
                    return feed(LineReader.Line(bytes: .empty, isTerminated: false, isOverlong: true))
                case .lines(let bytes): lines = bytes
                }
                return LineReader.forEachLine(in: lines, maximumLineLength: maximumLineLength, feed)
            }
        } catch {
            throw TraceOpenError(kind: .unreadable, path: path, message: "cannot read: \(error.reason)")
        }
        if let failure { throw failure }
        if reader.lineNumber == 0 { throw TraceStream.emptyFile(path) }
        return reader.run.finish()
    }

    private static func emptyFile(_ path: String) -> TraceOpenError {
        TraceOpenError(
            kind: .notATrace, path: path, line: 1, message: "the file is empty; \(TraceLoader.startsWithHeader)")
    }

    /// The reading: the validation run and the count of lines and events.
    private struct StreamState {
        let path: String
        var run: ValidationRun
        var lineNumber = 0
        var eventCount = 0
        var bytesRead = 0

        init(path: String, validator: TraceValidator) {
            self.path = path
            self.run = ValidationRun(
                file: path, machines: validator.machines, rules: validator.rules,
                maximumProblems: validator.maximumProblems, maximumCauseDepth: validator.maximumCauseDepth)
            run.recordsOmittedPlaces = validator.recordsOmittedPlaces
            run.rebuiltValueLimit = validator.rebuiltValueLimit
        }

        /// Validates the next line, scanned into `scratch`; returns it when it is an event or has
        /// problems.
        mutating func consume(_ line: LineReader.Line, scratch: UnsafeMutablePointer<EventFields>)
            throws(TraceOpenError) -> ScannedLine?
        {
            try consume(line, scanned: nil, error: nil, scratch: scratch)
        }

        /// Validates the next line, scanned already (by `ParallelScan`'s threads) into `scanned`,
        /// or found not to be one JSON object (`error`); unscanned when `scanned` is nil.
        /// Returns the line when it is an event or has problems.
        mutating func consume(
            _ line: LineReader.Line, scanned: ScannedFields?, error: JSONParseError?,
            scratch: UnsafeMutablePointer<EventFields>
        ) throws(TraceOpenError) -> ScannedLine? {
            lineNumber += 1
            bytesRead += line.bytes.count + (line.isTerminated ? 1 : 0)
            let before = run.report.problems.count
            let omittedBefore = run.report.omittedPlaces.count
            var event: ScannedEvent?
            if lineNumber == 1 {
                if line.isOverlong {
                    throw TraceOpenError(
                        kind: .notATrace, path: path, line: 1,
                        message:
                            "line 1 is longer than \(TraceLoader.describeSize(LineReader.maximumLineLength)); it is not a trace header"
                    )
                }
                do {
                    _ = try TraceHeader.parse(line.bytes)
                } catch {
                    throw TraceOpenError(kind: .notATrace, path: path, line: 1, message: error.message)
                }
                _ = run.consume(line)
            } else if line.isOverlong || LineReader.isEmpty(line.bytes) {
                _ = run.consume(line)
            } else if let scanned {
                event = consumeEvent(line, scanned, error: error)
            } else {
                scratch.pointee = EventFields()
                var failure: JSONParseError?
                do {
                    try EventScanner.scan(line.bytes, into: &scratch.pointee)
                } catch {
                    failure = error
                }
                event = consumeEvent(line, ScannedFields(scratch), error: failure)
            }
            let found = run.report.problems.count > before ? Array(run.report.problems[before...]) : []
            let omitted =
                run.report.omittedPlaces.count > omittedBefore ? Array(run.report.omittedPlaces[omittedBefore...]) : []
            guard event != nil || !found.isEmpty || !omitted.isEmpty else { return nil }
            return ScannedLine(
                line: lineNumber, event: event, problems: found, omittedProblems: omitted, end: bytesRead)
        }

        /// Checks an event line scanned into `fields`; returns its event when it is one.
        private mutating func consumeEvent(
            _ line: LineReader.Line, _ fields: ScannedFields, error: JSONParseError?
        ) -> ScannedEvent? {
            _ = run.consume(line, scanned: fields, error: error)
            guard error == nil && run.skippedLine != lineNumber,
                let event = ScannedEvent(fields: fields, bytes: line.bytes, index: eventCount, line: lineNumber)
            else { return nil }
            eventCount += 1
            return event
        }
    }
}
