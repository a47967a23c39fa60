import TraceReader

/// `coverage --format junit`: one test suite, a test case per machine (its never-taken and
/// illegal transitions in `<system-out>`), one per file that cannot be read (an `<error>`), and
/// with `--min` a test case `overall` that fails below it. Escaped as `JUnitReporter` does.
enum CoverageJUnit {
    static func write(_ outcome: CoverageOutcome) -> String {
        let coverage = outcome.coverage
        let escape = JUnitReporter.escape
        var cases: [String] = []
        var failures = 0
        for failure in coverage.failures {
            cases.append(
                "    <testcase classname=\"inspector.coverage\" name=\"\(escape(failure.path))\">\n      <error type=\"unreadable\" message=\"\(escape(failure.message))\">\(escape(failure.description))</error>\n    </testcase>"
            )
        }
        for machine in coverage.machines {
            var output = [
                "\(machine.store): \(CoverageOutcome.summary(taken: machine.takenCount, declared: machine.declared.count, percent: machine.percent))"
            ]
            output += machine.neverTaken.map { "never taken: \(CoverageOutcome.pair($0))" }
            output += machine.undeclared.map {
                "illegal, taken \(CoverageOutcome.taken($0)): \(CoverageOutcome.pair($0))"
            }
            if !machine.unvisitedCases.isEmpty {
                output.append("cases never visited: " + machine.unvisitedCases.joined(separator: ", "))
            }
            cases.append(
                "    <testcase classname=\"inspector.coverage\" name=\"\(escape(machine.store))\">\n      <system-out>\(output.map(escape).joined(separator: "\n"))</system-out>\n    </testcase>"
            )
        }
        if let threshold = outcome.thresholdLine {
            var body = ""
            if !outcome.passes {
                failures += 1
                body =
                    "\n      <failure type=\"coverage\" message=\"\(escape(threshold))\">\(escape(threshold))</failure>\n    "
            }
            cases.append("    <testcase classname=\"inspector.coverage\" name=\"overall\">\(body)</testcase>")
        }
        let counts =
            "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(coverage.failures.count)\""
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
        lines.append("<testsuites name=\"inspector coverage\" \(counts)>")
        lines.append("  <testsuite name=\"inspector coverage\" \(counts) skipped=\"0\">")
        lines += cases
        lines.append("  </testsuite>")
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }
}
