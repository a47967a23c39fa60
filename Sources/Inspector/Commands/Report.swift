import CommandLineArguments
import Recorder
import TraceReader

/// `inspector report TRACE [-o FILE.html]`: one self-contained HTML page to step through a trace.
enum Report: Command {
    static let name = "report"
    static let summary = "write a self-contained HTML page to step through a trace in a browser"
    static let help = """
        Usage: inspector report TRACE [-o FILE.html] [--from N] [--to M] [--spec FILE]
                                [--max-events N] [--max-size MB]

        Writes one HTML file that opens in any browser from disk, with no network: a timeline
        of the events coloured by store, each row with its from → to and its arguments (the
        whole value in its tooltip), over a strip of the whole report where each bucket of
        events that holds a problem is red; a slider and the arrow keys to move through the
        steps; the diff of each step and the whole app state as a tree that folds; the
        problems 'inspector validate' finds, each a link to its step; and each store's state
        machine drawn with its current case, the declared transitions, the transitions taken
        and the illegal ones in red, the graphs of the current step's stores first.
        Three columns on a desktop; one on a phone (390 pixels wide), the graphs shrunk to the
        width.

        The page keeps each state as the trace wrote it and reads it only when shown, and draws
        only the timeline rows on screen, so it stays quick on 100,000 events. A larger trace
        is refused with the window of steps to write instead.

        Options:
          -o, --output FILE  where to write (default: TRACE with .html in place of .jsonl, in
                             the same folder); an existing file is replaced. The report gets
                             the trace's permissions: it holds the same data. - is standard
                             output; a pipe or a terminal is written to, never replaced; a
                             directory, a symbolic link or a device other than a terminal is
                             refused.
          --from N           the first step of a window (default 1); the slider starts at
                             the app state just before it
          --to M             the last step of a window (default: the trace's last step)
          --spec FILE        take state machines from FILE, {"machines": {...}}, store by store
          --max-events N     refuse a window of more than N events (default 200000)
          --max-size MB      refuse when the states take more than MB megabytes (default 100,
                             at most 400)

        In the page: ← → (or j k) step, PgUp PgDn page, Home End, p n previous / next problem.
        The page opens at the first problem (at the first event when there is none), or at the
        step its link names: report.html#step=12. The address follows the current step, so
        that a link copied from it opens the same step.

        Exit status:
          0  the report was written (whatever problems the trace has)
          2  the command line is wrong, the trace cannot be read or is not a trace, the window
             is too large, or the report cannot be written
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let longOutput = try arguments.option("--output")
        let shortOutput = try arguments.option("-o")
        guard longOutput == nil || shortOutput == nil else { throw UsageError("give -o or --output, not both") }
        let output = longOutput ?? shortOutput
        let fromText = try arguments.option("--from")
        let toText = try arguments.option("--to")
        let specPath = try arguments.option("--spec")
        var limits = ReportLimits()
        if let events = try arguments.intOption("--max-events", atLeast: 1) { limits.maximumEvents = events }
        if let megabytes = try arguments.intOption("--max-size", atLeast: 1) {
            guard megabytes <= ReportLimits.largestStateMegabytes else {
                throw UsageError(
                    "--max-size must be at most \(ReportLimits.largestStateMegabytes) (MB): a browser cannot hold more state text in one page"
                )
            }
            limits.maximumStateBytes = megabytes << 20
        }
        let path = try arguments.positional("TRACE (the trace file)")
        try arguments.finish()
        guard path != "-" else {
            throw UsageError("report reads a trace file, not standard input; save the trace to a file first")
        }
        let target = output ?? defaultOutput(for: path)
        guard !target.isEmpty else { throw UsageError("-o needs a file name") }

        let machines = try TraceOpening.specMachines(at: specPath)
        let trace = try TraceOpening.open(path)
        TraceOpening.reportIssues(of: trace, console: console)
        guard !ReportFile.isSameFile(path, target) else {
            throw UsageError("the report would replace the trace \(TTY.safe(path)); give -o another file")
        }
        let window = try ReportWindow.resolve(from: fromText, to: toText, in: trace)
        guard window.events.count <= limits.maximumEvents else {
            throw tooManyEvents(trace: trace, window: window, limits: limits)
        }

        let validation: ValidationReport
        do {
            validation = try trace.validate(with: TraceValidator(machines: machines))
        } catch {
            throw FileError(error.path, line: error.line, error.message)
        }
        var drawn = trace.header.machines
        for (store, machine) in machines { drawn[store] = machine }
        let data = try ReportData(trace: trace, window: window, validation: validation, machines: drawn, limits: limits)
        try ReportFile.write(
            ReportPage.parts(data), to: target, mode: ReportFile.mode(of: path), standardOutput: console.out)

        var summary = "wrote \(TTY.safe(target)): \(ReportPage.counted(data.columns.count, "event"))"
        summary += window.isWhole ? "" : " (steps \(window.firstStep)–\(window.lastStep) of \(trace.lastStep))"
        summary +=
            ", \(ReportPage.counted(validation.errors, "error")), \(ReportPage.counted(validation.warnings, "warning"))"
        // The page itself may be on standard output; the summary then goes to standard error.
        (target == "-" ? console.err : console.out).line(summary)
        return ExitStatus.success
    }

    /// `traces/run.jsonl` → `traces/run.html`; a name without `.jsonl` or `.json` gets `.html` added.
    static func defaultOutput(for path: String) -> String {
        for suffix in [".jsonl", ".json", ".ndjson", ".txt"] where path.hasSuffix(suffix) && path.count > suffix.count {
            let stem = path.dropLast(suffix.count)
            if !stem.hasSuffix("/") { return stem + ".html" }
        }
        return path + ".html"
    }

    /// The refusal of a window with more events than the limit, with a window that fits.
    private static func tooManyEvents(trace: TraceFile, window: ReportWindow, limits: ReportLimits) -> UsageError {
        let fitting = trace.step(ofEventAt: window.events.lowerBound + limits.maximumEvents - 1) ?? window.lastStep
        let shown = TTY.safe(trace.path)
        let which = window.isWhole ? "\(shown) has" : "steps \(window.firstStep)–\(window.lastStep) of \(shown) have"
        return UsageError(
            "\(which) \(window.events.count) events, more than the \(limits.maximumEvents) a report holds (the page would be slow to open); write a window of steps, such as: inspector report \(shown) --from \(window.firstStep) --to \(fitting), or raise the limit with --max-events \(window.events.count)"
        )
    }
}
