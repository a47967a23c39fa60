import TraceJSON
import TraceReader

/// The machine-readable format of shared/TRACE_FORMAT.md: one JSON object per file, one per line,
/// with the keys in the format page's order, `seq` and `store` left out where a problem has none:
///
/// ```json
/// {"file":"traces/browse.jsonl","events":42,"errors":1,"warnings":0,"problems":[{"kind":"illegal","severity":"error","line":17,"seq":16,"store":"CatalogStore","message":"…"}]}
/// ```
///
/// When more problems were found than `--max-problems` lets through, `"omitted": N` follows
/// `problems` (readers ignore keys they do not know). A problem about a transition follows its
/// `message` with the transition's `source`, where it has one, `sourceFile` and `sourceLine`
/// when that source is found under the source root (`SourceRoot`), and its whole `stack`. Strings are printed terminal-safe (control
/// characters as `\u` escapes), which is still the same JSON. A file that cannot be read has no
/// object; it is reported on standard error.
struct JSONReporter: ValidationReporter {
    var sourceRoot = SourceRoot()

    mutating func write(_ outcome: ValidationOutcome, console: Console) {
        switch outcome {
        case .unreadable(let error):
            console.err.line("inspector: \(TTY.safe(error.description))")
        case .report(let report):
            console.out.line(JSONPrinter.compact(Self.json(report, sourceRoot: sourceRoot), terminalSafe: true))
        }
    }

    mutating func finish(console: Console) {}

    /// The report as the format page's JSON object.
    static func json(_ report: ValidationReport, sourceRoot: SourceRoot? = nil) -> JSONValue {
        var object: JSONObject = [:]
        object.append(key: "file", value: .string(report.file))
        object.append(key: "events", value: .number(String(report.events)))
        object.append(key: "errors", value: .number(String(report.errors)))
        object.append(key: "warnings", value: .number(String(report.warnings)))
        object.append(key: "problems", value: .array(report.problems.map { json($0, sourceRoot: sourceRoot) }))
        if report.omitted > 0 {
            object.append(key: "omitted", value: .number(String(report.omitted)))
        }
        return .object(object)
    }

    static func json(_ problem: Problem, sourceRoot: SourceRoot? = nil) -> JSONValue {
        var object: JSONObject = [:]
        object.append(key: "kind", value: .string(problem.kind.rawValue))
        object.append(key: "severity", value: .string(problem.severity.rawValue))
        object.append(key: "line", value: .number(String(problem.line)))
        if let seq = problem.seq { object.append(key: "seq", value: .number(String(seq))) }
        if let store = problem.store { object.append(key: "store", value: .string(store)) }
        object.append(key: "message", value: .string(problem.message))
        if let source = problem.source {
            object.append(key: "source", value: .string(source))
            if let found = sourceRoot?.locate(source) {
                object.append(key: "sourceFile", value: .string(found.path))
                object.append(key: "sourceLine", value: .number(String(found.line)))
            }
        }
        if !problem.stack.isEmpty { object.append(key: "stack", value: .array(problem.stack.map { .string($0) })) }
        return .object(object)
    }
}
