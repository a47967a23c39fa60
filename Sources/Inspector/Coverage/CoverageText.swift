import TraceQueries

/// `coverage`'s text format: per machine a heading line, each declared transition with how
/// often it was taken, the illegal ones, the cases never visited; then the overall line and the
/// threshold's verdict.
///
/// ```
/// CatalogStore: 4 of 5 declared transitions taken (80%) in 3 traces
///   idle → loading      3 times in 3 traces  toLoading
///   loaded → loading    never
///   illegal: loading → loading  once in 1 trace  toLoading
///   cases never visited: failed
/// overall: 9 of 12 declared transitions taken (75%) over 3 traces
/// ```
enum CoverageText {
    static func write(_ outcome: CoverageOutcome, style: Style) -> String {
        let coverage = outcome.coverage
        var lines: [String] = []
        for machine in coverage.machines {
            var heading =
                "\(style.bold(TTY.safe(machine.store))): \(CoverageOutcome.summary(taken: machine.takenCount, declared: machine.declared.count, percent: machine.percent)) in \(counted(machine.traces, "trace"))"
            if machine.tracesWithAnotherMachine > 0 {
                heading +=
                    "; \(counted(machine.tracesWithAnotherMachine, "trace")) declare\(machine.tracesWithAnotherMachine == 1 ? "s" : "") another machine for it (pin one with --spec)"
            }
            lines.append(heading)
            let all = machine.declared + machine.undeclared
            let width = all.map { TTY.safe(CoverageOutcome.pair($0)).count }.max() ?? 0
            let takenWidth = all.map { CoverageOutcome.taken($0).count }.max() ?? 0
            func row(_ transition: MachineCoverage.Transition) -> String {
                let pair = TTY.safe(CoverageOutcome.pair(transition))
                var text = pair + String(repeating: " ", count: max(0, width - pair.count)) + "  "
                let taken = CoverageOutcome.taken(transition)
                text += taken
                if !transition.actions.isEmpty {
                    text += String(repeating: " ", count: takenWidth - taken.count) + "  "
                    text += transition.actions.prefix(5).map(TTY.safe).joined(separator: ", ")
                    if transition.actions.count > 5 { text += ", …" }
                }
                return text
            }
            for transition in machine.declared {
                lines.append("  " + (transition.count == 0 ? style.yellow(row(transition)) : row(transition)))
            }
            for transition in machine.undeclared {
                lines.append("  " + style.red("illegal: " + row(transition)))
            }
            if !machine.unvisitedCases.isEmpty {
                lines.append("  cases never visited: " + machine.unvisitedCases.map(TTY.safe).joined(separator: ", "))
            }
        }
        if !coverage.storesWithoutMachine.isEmpty {
            lines.append(
                "without a machine (not covered): "
                    + coverage.storesWithoutMachine.map(TTY.safe).joined(separator: ", "))
        }
        if coverage.machines.isEmpty {
            lines.append("no store of these traces has a state machine")
        }
        lines.append(
            "overall: \(CoverageOutcome.summary(taken: coverage.takenCount, declared: coverage.declaredCount, percent: coverage.percent)) over \(counted(coverage.traces, "trace"))"
        )
        if let threshold = outcome.thresholdLine {
            lines.append(outcome.passes ? threshold : style.red(threshold))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
