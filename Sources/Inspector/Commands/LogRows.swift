import TraceReader

/// The rows of `inspector log`, made as `TraceStream` reaches each line: the first rows wait
/// only for the lines that size the columns, and memory holds no state, only those rows.
///
/// The columns fit the first 500 events, or the events of the first 4 MB of the file when fewer:
/// enough to align, without holding a large part of a trace of large states before printing.
/// A problem found after its event was printed (an `unresolved` rule, known at the end) is
/// listed after the rows, and so is, with `--problems`, one whose message changed after it was
/// printed (a `cause-loop`'s final count).
struct LogRows {
    /// What `log`'s options keep.
    struct Options {
        var store: String?
        var action: String?
        var actionContains: String?
        var onlyProblems = false
    }

    /// The most events that size the columns.
    static let sampleEvents = 500
    /// The most bytes of the file read before the columns are sized.
    static let sampleBytes = 4 << 20
    /// The most warnings about skipped lines printed on standard error.
    static let warningLimit = 5

    let path: String
    let options: Options
    let console: Console
    /// The store names in the order of their first register, transition or restore event.
    private(set) var storeNames: [String] = []
    private var knownStores: Set<String> = []
    /// The lines read before the columns were sized (nil once they are).
    private var pending: [TraceStream.Line]? = []
    private var sampled = 0
    private var format = EventLine()
    private var skipped = 0
    /// The problems given with their lines, by line: those of the report not here came later.
    private var given: [Int: [Problem]] = [:]

    init(path: String, options: Options, console: Console) {
        self.path = path
        self.options = options
        self.console = console
    }

    /// Takes the next line of the trace; true, to read on.
    mutating func add(_ line: TraceStream.Line) -> Bool {
        guard pending != nil else {
            emit(line)
            return true
        }
        pending!.append(line)
        if line.event != nil { sampled += 1 }
        if sampled >= Self.sampleEvents || line.end >= Self.sampleBytes { sizeColumns() }
        return true
    }

    /// Prints what is left once the whole trace was read: the rows not printed yet, then the
    /// problems found after their rows and how many skipped lines were not named.
    mutating func finish(_ report: ValidationReport) {
        if pending != nil { sizeColumns() }
        var late: [Problem] = []
        for problem in report.problems {
            if let index = given[problem.line]?.firstIndex(where: { $0.kind == problem.kind }) {
                // A message that changed after it was printed (a `cause-loop`'s final count).
                let printed = given[problem.line]!.remove(at: index)
                if options.onlyProblems && printed.message != problem.message { late.append(problem) }
            } else if options.store == nil || problem.store == options.store {
                late.append(problem)
            }
        }
        if !late.isEmpty {
            console.out.line("found at the end of the trace:")
            for problem in late {
                console.out.line(Log.problemText(problem, line: problem.line))
            }
        }
        if skipped > Self.warningLimit {
            console.err.line(
                "inspector: \(TTY.safe(path)): warning: \(skipped - Self.warningLimit) more lines were skipped or noted; run 'inspector validate \(TTY.safe(path))' for all of them"
            )
        }
    }

    /// Sizes the columns from the lines read so far and prints them.
    private mutating func sizeColumns() {
        let lines = pending ?? []
        pending = nil
        format = EventLine.fitting(lines.compactMap(\.event), style: console.style)
        for line in lines { emit(line) }
        // The first rows go out now; later ones as the output's buffer fills.
        console.out.flush()
    }

    private mutating func emit(_ line: TraceStream.Line) {
        if !line.problems.isEmpty { given[line.line, default: []].append(contentsOf: line.problems) }
        if line.event == nil && line.line > 1 {
            // A line that is not an event, reported as opening a trace reports it.
            skipped += 1
            if skipped <= Self.warningLimit, let problem = line.problems.first {
                console.err.line("inspector: \(TTY.safe(path)):\(line.line): warning: \(TTY.safe(problem.message))")
            }
        }
        if options.onlyProblems && !line.problems.isEmpty && line.problems.allSatisfy({ $0.seq == nil }) {
            // Problems on lines that are not events (malformed, truncated, the header).
            for problem in line.problems {
                console.out.line(Log.problemText(problem, line: line.line))
            }
        }
        guard let event = line.event else { return }
        if event.setsState, let store = event.store, knownStores.insert(store).inserted { storeNames.append(store) }
        Log.printRow(event, problems: line.problems, format: format, options: options, console: console)
    }
}
