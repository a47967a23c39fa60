import TraceQueries
import TraceReader

/// `coverage --format html`: one self-contained page, each machine drawn as the report draws it
/// (`MachineGraph`, `GraphLayout`, `MachineSVG`): transitions taken solid with their counts,
/// declared ones never taken dashed, illegal ones taken in red; then a table of its transitions
/// and the cases never visited.
///
/// The page has no script. Its one stylesheet is the report's (`PageAssets.style`) followed by
/// a few rules of its own, allowed by the Content-Security-Policy through the hash of those
/// exact bytes, and nothing may load from anywhere. Every name is escaped (`HTMLText`).
enum CoveragePage {
    /// The most machines the page shows, the most it draws, and the most table rows per
    /// machine, so that a browser can open the page whatever the traces hold.
    static let limits = (machines: 500, drawn: 100, rows: 500)

    /// The page's own rules, after the report's stylesheet.
    static let style = """

        /* inspector coverage */
        main.coverage { display: grid; gap: 14px; padding: 14px;
          grid-template-columns: repeat(auto-fill, minmax(min(100%, 520px), 1fr)); align-items: start; }
        table.transitions { width: 100%; border-collapse: collapse; font-size: 13px; margin-top: 10px; }
        table.transitions th, table.transitions td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
        table.transitions th { font-size: 11.5px; color: var(--muted); font-weight: 650; }
        table.transitions td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        table.transitions tr.never td { color: var(--faint); }
        table.transitions tr.illegal td { color: var(--red); }
        .coverage .legend { margin-top: 10px; }

        """

    static func write(_ outcome: CoverageOutcome) -> String {
        let coverage = outcome.coverage
        let stylesheet = PageAssets.style + Array(style.utf8)
        var page = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        page +=
            "<meta http-equiv=\"Content-Security-Policy\" content=\"\(ContentSecurityPolicy.policy(style: stylesheet))\">\n"
        page +=
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"referrer\" content=\"no-referrer\">\n"
        page += "<meta name=\"generator\" content=\"Rewind inspector \(Inspector.version)\">\n"
        page += "<title>Transition coverage · Rewind</title>\n<style>"
        page += String(decoding: stylesheet, as: UTF8.self)
        page += "</style>\n</head>\n<body>\n"
        page += header(outcome)
        page += notices(coverage)
        page += "<main class=\"coverage\">\n"
        for (index, machine) in coverage.machines.prefix(limits.machines).enumerated() {
            page += section(machine, index: index, draws: index < limits.drawn)
        }
        if coverage.machines.isEmpty {
            page +=
                "<section class=\"card\"><div class=\"card-body\"><p class=\"empty\">No store of these traces has a state machine.</p></div></section>\n"
        }
        page += "</main>\n</body>\n</html>\n"
        return page
    }

    private static func header(_ outcome: CoverageOutcome) -> String {
        let coverage = outcome.coverage
        var sub = [
            counted(coverage.traces, "trace"),
            counted(coverage.machines.count, "machine"),
            "\(coverage.takenCount) of \(counted(coverage.declaredCount, "declared transition")) taken",
        ]
        if !coverage.storesWithoutMachine.isEmpty {
            sub.append("\(counted(coverage.storesWithoutMachine.count, "store")) without a machine")
        }
        var chips = "<span class=\"chip\">\(HTMLText.escape(CoverageOutcome.percent(coverage.percent))) covered</span>"
        if let threshold = outcome.thresholdLine {
            chips += "<span class=\"chip \(outcome.passes ? "ok" : "bad")\">\(HTMLText.escape(threshold))</span>"
        }
        if !coverage.failures.isEmpty {
            chips += "<span class=\"chip bad\">\(counted(coverage.failures.count, "unreadable file"))</span>"
        }
        return """
            <header class="top">
            <div class="brand"><span class="brand-mark" aria-hidden="true">⟲</span>Rewind</div>
            <div class="heading"><h1>Transition coverage</h1><div class="sub">\(HTMLText.escape(sub.joined(separator: " · ")))</div></div>
            <div class="chips">\(chips)</div>
            </header>

            """
    }

