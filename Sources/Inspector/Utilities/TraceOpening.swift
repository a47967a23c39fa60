import CommandLineArguments
import Recorder
import TraceReader

/// Opening a trace for a command: errors become `FileError`s (exit 2) that name the file and
/// line, and what the reader skipped is reported on standard error as warnings.
enum TraceOpening {
    /// Reads the trace at `path` once, validated as it goes (`TraceStream`): `body` gets each
    /// event and each other line with problems as the reading reaches it; returns the report.
    /// - Throws: a `FileError` saying why the trace cannot be used, as `open` does.
    static func stream(_ path: String, _ body: (TraceStream.Line) -> Bool) throws(FileError) -> ValidationReport {
        do {
            return try TraceStream(path: path).forEachLine(body)
        } catch {
            throw FileError(path, line: error.line, error.message)
        }
    }

    /// `stream`, each event given as the bytes of its line (`ScannedEvent`), valid only during
    /// the call: for `log`, which prints most rows from their bytes.
    static func streamScanned(
        _ path: String, preparing preparer: EventPreparer? = nil, _ body: (TraceStream.ScannedLine) -> Bool
    ) throws(FileError) -> ValidationReport {
        do {
            return try TraceStream(path: path).forEachScannedLine(preparing: preparer, body)
        } catch {
            throw FileError(path, line: error.line, error.message)
        }
    }

    /// Opens the trace at `path`, or throws a `FileError` saying why it cannot be used.
    static func open(_ path: String) throws(FileError) -> TraceFile {
        do {
            return try TraceFile(path: path)
        } catch {
            throw FileError(path, line: error.line, error.message)
        }
    }

    /// Opens the trace at `path` from its first part, to be indexed whole in the background
    /// (`TraceIndexing`), or throws a `FileError` saying why it cannot be used.
    static func indexing(_ path: String) throws(FileError) -> TraceIndexing {
        do {
            return try TraceIndexing(path: path)
        } catch {
            throw FileError(path, line: error.line, error.message)
        }
    }

    /// The whole trace of `indexing`, waiting for it; a `FileError` when it cannot be indexed.
    static func whole(of indexing: TraceIndexing) throws(FileError) -> TraceFile {
        do {
            return try indexing.wait().get()
        } catch {
            throw FileError(error.path, line: error.line, error.message)
        }
    }

    /// The machines of the spec file `--spec` names (none without one), or a `FileError`
    /// naming the file and what is wrong with it.
    static func specMachines(at path: String?) throws(FileError) -> [String: MachineSpec] {
        guard let path else { return [:] }
        do {
            return try SpecFile.machines(at: path)
        } catch {
            throw FileError(error.path, line: error.line, "spec: \(error.message)")
        }
    }

    /// Prints what the reader skipped or noticed, as compilers print warnings:
    /// `traces/x.jsonl:17: warning: …`. At most `limit` lines, then a count of the rest.
    static func reportIssues(of trace: TraceFile, console: Console, limit: Int = 5) {
        reportIssues(trace.issues, path: trace.path, console: console, limit: limit)
    }

    /// `reportIssues(of:console:limit:)` for the issues of the trace at `path`, read without
    /// a `TraceFile` (`inspector stats`).
    static func reportIssues(_ issues: [TraceReadIssue], path: String, console: Console, limit: Int = 5) {
        for issue in issues.prefix(limit) {
            console.err.line("inspector: \(TTY.safe(path)):\(issue.line): warning: \(TTY.safe(issue.message))")
        }
        if issues.count > limit {
            console.err.line(
                "inspector: \(TTY.safe(path)): warning: \(issues.count - limit) more lines were skipped or noted; run 'inspector validate \(TTY.safe(path))' for all of them"
            )
        }
    }

    /// Runs `body`, which reads lines of an open trace; a line that can no longer be read (the
    /// file changed since it was opened), or a version 2 patch that does not apply, becomes a
    /// `FileError` naming the line (exit 2).
    static func reading<Value>(_ body: () throws(TraceReadError) -> Value) throws(FileError) -> Value {
        do {
            return try body()
        } catch {
            throw FileError(error.path, line: error.line, error.message)
        }
    }

    /// Reads a step number for `trace`: a whole number from 0 to the trace's last step.
    static func step(_ text: String, in trace: TraceFile, what: String = "step") throws(UsageError) -> Int {
        guard let step = Int(text), step >= 0 else {
            throw UsageError("\(what) must be a whole number from 0 to \(trace.lastStep), not '\(text)'")
        }
        guard step <= trace.lastStep else {
            throw UsageError(
                "\(what) \(step) is past the end of \(TTY.safe(trace.path)), whose last step is \(trace.lastStep)")
        }
        return step
    }

    /// The validation problems of the trace, every one of them, for marking events: from the
    /// bytes the trace was opened from (a pipe is never read twice).
    /// - Throws: `FileError` when the file can no longer be read.
    static func problemMarks(of trace: TraceFile) throws(FileError) -> ProblemMarks {
        do {
            return ProblemMarks(try trace.validate(with: ProblemMarks.validator))
        } catch {
            throw FileError(error.path, line: error.line, error.message)
        }
    }

    /// `problemMarks(of:)` as a dictionary by line, at most 1000 problems (as `validate` lists).
    static func problemsByLine(of trace: TraceFile) throws(FileError) -> [Int: [Problem]] {
        do {
            return Dictionary(grouping: try trace.validate().problems, by: \.line)
        } catch {
            throw FileError(error.path, line: error.line, error.message)
        }
    }
}
