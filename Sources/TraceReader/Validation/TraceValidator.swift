import Recorder
@_spi(RewindInternals) internal import RewindSupport
import TraceJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checks traces against the validity rules of shared/TRACE_FORMAT.md (versions 1 and 2, rules
/// over time included), the engine of
/// `inspector validate`, for an app's own tests too:
///
/// ```swift
/// let sink = MemorySink()
/// // … record a scenario into `sink` …
/// let report = TraceValidator().validate(bytes: sink.data)
/// #expect(report.problems.isEmpty, "\(report.problems)")
/// ```
///
/// Validation streams: each line is read once, only the keys the rules need are extracted, and
/// `state` values are checked as JSON and skipped without being built. A file is read in blocks
/// of a few megabytes, so memory does not grow with its size (only with its longest line). A
/// large file is read and scanned in parts of 256 KB by every core at once, while the rules are
/// applied to the parts already scanned, in order; the result is the same as on one thread.
public struct TraceValidator: Sendable {
    /// Machines that replace the header's, store by store (`inspector validate --spec`); they
    /// also win over the machines that register events carry.
    public var machines: [String: MachineSpec]
    /// Rules over time that replace the header's (a `--spec` file's `rules`); nil keeps the
    /// header's, `[]` checks none.
    public var rules: [TraceRule]?
    /// The most problems a report lists; the rest are counted in `ValidationReport.omitted`.
    /// This bounds the memory spent on a file that is wrong on every line.
    public var maximumProblems: Int
    /// Whether the report keeps the line and kind of each problem past `maximumProblems`
    /// (`ValidationReport.omittedPlaces`, 16 bytes each), for a viewer that marks every problem
    /// (`inspector step`). Off by default: `validate` only counts them.
    public var recordsOmittedPlaces = false
    /// The most times a chain of `cause`s may pass through the same store and action; one more
    /// is a `cause-loop` warning (`inspector validate --max-cause-depth`). At least 1.
    public var maximumCauseDepth: Int

    /// The default `maximumCauseDepth`: a chain may come back to the same store and action 8
    /// times, far more than a reaction and its follow-ups need, far fewer than a runaway loop.
    public static let defaultMaximumCauseDepth = 8

    /// How much of a file is read at once by one thread; several threads read parts of a quarter
    /// of it, at most `ParallelScan.preferredPartSize`.
    var blockSize = 4 << 20
    /// How many threads scan a large file: the machine's cores, at most 8.
    var parallelism = ParallelScan.defaultWidth
    /// The size from which a regular file is scanned on several threads.
    var parallelThreshold = 32 << 20
    /// The longest line that is kept; longer lines are malformed (1 GiB, as the format says).
    var maximumLineLength = LineReader.maximumLineLength
    /// Version 2: the most values copies may add to a rebuilt state beyond those its lines spell
    /// out (`RebuiltStateSize.maximumValues`); a test of the bound sets fewer.
    package var rebuiltValueLimit = RebuiltStateSize.maximumValues

    /// Creates a validator.
    /// - Parameters:
    ///   - machines: machines that replace the header's, store by store; stores not named here
    ///     keep the header's machine.
    ///   - rules: rules over time that replace the header's; nil keeps the header's.
    ///   - maximumProblems: the most problems a report lists (the others are still counted).
    ///   - maximumCauseDepth: the most times a chain of causes may pass through the same store
    ///     and action before it is reported as a `cause-loop`.
    public init(
        machines: [String: MachineSpec] = [:], rules: [TraceRule]? = nil, maximumProblems: Int = 1000,
        maximumCauseDepth: Int = TraceValidator.defaultMaximumCauseDepth
    ) {
        self.machines = machines
        self.rules = rules
        self.maximumProblems = maximumProblems
        self.maximumCauseDepth = max(1, maximumCauseDepth)
    }

    /// Validates the trace file at `path`.
    ///
    /// - Parameter progress: called after each block read, with the bytes read so far and the
    ///   file's size (0 when unknown, as for a pipe): on the calling thread, or for a large file
    ///   on one of the threads that scan it, never two calls at once.
    /// - Throws: `ValidationFileError` when the file cannot be opened or read; every problem of
    ///   a file that can be read, `not-a-trace` included, is in the report instead.
    public func validate(
        file path: String, progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)? = nil
    ) throws(ValidationFileError) -> ValidationReport {
        let input: TraceInput
        do {
            input = try TraceInput.open(path)
        } catch {
            switch error {
            case .system(let code): throw ValidationFileError(path: path, message: Self.openFailure(code))
            case .directory:
                throw ValidationFileError(path: path, message: "is a directory; give the trace files in it (*.jsonl)")
            case .nothingCame(description: "a file"):
                // An empty file: the rules say what that is (not-a-trace).
                return validate(bytes: [], file: path)
            case .noWriter, .nothingCame:
                // Not a file at all: say what it is.
                throw ValidationFileError(path: path, line: error.openError.line, message: error.openError.message)
            }
        }
        return try validate(input, progress: progress)
    }

    /// Validates what `input` holds, from its start, without opening its path again: a regular
    /// file with `pread` (so that the descriptor's offset stays where it was), a stream as it
    /// comes. When line 1 cannot start with `{`, only line 1 (up to its first 64 KiB) is read:
    /// it is `not-a-trace`, and a device that never ends (/dev/zero) is not read for ever.
    func validate(
        _ input: TraceInput, progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)? = nil
    ) throws(ValidationFileError) -> ValidationReport {
        let path = input.path
        let descriptor = input.file.rawValue
        var isRegularFile = false
        if case .regularFile = input.kind { isRegularFile = true }
        var run = ValidationRun(
            file: path, machines: machines, rules: rules, maximumProblems: maximumProblems,
            maximumCauseDepth: maximumCauseDepth, headerFile: isRegularFile ? descriptor : nil)
        run.recordsOmittedPlaces = recordsOmittedPlaces
        run.rebuiltValueLimit = rebuiltValueLimit
        let maximumLineLength = maximumLineLength
        let consume: (LineReader.Chunk) -> Bool = { chunk in
            switch chunk {
            case .overlongLine:
                return run.consume(
                    LineReader.Line(bytes: .empty, isTerminated: false, isOverlong: true))
            case .lines(let bytes):
                return LineReader.forEachLine(in: bytes, maximumLineLength: maximumLineLength) { run.consume($0) }
            }
        }
        if let line = input.firstLineIfNotAHeader() { return validate(bytes: line, file: path) }
        var total = 0
        if case .regularFile(let size) = input.kind {
            total = size
            #if canImport(Glibc)
                _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
            #endif
            // A large regular file is read and scanned in parts on every core.
            if total >= parallelThreshold && parallelism > 1 {
                let partSize = min(max(1, blockSize / 4), ParallelScan.preferredPartSize)
                let scanner = ParallelScan(width: parallelism, partSize: partSize)
                let outcome = scanner.scan(descriptor: descriptor, maximumLineLength: maximumLineLength, into: &run) {
                    read in
                    progress?(read, total)
                }
                if case .readFailed(let code) = outcome {
                    throw ValidationFileError(path: path, message: "cannot read: \(SystemError(code: code).reason)")
                }
                return run.finish()
            }
        }
        // A small file, or a stream, a block at a time on this thread.
        do {
            try input.forEachChunk(blockSize: blockSize, maximumLineLength: maximumLineLength) { chunk, read in
                progress?(read, total)
                return consume(chunk)
            }
        } catch {
            throw ValidationFileError(path: path, message: "cannot read: \(error.reason)")
        }
        return run.finish()
    }

    /// Validates a trace held in memory, such as `MemorySink.data`; `file` names it in the report.
    public func validate(bytes: some Collection<UInt8>, file: String = "trace.jsonl") -> ValidationReport {
        var run = ValidationRun(
            file: file, machines: machines, rules: rules, maximumProblems: maximumProblems,
            maximumCauseDepth: maximumCauseDepth)
        run.recordsOmittedPlaces = recordsOmittedPlaces
        run.rebuiltValueLimit = rebuiltValueLimit
        ByteView.withBytes(of: bytes) { buffer in
            _ = LineReader.forEachLine(in: buffer, maximumLineLength: maximumLineLength) { run.consume($0) }
        }
        return run.finish()
    }

    static func openFailure(_ code: Int32) -> String {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOENT: return "cannot open: \(reason); check the path"
        case EACCES, EPERM: return "cannot open: \(reason); check the file's permissions"
        default: return "cannot open: \(reason)"
        }
    }
}
