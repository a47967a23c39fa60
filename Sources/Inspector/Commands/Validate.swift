import CommandLineArguments
import Recorder
@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) internal import ToolSupport
import TraceReader

/// `inspector validate`: checks traces against the validity rules of the trace format, the gate
/// that CI runs on every recorded trace.
enum Validate: Command {
    static let name = "validate"
    static let summary = "check traces against the format and their state machines (the CI gate)"
    static let help = """
        Usage: inspector validate TRACE... [--spec FILE] [--strict] [--format text|json|github|junit]
                                  [--max-problems N] [--max-cause-depth N] [--source-root DIR]

        Checks each trace against the validity rules of the Rewind trace format (versions 1 and
        2): the header, the shape and types of every event, seq numbers, each store's state
        machine (from the header, the store's register event or --spec: unknown cases,
        discontinuities, illegal transitions), the rules over time of the header or the spec
        (a case left too late, a case the trace ends in), and in version 2 that every patch
        applies to the state before it. A directory stands for the *.jsonl files directly in it,
        in name order (not those in its subfolders). Each file is read as a stream, in parts on
        every core; files are validated in parallel and the output keeps the order given. A large file shows its progress on standard error when that is a
        terminal.

        Options:
          --spec FILE         take state machines and rules from FILE,
                              {"machines": {...}, "rules": [...]} shaped like a trace header's:
                              its machines replace the trace's, store by store (a register's
                              machine too); its "rules", when it has the key, replace the
                              header's ("rules": [] checks none). A rule is
                              {"store": S, "case": C, "within": {"events": K, "seconds": T}}
                              or {"store": S, "notAtEnd": [C, ...]}
          --strict            count warnings (a torn last line, unchecked, unresolved) as errors
          --format FORMAT     text (default): one line per problem, FILE:LINE: error: MESSAGE [KIND],
                                then a summary line per file
                              json: one object per file per line, as the trace format describes
                              github: GitHub Actions annotations (::error file=…,line=…::…),
                                on the Swift line that sent the action where it is found
                                under --source-root, with the trace's file and line in the
                                message; on the trace's line otherwise
                              junit: a JUnit XML report, a test case per trace, each
                                failure's text ending with the recorded call stack
          --max-problems N    list at most N problems per file (default 1000); all are counted
          --max-cause-depth N
                              how many times a chain of causes (one store reacting to another)
                              may pass through the same store and action before it is a
                              cause-loop warning (default 8, at least 1)
          --source-root DIR   where the app's Swift files are (default: the current directory,
                              the repository's root in CI): a transition's source
                              Module/File.swift:LINE is the File.swift in a folder Module
                              (Sources/Module/... first), an older File.swift:LINE the one file
                              of that name. Hidden folders (.build, .git) are not searched. A
                              recorded call stack is shown folded to the frames of files found
                              there (json: "sourceFile", "sourceLine" and the whole "stack")

        Problem kinds: not-a-trace (fatal); malformed, seq, unregistered, unknown-case,
        discontinuity, illegal, overdue (a rule's "within" broken), bad-patch (a version 2 patch
        that does not apply) (errors); truncated, unchecked (a case for a store without a
        machine), unresolved (a store ends in a case its rule's "notAtEnd" lists), cause-loop
        (warnings). cause-loop is this project's addition to the format
        (docs/TRACE_FORMAT_ADDITIONS.md): stores that react to each other in a loop.

        Exit status:
          0  no errors (warnings allowed unless --strict)
          1  at least one error (or, with --strict, a warning)
          2  a file is missing, unreadable or not a trace, or the command line is wrong (a spec
             file whose machines or rules are not shaped included); the other traces are still
             validated and reported, except after a bad spec
        """

    /// Files from this size on show progress on a terminal.
    static let progressThreshold = 64 << 20

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let strict = arguments.flag("--strict")
        let format =
            try arguments.choice("--format", among: ValidationFormat.allCases.map(\.rawValue))
            .flatMap(ValidationFormat.init(rawValue:)) ?? .text
        let specPath = try arguments.option("--spec")
        let maximumProblems = try arguments.intOption("--max-problems", atLeast: 0) ?? 1000
        let maximumCauseDepth =
            try arguments.intOption("--max-cause-depth", atLeast: 1) ?? TraceValidator.defaultMaximumCauseDepth
        let sourceRoot = try SourceRoot.option(&arguments)
        let paths = arguments.remainingPositionals()
        try arguments.finish()
        guard !paths.isEmpty else {
            throw UsageError("missing TRACE: give trace files (*.jsonl) or directories of them")
        }

        var spec = SpecFile.Contents()
        if let specPath {
            do {
                spec = try SpecFile.read(at: specPath)
            } catch {
                throw FileError(error.path, line: error.line, "spec: \(error.message)")
            }
        }
        let validator = TraceValidator(
            machines: spec.machines, rules: spec.rules, maximumProblems: maximumProblems,
            maximumCauseDepth: maximumCauseDepth)

