import CommandLineArguments
import Recorder
import TraceJSON
import TraceQueries
import TraceReader

/// `inspector coverage`: which declared transitions a set of recorded runs took, how often, and
/// which they never did; fails the build below a threshold.
enum Coverage: Command {
    static let name = "coverage"
    static let summary = "which declared transitions recorded runs took, and which they never did"
    static let help = """
        Usage: inspector coverage TRACE... [--spec FILE] [--min PERCENT]
                                  [--format text|json|github|junit|html] [-o FILE]
                                  [--source-root DIR]

        Adds up, over every trace given, how often each store's state machine took each of its
        declared transitions, and lists those no run took, the cases no run visited, and the
        transitions taken that the machine does not declare (illegal ones). Coverage is the
        declared transitions taken at least once over the declared transitions, per machine and
        overall. A directory stands for the *.jsonl files directly in it, as for validate.
        Files are read in parallel.

        A machine is identified by its store's name. In each trace a store's machine is the
        spec's, else the one its last register event carries, else the header's; when the traces
        declare different machines for a store, coverage is measured against the one most of them
        declare, and the output says how many declared another (pin one with --spec).

        Options:
          --spec FILE       take state machines from FILE, {"machines": {...}}, store by store
          --min PERCENT     fail (exit 1) when the overall coverage is below PERCENT (0 to 100)
          --format FORMAT   text (default): per machine, each declared transition with how often
                              and in how many traces it was taken, then a summary line
                            json: one object, {"traces","declared","taken","percent","machines":
                              [{"store","declared","taken","percent","transitions":[{"from","to",
                              "count","traces","actions"}],"illegal":[…],"unvisited":[…]}],…}
                            github: GitHub Actions annotations: a warning per declared transition
                              never taken, an error when below --min; a machine's warnings are
                              on the Swift line that declares it (its type conforming to
                              StateMachine) where that is found under --source-root
                            junit: a JUnit XML report, a test case per machine and one for --min
                            html: one self-contained page drawing each machine with its taken,
                              never-taken and illegal transitions (write it with -o)
          -o FILE           write the output to FILE instead of standard output
          --source-root DIR where the app's Swift files are (default: the current directory),
                            for --format github

        Exit status:
          0  success (and the coverage is at least --min)
          1  the overall coverage is below --min (or no machine declares a transition)
          2  the command line is wrong, or a file cannot be read or is not a trace (the other
             traces are still counted and reported), or the spec file cannot be used
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let format =
            try arguments.choice("--format", among: CoverageFormat.allCases.map(\.rawValue))
            .flatMap(CoverageFormat.init(rawValue:)) ?? .text
        let specPath = try arguments.option("--spec")
        let minimum = try arguments.option("--min").map(parseMinimum)
        let output = try arguments.option("-o", "--output")
        let sourceRoot = try SourceRoot.option(&arguments)
        let paths = arguments.remainingPositionals()
        try arguments.finish()
        guard !paths.isEmpty else {
            throw UsageError("missing TRACE: give trace files (*.jsonl) or directories of them")
        }
        let machines = try TraceOpening.specMachines(at: specPath)

        var files: [String] = []
        var failures: [ValidationFileError] = []
        for target in Validate.targets(paths) {
            switch target {
            case .file(let path): files.append(path)
            case .unusable(let error): failures.append(error)
            }
        }
        var coverage = TraceCoverage.measure(files: files, machines: machines)
        coverage.failures = failures + coverage.failures
        let outcome = CoverageOutcome(coverage: coverage, minimum: minimum)

        for failure in coverage.failures where format != .github && format != .junit {
            console.err.line("inspector: \(TTY.safe(failure.description))")
        }
        if coverage.unreadableLines > 0 {
            console.err.line(
                "inspector: \(counted(coverage.unreadableLines, "line")) of the traces could not be read and \(coverage.unreadableLines == 1 ? "was" : "were") left out; run 'inspector validate' on them"
            )
        }
        let text: String
        switch format {
        case .text: text = CoverageText.write(outcome, style: output == nil ? console.style : Style(enabled: false))
        case .json: text = JSONPrinter.compact(CoverageJSON.value(outcome), terminalSafe: true) + "\n"
        case .github: text = CoverageGitHub.write(outcome, sourceRoot: sourceRoot)
        case .junit: text = CoverageJUnit.write(outcome)
        case .html: text = CoveragePage.write(outcome)
        }
        if let output {
            // As private as the first trace: the page names its stores, cases and actions.
            let mode = files.first.map(ReportFile.mode(of:)) ?? 0o600
            try ReportFile.write([Array(text.utf8)], to: output, mode: mode, standardOutput: console.out)
        } else {
            console.out.write(text)
        }
        if !coverage.failures.isEmpty { return ExitStatus.unusable }
        return outcome.passes ? ExitStatus.success : ExitStatus.problems
    }

    /// `--min`'s value: a percentage from 0 to 100, `80`, `87.5` or `80%`.
    static func parseMinimum(_ text: String) throws(UsageError) -> Double {
        let number = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let value = Double(number), value.isFinite, (0...100).contains(value) else {
            throw UsageError("--min takes a percentage from 0 to 100, such as 80 or 87.5, not '\(TTY.safe(text))'")
        }
        return value
    }
}

/// `coverage --format`'s values.
enum CoverageFormat: String, CaseIterable {
    case text, json, github, junit, html
}
