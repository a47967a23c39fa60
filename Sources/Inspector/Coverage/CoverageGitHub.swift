import TraceReader

/// `coverage --format github`: GitHub Actions workflow commands. A `::warning` per declared
/// transition no run took and per illegal transition taken, an `::error` per file that cannot
/// be read and when the coverage is below `--min`; then the text format's heading and overall
/// lines, which the log shows as they are. Values are escaped as `GitHubReporter` does.
///
/// A machine's warnings are annotations on the Swift line that declares it (its type conforming
/// to `StateMachine`), where that is found under the source root (`SourceRoot`), so the pull
/// request shows them on the code; otherwise they carry no file.
enum CoverageGitHub {
    static func write(_ outcome: CoverageOutcome, sourceRoot: SourceRoot = SourceRoot()) -> String {
        let coverage = outcome.coverage
        var lines: [String] = []
        for failure in coverage.failures {
            lines.append(
                "::error file=\(GitHubReporter.property(failure.path)),title=unreadable::\(GitHubReporter.data(failure.message))"
            )
        }
        for machine in coverage.machines {
            var place = ""
            if !machine.neverTaken.isEmpty || !machine.undeclared.isEmpty,
                let found = sourceRoot.declaration(ofMachineOf: machine.store, cases: machine.machine.cases)
            {
                place = "file=\(GitHubReporter.property(found.path)),line=\(found.line),"
            }
            for transition in machine.neverTaken {
                lines.append(
                    "::warning \(place)title=\(GitHubReporter.property("never taken: \(machine.store)"))::\(GitHubReporter.data("\(machine.store): \(CoverageOutcome.pair(transition)) is declared, but no trace took it"))"
                )
            }
            for transition in machine.undeclared {
                lines.append(
                    "::warning \(place)title=\(GitHubReporter.property("illegal: \(machine.store)"))::\(GitHubReporter.data("\(machine.store): \(CoverageOutcome.pair(transition)) is not declared, and was taken \(CoverageOutcome.taken(transition)) (run inspector validate)"))"
                )
            }
            lines.append(
                TTY.safe(
                    "\(machine.store): \(CoverageOutcome.summary(taken: machine.takenCount, declared: machine.declared.count, percent: machine.percent))"
                ))
        }
        lines.append(
            "overall: \(CoverageOutcome.summary(taken: coverage.takenCount, declared: coverage.declaredCount, percent: coverage.percent)) over \(counted(coverage.traces, "trace"))"
        )
        if let threshold = outcome.thresholdLine {
            lines.append(outcome.passes ? threshold : "::error title=coverage::\(GitHubReporter.data(threshold))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