        let targets = targets(paths)
        var reporter = format.reporter(strict: strict, sourceRoot: sourceRoot)
        var status = ExitStatus.success
        validateAll(targets, with: validator, console: console) { outcome in
            reporter.write(outcome, console: console)
            status = max(status, outcome.exitStatus(strict: strict))
        }
        reporter.finish(console: console)
        return status
    }

    /// A path to validate, or the reason it cannot be.
    enum Target: Sendable {
        case file(String)
        case unusable(ValidationFileError)
    }

    /// Validates `targets` in parallel, a file per core (`ParallelFiles`), and calls `report`
    /// with each outcome in the order of `targets`, as soon as it and those before it are done.
    /// Files from `progressThreshold` on show their progress on standard error when it is a
    /// terminal.
    static func validateAll(
        _ targets: [Target], with validator: TraceValidator, console: Console, report: (ValidationOutcome) -> Void
    ) {
        var progressShown = false
        let showProgress = { (read: Int, total: Int) in
            guard total > 0 else { return }
            let percent = min(100, read * 100 / total)
            console.err.writeControl("\r\u{1B}[K")
            console.err.write("inspector validate: \(megabytes(read)) of \(megabytes(total)) (\(percent)%)")
            progressShown = true
        }
        let validate = { @Sendable (index: Int, progress: ParallelFiles.Progress) -> ValidationOutcome in
            switch targets[index] {
            case .unusable(let error):
                return .unreadable(error)
            case .file(let path):
                do throws(ValidationFileError) {
                    return .report(
                        try validator.validate(file: path) { read, total in
                            guard total >= progressThreshold else { return }
                            progress.report(read: read, total: total)
                        })
                } catch {
                    return .unreadable(error)
                }
            }
        }
        ParallelFiles.forEach(count: targets.count, validate, progress: console.errorIsTerminal ? showProgress : nil) {
            _, outcome in
            if progressShown {
                console.err.writeControl("\r\u{1B}[K")
                progressShown = false
            }
            report(outcome)
            console.out.flush()
        }
        if progressShown { console.err.writeControl("\r\u{1B}[K") }
    }

    /// `123 MB`, `1.2 GB`.
    static func megabytes(_ bytes: Int) -> String {
        if bytes >= 1_000_000_000 {
            let tenths = bytes / 100_000_000
            return "\(tenths / 10).\(tenths % 10) GB"
        }
        return "\(bytes / 1_000_000) MB"
    }

    /// The files `paths` stand for, in order: directories become their *.jsonl files (see
    /// `expand`), and one that has none is a file error of its own. `coverage` reads the same.
    static func targets(_ paths: [String]) -> [Target] {
        var targets: [Target] = []
        for path in paths {
            switch expand(path) {
            case .file: targets.append(.file(path))
            case .directory(let files) where files.isEmpty:
                targets.append(
                    .unusable(ValidationFileError(path: path, message: "no *.jsonl files in this directory")))
            case .directory(let files): targets += files
            }
        }
        return targets
    }

    /// What a path on the command line stands for: a file, or a directory's trace files.
    enum Expansion {
        case file
        case directory([Target])
    }

    /// A directory stands for the `*.jsonl` files directly in it, in name order (hidden files
    /// and subfolders left out); anything else is taken as a file (and reported if it cannot be
    /// read). Names are bytes (`PathName`): one that is not UTF-8 is validated like any other.
    /// A `*.jsonl` entry that is not a regular file (a pipe, a link to a folder) is not read,
    /// but reported, never skipped silently.
    static func expand(_ path: String) -> Expansion {
        guard (try? SystemCalls.status(ofPath: path))?.kind == .directory,
            let names = try? SystemCalls.directoryEntries(path)
        else { return .file }
        var targets: [(name: [UInt8], target: Target)] = []
        for name in names where name.hasSuffix(".jsonl") && !name.hasPrefix(".") {
            let full = path.hasSuffix("/") ? path + name : path + "/" + name
            let kind = (try? SystemCalls.status(ofPath: full))?.kind
            let target: Target
            switch kind {
            case .regular?: target = .file(full)
            case .directory?: continue  // a folder named *.jsonl is a subfolder, left out as the help says
            default:
                let what =
                    switch kind {
                    case .pipe?: "a named pipe"
                    case .characterDevice?, .blockDevice?: "a device"
                    case .socket?: "a socket"
                    case nil: "cannot be read: a broken link?"
                    default: "not a file"
                    }
                target = .unusable(
                    ValidationFileError(
                        path: full, message: "is not a regular file (\(what)); not read, give it by name to read it"))
            }
            targets.append((PathName.bytes(name), target))
        }
        // Byte order, as `ls` sorts in the C locale: the same whatever the names' encoding.
        return .directory(targets.sorted { $0.name.lexicographicallyPrecedes($1.name) }.map(\.target))
    }
}
