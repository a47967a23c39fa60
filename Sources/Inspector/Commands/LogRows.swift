@_spi(RewindInternals) internal import RewindSupport
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
        /// Where the app's Swift files are: with `onlyProblems`, a problem's call stack is
        /// folded to the frames of files found there.
        var sourceRoot = SourceRoot()
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
    /// With `--action`: the actions seen, in the order of their first event, and whether an
    /// event had the one asked for (when none had, `log` lists these).
    private(set) var actionNames: [String] = []
    private var knownActions: Set<String> = []
    private(set) var actionMatched = false
    /// The lines read before the columns were sized (nil once they are).
    private var pending: [Pending]? = []
    private var sampled = 0
    private var format = EventLine()
    private var writer = EventLineWriter(format: EventLine())
    /// The bytes of the names in `knownStores`, to find a store again without a `String`.
    private var knownStoreBytes: [[UInt8]] = []
    /// `--store`'s name, as bytes.
    private let storeBytes: [UInt8]?
    private var skipped = 0
    /// The problems given with their lines, by line: those of the report not here came later.
    private var given: [Int: [Problem]] = [:]
    /// Writes the rows of a large trace on the thread that scans it, once the columns are sized:
    /// `emit` then copies them, the calling thread left with the rules.
    let preparer = EventPreparer()
    /// The rows written from bytes, not yet handed to `console.out`.
    private let gathered = LogRowBuffer()

    init(path: String, options: Options, console: Console) {
        self.path = path
        self.options = options
        self.console = console
        self.storeBytes = options.store.map { Array($0.utf8) }
    }

    /// Takes the next line of the trace; true, to read on.
    mutating func add(_ line: TraceStream.ScannedLine) -> Bool {
        guard pending != nil else {
            emit(line)
            return true
        }
        pending!.append(Pending(line: line.line, event: line.event?.event, problems: line.problems))
        if line.event != nil { sampled += 1 }
        if sampled >= Self.sampleEvents || line.end >= Self.sampleBytes { sizeColumns() }
        return true
    }

    /// Prints what is left once the whole trace was read: the rows not printed yet, then the
    /// problems found after their rows and how many skipped lines were not named.
    mutating func finish(_ report: ValidationReport) {
        if pending != nil { sizeColumns() }
        flushRows()
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
        writer = EventLineWriter(format: format)
        if !options.onlyProblems && options.action == nil && options.actionContains == nil {
            // The rows `emit` would write from bytes, written the same way, ahead, each with its
            // newline, as `gathered` takes them.
            let writer = writer
            preparer.set { event, output in writer.appendLine(event, to: &output) }
        }
        for line in lines { emit(line) }
        // The first rows go out now; later ones as the output's buffer fills.
        flushRows()
        console.out.flush()
    }

    /// A line read before the columns were sized.
    private struct Pending {
        var line: Int
        var event: TraceEvent?
        var problems: [Problem]
    }

    private mutating func emit(_ line: Pending) {
        note(line.line, problems: line.problems, isEvent: line.event != nil)
        guard let event = line.event else { return }
        if event.setsState, let store = event.store { noteStore(store) }
        noteAction(event)
        flushRows()
        Log.printRow(event, problems: line.problems, format: format, options: options, console: console)
    }

    /// With `--action`, notes `event`'s action, and whether it is the one asked for.
    private mutating func noteAction(_ event: TraceEvent) {
        guard let wanted = options.action else { return }
        if Log.action(of: event, is: wanted) { actionMatched = true }
        let action = event.action ?? event.type
        if knownActions.insert(action).inserted { actionNames.append(action) }
    }

    /// Prints the row of a line read after the columns were sized: straight from its bytes
    /// (`EventLineWriter`) when it can be, else as `emit(_: Pending)` does.
    private mutating func emit(_ line: TraceStream.ScannedLine) {
        note(line.line, problems: line.problems, isEvent: line.event != nil)
        guard let scanned = line.event else { return }
        guard line.problems.isEmpty, !options.onlyProblems, options.action == nil, options.actionContains == nil,
            let type = scanned.rawText(.type), let store = scanned.rawText(.store)
        else {
            let event = scanned.event
            if event.setsState, let store = event.store { noteStore(store) }
            noteAction(event)
            flushRows()
            Log.printRow(event, problems: line.problems, format: format, options: options, console: console)
            return
        }
        if Self.setsState(type) && !knownStoreBytes.contains(where: { Self.same($0, store) }) {
            noteStore(store.string)
        }
        if let wanted = storeBytes, !Self.same(wanted, store) {
            // Names that differ in bytes may still be equal `String`s (`é` composed or not).
            guard !store.allSatisfy({ $0 < 0x80 }), store.string == options.store else {
                return
            }
        }
        let written: Bool
        if let row = line.prepared {
            gathered.append(row)
            written = true
        } else {
            let writer = writer
            written = gathered.append(room: writer.room(for: scanned)) { writer.writeLine(scanned, at: $0) }
        }
        if written {
            // Handed on where the stream would have sent its buffer had each row gone to it.
            if gathered.count &+ console.out.bufferedCount >= LogRowBuffer.flushSize { flushRows() }
        } else {
            flushRows()
            Log.printRow(scanned.event, problems: line.problems, format: format, options: options, console: console)
        }
    }

    /// Counts and reports a line that is not an event, and keeps the problems given with it.
    private mutating func note(_ lineNumber: Int, problems: [Problem], isEvent: Bool) {
        if !problems.isEmpty { given[lineNumber, default: []].append(contentsOf: problems) }
        if !isEvent && lineNumber > 1 {
            // A line that is not an event, reported as opening a trace reports it.
            skipped += 1
            if skipped <= Self.warningLimit, let problem = problems.first {
                console.err.line("inspector: \(TTY.safe(path)):\(lineNumber): warning: \(TTY.safe(problem.message))")
            }
        }
        if options.onlyProblems && !problems.isEmpty && problems.allSatisfy({ $0.seq == nil }) {
            // Problems on lines that are not events (malformed, truncated, the header).
            flushRows()
            for problem in problems {
                console.out.line(Log.problemText(problem, line: lineNumber))
            }
        }
    }

    /// The rows written and not handed to `console.out` yet: output all the same, as the
    /// stream's own buffer is (they reach standard output when the stream would have sent them).
    var gatheredText: String { String(decoding: gathered.rows, as: UTF8.self) }

    /// Hands the rows gathered to `console.out`: before anything else is written to it, and
    /// when the reading stops.
    func flushRows() {
        gathered.flush(to: console.out)
    }

    /// Adds `store` to the store names, when it is new.
    private mutating func noteStore(_ store: String) {
        guard knownStores.insert(store).inserted else { return }
        storeNames.append(store)
        // A trace with many stores finds the rest by `String`.
        if knownStoreBytes.count < 64 { knownStoreBytes.append(Array(store.utf8)) }
    }

    /// Whether an event's `type` is one that sets a store's state (`TraceEvent.setsState`).
    private static func setsState(_ type: ByteView) -> Bool {
        switch type.count {
        case 10: same("transition", type)
        case 8: same("register", type)
        case 7: same("restore", type)
        default: false
        }
    }

    private static func same(_ literal: StaticString, _ bytes: ByteView) -> Bool {
        bytes.equals(literal)
    }

    private static func same(_ known: [UInt8], _ bytes: ByteView) -> Bool {
        ByteView.withBytes(of: known) { $0.elementsEqual(bytes) }
    }
}
