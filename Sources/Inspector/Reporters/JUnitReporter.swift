import TraceReader

/// A JUnit XML report for CI systems that show those: one test suite, a test case per trace, a
/// `<failure>` per error (per warning too with `--strict`), an `<error>` for a file that cannot be
/// read or is not a trace. Warnings that do not fail go to the test case's `<system-out>`.
/// The suite's `failures` and `errors` count test cases, as JUnit does.
///
/// A problem whose event recorded its call stack has it in the text of its `<failure>` (or
/// `<error>`, or the `<system-out>` line of a warning), after the problem's line, a frame per
/// line, folded to the app's own frames as the other formats fold it (`CallStackText`):
///
/// ```
/// traces/x.jsonl:7: error: illegal transition loading → loading … [illegal]
/// call stack:
///   CatalogStore.toLoading() (CatalogStore.swift:34)
///   … 2 other frames
/// ```
///
/// Printed at the end, in one piece. Every text from a trace goes through `TTY.safe` and is then
/// escaped for XML, so the document is well-formed whatever a trace holds.
struct JUnitReporter: ValidationReporter {
    var strict: Bool
    /// Where the app's Swift files are: a call stack is folded to the frames of files found there.
    var sourceRoot: SourceRoot
    private var outcomes: [ValidationOutcome] = []

    init(strict: Bool, sourceRoot: SourceRoot = SourceRoot()) {
        self.strict = strict
        self.sourceRoot = sourceRoot
    }

    mutating func write(_ outcome: ValidationOutcome, console: Console) {
        outcomes.append(outcome)
    }

    mutating func finish(console: Console) {
        var failed = 0
        var broken = 0
        var cases: [String] = []
        for outcome in outcomes {
            let name = Self.escape(outcome.path)
            var body: [String] = []
            switch outcome {
            case .unreadable(let error):
                broken += 1
                body.append(
                    "      <error type=\"unreadable\" message=\"\(Self.escape(error.message))\">\(Self.escape(error.description))</error>"
                )
            case .report(let report):
                var output: [String] = []
                if report.isFatal { broken += 1 } else if !report.passes(strict: strict) { failed += 1 }
                for problem in report.problems {
                    // Each line escaped on its own: `TTY.safe` would make the newlines visible.
                    var lines = [
                        "\(report.file):\(problem.line): \(problem.severity == .warning ? "warning" : "error"): \(TextReporter.message(problem)) [\(problem.kind.rawValue)]"
                    ]
                    if !problem.stack.isEmpty { lines += CallStackText(problem.stack, sourceRoot: sourceRoot).lines }
                    let line = lines.map(Self.escape).joined(separator: "\n")
                    let attributes =
                        "type=\"\(problem.kind.rawValue)\" message=\"\(Self.escape("line \(problem.line): \(TextReporter.message(problem))"))\""
                    switch problem.severity {
                    case .fatal: body.append("      <error \(attributes)>\(line)</error>")
                    case .error: body.append("      <failure \(attributes)>\(line)</failure>")
                    case .warning where strict:
                        body.append("      <failure \(attributes)>\(line)</failure>")
                    case .warning: output.append(line)
                    }
                }
                if report.omitted > 0 {
                    output.append(Self.escape("\(report.file): \(counted(report.omitted, "more problem")) not listed"))
                }
                output.append(Self.escape(TextReporter.summary(report, style: Style(enabled: false))))
                body.append("      <system-out>\(output.joined(separator: "\n"))</system-out>")
            }
            cases.append(
                "    <testcase classname=\"inspector.validate\" name=\"\(name)\" file=\"\(name)\">\n\(body.joined(separator: "\n"))\n    </testcase>"
            )
        }
        let counts = "tests=\"\(outcomes.count)\" failures=\"\(failed)\" errors=\"\(broken)\""
        console.out.line("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        console.out.line("<testsuites name=\"inspector validate\" \(counts)>")
        console.out.line("  <testsuite name=\"inspector validate\" \(counts) skipped=\"0\">")
        for testCase in cases { console.out.line(testCase) }
        console.out.line("  </testsuite>")
        console.out.line("</testsuites>")
    }

    /// `text` made visible (`TTY.safe`) and escaped for XML text and attribute values. The
    /// noncharacters U+FFFE and U+FFFF, which XML 1.0 forbids, are written as `\u{fffe}`.
    static func escape(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in TTY.safe(text).unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\u{FFFE}", "\u{FFFF}": result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