    private static func notices(_ coverage: TraceCoverage) -> String {
        var notes: [String] = coverage.failures.map { failure in
            "\(HTMLText.escape(failure.description)): not counted."
        }
        if coverage.unreadableLines > 0 {
            notes.append(
                "\(counted(coverage.unreadableLines, "line")) of the traces could not be read and \(coverage.unreadableLines == 1 ? "was" : "were") left out; <code>inspector validate</code> says why."
            )
        }
        if coverage.machines.count > limits.machines {
            notes.append(
                "Only the first \(limits.machines) of \(coverage.machines.count) machines are shown; <code>inspector coverage --format json</code> lists them all."
            )
        }
        if !coverage.storesWithoutMachine.isEmpty {
            let names = coverage.storesWithoutMachine.prefix(50).map(HTMLText.escape).joined(separator: ", ")
            let more = coverage.storesWithoutMachine.count > 50 ? ", …" : ""
            notes.append("Without a machine, so not covered: \(names)\(more).")
        }
        return notes.map { "<p class=\"notice\">\($0)</p>\n" }.joined()
    }

    private static func section(_ machine: MachineCoverage, index: Int, draws: Bool) -> String {
        var text = "<section class=\"card\" aria-label=\"\(HTMLText.escape(machine.store))\">"
        text +=
            "<div class=\"card-head\"><h2>\(HTMLText.escape(machine.store))</h2><span class=\"muted\">\(HTMLText.escape(CoverageOutcome.summary(taken: machine.takenCount, declared: machine.declared.count, percent: machine.percent))) in \(counted(machine.traces, "trace"))</span></div>"
        text += "<div class=\"card-body\">"
        if machine.tracesWithAnotherMachine > 0 {
            text +=
                "<p class=\"note\">\(counted(machine.tracesWithAnotherMachine, "trace")) declare\(machine.tracesWithAnotherMachine == 1 ? "s" : "") another machine for this store; this one is the one most traces declare (pin one with <code>--spec</code>).</p>"
        }
        let taken = (machine.declared.filter { $0.count > 0 } + machine.undeclared).map {
            TransitionTally.Taken(from: $0.from, to: $0.to, count: $0.count, actions: $0.actions)
        }
        let graph = MachineGraph(store: machine.store, machine: machine.machine, taken: taken)
        let small =
            graph.nodes.count <= ReportPage.largestDrawnGraph.cases
            && graph.edges.count <= ReportPage.largestDrawnGraph.edges
        if draws && small {
            text +=
                "<figure class=\"machine\"><div class=\"graph-wrap\">\(MachineSVG.svg(graph, layout: GraphLayout(graph), id: "cv-m\(index)"))</div></figure>"
            text += """
                <div class="legend"><span><span class="swatch"></span>taken</span><span><span class="swatch never"></span>declared, never taken</span>\
                <span><span class="swatch illegal"></span>illegal (taken, not declared)</span></div>
                """
        } else {
            text +=
                "<p class=\"note\">\(counted(graph.nodes.count, "case")) and \(counted(graph.edges.count, "transition")): not drawn here; <code>inspector graph</code> draws one trace's machine for Graphviz.</p>"
        }
        text += table(machine)
        if !machine.unvisitedCases.isEmpty {
            let names = machine.unvisitedCases.prefix(limits.rows).map(HTMLText.escape).joined(separator: ", ")
            text +=
                "<p class=\"note\">Cases never visited: \(names)\(machine.unvisitedCases.count > limits.rows ? ", …" : "").</p>"
        }
        text += "</div></section>\n"
        return text
    }

    private static func table(_ machine: MachineCoverage) -> String {
        let rows =
            machine.declared.map { ($0, $0.count == 0 ? "never" : "taken") }
            + machine.undeclared.map { ($0, "illegal") }
        var text =
            "<table class=\"transitions\"><thead><tr><th>transition</th><th>times</th><th>traces</th><th>actions</th></tr></thead><tbody>"
        for (transition, kind) in rows.prefix(limits.rows) {
            let pair = HTMLText.escape(CoverageOutcome.pair(transition)) + (kind == "illegal" ? " (illegal)" : "")
            let actions = transition.actions.prefix(5).map(HTMLText.escape).joined(separator: ", ")
            text +=
                "<tr class=\"\(kind)\"><td>\(pair)</td><td class=\"n\">\(transition.count)</td><td class=\"n\">\(transition.traces)</td><td>\(actions)\(transition.actions.count > 5 ? ", …" : "")</td></tr>"
        }
        text += "</tbody></table>"
        if rows.count > limits.rows {
            text +=
                "<p class=\"note\">\(rows.count - limits.rows) more transitions; <code>inspector coverage --format json</code> lists them all.</p>"
        }
        return text
    }
}
