import TraceReader

/// GitHub Actions workflow commands, which the Actions log turns into annotations, then the
/// text format's summary line per file.
///
/// A problem about a transition whose `source` is found under the source root (`SourceRoot`) is
/// annotated on that Swift line, the code that sent the action, with the trace's file and line
/// at the end of the message; any other problem on the trace's line:
///
/// ```
/// ::error file=Sources/SampleApp/Shop/Shop.swift,line=96,title=illegal::illegal transition … (trace traces/x.jsonl:7)%0Acall stack: …
/// ::error file=traces/x.jsonl,line=17,title=malformed::…
/// ```
///
/// A recorded call stack follows the message on a line of its own, folded to the app's frames.
///
/// Values are escaped as the runner expects (`%`, `\r`, `\n`, and in properties `:` and `,`),
/// after `TTY.safe` has made every control character visible.
struct GitHubReporter: ValidationReporter {
    var strict: Bool
    var sourceRoot = SourceRoot()

    mutating func write(_ outcome: ValidationOutcome, console: Console) {
        switch outcome {
        case .unreadable(let error):
            console.out.line("::error file=\(Self.property(error.path)),title=unreadable::\(Self.data(error.message))")
        case .report(let report):
            for problem in report.problems {
                let command = problem.severity == .warning && !strict ? "warning" : "error"
                let title = problem.severity == .fatal ? "not-a-trace" : problem.kind.rawValue
                var file = report.file
                var line = problem.line
                var message = TextReporter.message(problem)
                if let source = problem.source, let found = sourceRoot.locate(source) {
                    (file, line) = (found.path, found.line)
                    message += " (trace \(report.file):\(problem.line))"
                }
                var data = Self.data(message)
                if !problem.stack.isEmpty {
                    // A line of its own in the annotation (an escaped newline).
                    data +=
                        "%0A" + Self.data("call stack: " + CallStackText(problem.stack, sourceRoot: sourceRoot).line)
                }
                console.out.line(
                    "::\(command) file=\(Self.property(file)),line=\(line),title=\(Self.property(title))::\(data)")
            }
            if report.omitted > 0 {
                console.out.line(
                    "\(TTY.safe(report.file)): \(counted(report.omitted, "more problem")) not listed (--max-problems \(report.problems.count) was reached)"
                )
            }
            console.out.line(TextReporter.summary(report, style: Style(enabled: false)))
        }
    }

    mutating func finish(console: Console) {}

    /// A command's message: `%`, `\r` and `\n` escaped.
    static func data(_ text: String) -> String {
        var result = ""
        for character in TTY.safe(text) {
            switch character {
            case "%": result += "%25"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.append(character)
            }
        }
        return result
    }

    /// A property's value: as `data`, and `:` and `,` escaped too.
    static func property(_ text: String) -> String {
        var result = ""
        for character in data(text) {
            switch character {
            case ":": result += "%3A"
            case ",": result += "%2C"
            default: result.append(character)
            }
        }
        return result
    }
}
