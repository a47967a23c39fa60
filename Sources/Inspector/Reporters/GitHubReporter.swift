import TraceReader

/// GitHub Actions workflow commands, which the Actions log turns into annotations on the
/// trace's lines: `::error file=traces/x.jsonl,line=17,title=illegal::illegal transition …`,
/// then the text format's summary line per file.
///
/// Values are escaped as the runner expects (`%`, `\r`, `\n`, and in properties `:` and `,`),
/// after `TTY.safe` has made every control character visible.
struct GitHubReporter: ValidationReporter {
    var strict: Bool

    mutating func write(_ outcome: ValidationOutcome, console: Console) {
        switch outcome {
        case .unreadable(let error):
            console.out.line("::error file=\(Self.property(error.path)),title=unreadable::\(Self.data(error.message))")
        case .report(let report):
            for problem in report.problems {
                let command = problem.severity == .warning && !strict ? "warning" : "error"
                let title = problem.severity == .fatal ? "not-a-trace" : problem.kind.rawValue
                console.out.line(
                    "::\(command) file=\(Self.property(report.file)),line=\(problem.line),title=\(Self.property(title))::\(Self.data(TextReporter.message(problem)))"
                )
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
