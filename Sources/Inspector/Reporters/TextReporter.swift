import TraceReader

/// The text format: one line per problem in the form compilers use, so that terminals and
/// editors link each to its line, then a summary line per file:
///
/// ```
/// traces/x.jsonl:17: error: illegal transition loading → loading by toLoading in CatalogStore (seq 16, from CatalogStore.swift:31); … [illegal]
/// traces/x.jsonl:17: note: call stack: CatalogStore.toLoading() (CatalogStore.swift:34) ← Shop.perform(_:) (Shop.swift:96) ← … 2 other frames
/// traces/x.jsonl: 42 events, 1 error, 0 warnings
/// ```
///
/// A problem whose event recorded its call stack is followed by a `note:` line with it, folded
/// to the app's own frames (`CallStackText`).
///
/// The kind ends the line in brackets, as compilers name a warning's flag. Every text from a
/// trace goes through `TTY.safe`. A file that cannot be read is reported on standard error.
struct TextReporter: ValidationReporter {
    var strict: Bool
    var sourceRoot = SourceRoot()

    mutating func write(_ outcome: ValidationOutcome, console: Console) {
        let style = console.style
        switch outcome {
        case .unreadable(let error):
            console.err.line("inspector: \(TTY.safe(error.description))")
        case .report(let report):
            let file = TTY.safe(report.file)
            for problem in report.problems {
                console.out.line(
                    "\(file):\(problem.line): \(Self.label(problem, style: style)): \(TTY.safe(Self.message(problem))) [\(problem.kind.rawValue)]"
                )
                if let note = CallStackText.note(for: problem, sourceRoot: sourceRoot) {
                    console.out.line("\(file):\(problem.line): \(style.dim("note")): \(note)")
                }
            }
            if report.omitted > 0 {
                console.out.line(
                    "\(file): \(counted(report.omitted, "more problem")) not listed (--max-problems \(report.problems.count) was reached)"
                )
            }
            console.out.line(Self.summary(report, style: style))
        }
    }

    mutating func finish(console: Console) {}

    /// `traces/x.jsonl: 42 events, 1 error, 0 warnings`, or `traces/x.jsonl: not a trace`.
    static func summary(_ report: ValidationReport, style: Style) -> String {
        let file = TTY.safe(report.file)
        if report.isFatal { return "\(file): \(style.red("not a trace"))" }
        let errors = counted(report.errors, "error")
        let warnings = counted(report.warnings, "warning")
        return
            "\(file): \(counted(report.events, "event")), \(report.errors > 0 ? style.red(errors) : errors), \(report.warnings > 0 ? style.yellow(warnings) : warnings)"
    }

    /// `error` or `warning`, coloured on a terminal. A fatal problem is an error whose message
    /// starts with "not a trace".
    static func label(_ problem: Problem, style: Style) -> String {
        switch problem.severity {
        case .fatal, .error: style.bold(style.red("error"))
        case .warning: style.bold(style.yellow("warning"))
        }
    }

    /// The message, with "not a trace: " before a fatal one.
    static func message(_ problem: Problem) -> String {
        problem.severity == .fatal ? "not a trace: \(problem.message)" : problem.message
    }
}
