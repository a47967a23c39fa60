import TraceJSON

/// The report as one HTML document: markup for the header and the panels, the machine graphs
/// as inline SVG, the data as two `<script type="application/json">` elements (a summary with
/// the event columns, and one line of JSON per event), then the page's stylesheet and
/// script (`PageAssets`) inline, allowed by the Content-Security-Policy through their hashes and nothing else.
enum ReportPage {
    /// Graphs larger than this are listed instead of drawn (a layered drawing of hundreds of
    /// cases is unreadable, and laying it out is quadratic).
    static let largestDrawnGraph = (cases: 60, edges: 300)

    /// The id of the problems panel, which the error and warning badges link to (on a phone it
    /// is below the fold).
    static let problemsID = "rw-problems-card"

    /// The page for `data` in three parts to write one after the other: everything before the
    /// event details, the details themselves (not copied: they are most of the page), the rest.
    static func parts(_ data: ReportData) -> [[UInt8]] {
        var page: [UInt8] = []
        page.reserveCapacity(256 << 10)
        func add(_ text: String) { page.append(contentsOf: text.utf8) }

        let fileName = data.path.split(separator: "/").last.map(String.init) ?? data.path
        add("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        add(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"\(ContentSecurityPolicy.policy(script: PageAssets.script, style: PageAssets.style))\">\n"
        )
        add(
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"referrer\" content=\"no-referrer\">\n"
        )
        add("<meta name=\"generator\" content=\"Rewind inspector \(Inspector.version)\">\n")
        add("<title>\(HTMLText.escape(fileName)) · Rewind report</title>\n")
        add("<style>")
        page.append(contentsOf: PageAssets.style)
        add("</style>\n</head>\n<body>\n")
        add(header(data, fileName: fileName))
        add(notices(data))
        add("<main class=\"layout\">\n")
        add(timeline())
        add(center())
        add(side(data))
        add("</main>\n")
        add(
            "<noscript><p class=\"notice\">This report needs JavaScript to show the steps; the browser has it turned off.</p></noscript>\n"
        )
        add("<script type=\"application/json\" id=\"rw-data\">")
        ScriptData.append(
            json: "{\"info\":" + JSONPrinter.compact(info(data), terminalSafe: true) + ",\"columns\":"
                + data.columns.json + "}", to: &page)
        add("</script>\n<script type=\"application/json\" id=\"rw-events\">")
        let head = page
        page = []
        add("</script>\n<script>")
        page.append(contentsOf: PageAssets.script)
        add("</script>\n</body>\n</html>\n")
        return [head, data.details, page]
    }

    // MARK: Markup

    private static func header(_ data: ReportData, fileName: String) -> String {
        var sub: [String] = []
        if let app = data.header.app { sub.append(HTMLText.escape(app)) }
        if let started = data.header.started { sub.append("recorded " + HTMLText.escape(started)) }
        if data.window.isWhole {
            sub.append(data.traceLastStep == 0 ? "no events" : "steps 1–\(data.traceLastStep)")
        } else {
            sub.append("window: steps \(data.window.firstStep)–\(data.window.lastStep) of 1–\(data.traceLastStep)")
        }
        let report = data.validation
        var chips = "<span class=\"chip\">\(counted(data.columns.count, "event"))</span>"
        chips += "<span class=\"chip\">\(counted(data.stores.strings.count, "store"))</span>"
        chips +=
            report.errors == 0
            ? "<span class=\"chip ok\">no errors</span>"
            : "<a class=\"chip bad\" id=\"rw-errors\" href=\"#\(problemsID)\" title=\"Go to the problems\">\(counted(report.errors, "error"))</a>"
        if report.warnings > 0 {
            chips +=
                "<a class=\"chip warn\" id=\"rw-warnings\" href=\"#\(problemsID)\" title=\"Go to the problems\">\(counted(report.warnings, "warning"))</a>"
        }
        return """
            <header class="top">
            <div class="brand"><span class="brand-mark" aria-hidden="true">⟲</span>Rewind</div>
            <div class="heading"><h1 title="\(HTMLText.escape(data.path))">\(HTMLText.escape(fileName))</h1><div class="sub">\(sub.joined(separator: " · "))</div></div>
            <div class="chips">\(chips)</div>
            </header>

            """
    }

    private static func notices(_ data: ReportData) -> String {
        var notes: [String] = []
        if !data.window.isWhole {
            notes.append(
                "This report holds steps \(data.window.firstStep)–\(data.window.lastStep) of the trace's \(data.traceLastStep) (\(counted(data.columns.count, "event")) of \(data.traceEvents)); the errors and warnings above count the whole trace."
            )
        }
        if data.omittedMachines.machines > 0 {
            let omitted = data.omittedMachines
            notes.append(
                "\(counted(omitted.machines, "state machine")) (\(counted(omitted.cases, "case")), \(counted(omitted.transitions, "transition"))) \(omitted.machines == 1 ? "is" : "are") not shown: a report shows at most \(counted(data.limits.maximumMachines, "machine")), \(counted(data.limits.maximumCases, "case")) and \(counted(data.limits.maximumTransitions, "transition")) in all, so that a browser can open it; <code>inspector graph</code> draws every machine."
            )
        }
        if data.validation.omitted > 0 {
            notes.append(
                "\(counted(data.validation.omitted, "more problem")) than listed: run <code>inspector validate</code> for all of them."
            )
        }
        return notes.map { "<p class=\"notice\">\($0)</p>\n" }.joined()
    }

    private static func timeline() -> String {
        """
        <section class="card timeline" aria-label="Timeline">
        <div class="card-head"><h2>Timeline</h2><span class="muted" id="rw-count"></span></div>
        <div class="overview"><canvas id="rw-overview" height="46" aria-label="Overview: events by store over time"></canvas></div>
        <div class="rows" id="rw-rows" role="listbox" aria-label="Events"><div class="spacer" id="rw-spacer"></div></div>
        </section>

        """
    }

    private static func center() -> String {
        """
        <div class="column">
        <section class="card stepper" aria-label="Step">
        <div class="stepper-line"><div class="step-text"><div class="step-title" id="rw-step-title">Step</div><div class="step-sub" id="rw-step-sub"></div></div>
        <div class="navs"><button class="nav" id="rw-prev-problem" type="button" title="Previous problem (p)" aria-label="Previous problem">⇤ !</button>
        <button class="nav" id="rw-prev" type="button" title="Previous step (←)" aria-label="Previous step">←</button>
        <button class="nav" id="rw-next" type="button" title="Next step (→)" aria-label="Next step">→</button>
        <button class="nav" id="rw-next-problem" type="button" title="Next problem (n)" aria-label="Next problem">! ⇥</button></div></div>
        <input type="range" id="rw-slider" min="0" max="0" value="0" step="1" aria-label="Step">
        <div class="keys"><kbd>←</kbd><kbd>→</kbd> step · <kbd>PgUp</kbd><kbd>PgDn</kbd> page · <kbd>Home</kbd><kbd>End</kbd> · <kbd>p</kbd><kbd>n</kbd> problems</div>
        </section>
        <section class="card" aria-label="Event"><div class="card-head"><h2>Event</h2></div><div class="card-body" id="rw-event"></div></section>
        <section class="card" aria-label="Diff"><div class="card-head"><h2>Diff</h2><span class="muted" id="rw-diff-note"></span></div><div class="card-body diff" id="rw-diff"></div></section>
        <section class="card" aria-label="App state"><div class="card-head"><h2>App state</h2><span class="muted" id="rw-tree-note"></span></div><div class="card-body tree" id="rw-tree"></div></section>
        </div>

        """
    }

    /// The right column: the problems first (at the top of a desktop screen, where they stay in
    /// view), then the machines, which the page puts in order at each step: the stores of the
    /// step first, so that a graph of a store not involved does not push them off screen.
    private static func side(_ data: ReportData) -> String {
        var text = "<div class=\"column side\">\n"
        let listed = data.problems.count
        var heading = counted(listed, "problem")
        if data.problemsOutside > 0 { heading += ", \(data.problemsOutside) outside this window" }
        text +=
            "<section class=\"card\" id=\"\(problemsID)\" tabindex=\"-1\" aria-label=\"Problems\"><div class=\"card-head\"><h2>Problems</h2><span class=\"muted\">\(heading)</span></div><div class=\"card-body\">"
        text +=
            listed == 0
            ? "<p class=\"empty\">\(data.problemsOutside == 0 ? "None: every event follows the format and its store's machine." : "None in this window.")</p>"
            : "<ol class=\"problems\" id=\"rw-problems\"></ol>"
        text += "</div></section>\n"
        text +=
            "<section class=\"card\" aria-label=\"State machines\"><div class=\"card-head\"><h2>State machines</h2><span class=\"muted\" id=\"rw-machines-note\"></span></div><div class=\"card-body machines\" id=\"rw-machines\">\n"
        for (index, graph) in data.graphs.enumerated() {
            let store = data.stores.existingNumber(graph.store)
            let colour = store.map { "c\($0 % 12)" } ?? "c11"
            text +=
                "<figure class=\"machine\" id=\"rw-m\(index)-figure\"><figcaption><span class=\"store \(colour)\">\(HTMLText.escape(graph.store))</span><span id=\"rw-m\(index)-case\"></span></figcaption>"
            if graph.nodes.count > largestDrawnGraph.cases || graph.edges.count > largestDrawnGraph.edges {
                text +=
                    "<p class=\"note\">\(counted(graph.nodes.count, "case")) and \(counted(graph.edges.count, "transition")): too many to draw here; <code>inspector graph</code> writes it for Graphviz.</p>"
            } else {
                text +=
                    "<div class=\"graph-wrap\">\(MachineSVG.svg(graph, layout: GraphLayout(graph), id: "rw-m\(index)"))</div>"
            }
            text += "</figure>\n"
        }
        text += "</div><div class=\"card-body\">\n"
        if data.graphs.isEmpty {
            text += "<p class=\"note\">No store of this trace declares a state machine.</p>\n"
        } else {
            text += """
                <div class="legend"><span><span class="swatch"></span>taken</span><span><span class="swatch never"></span>declared, never taken</span>\
                <span><span class="swatch illegal"></span>illegal (taken, not declared)</span><span><span class="swatch current"></span>this step</span>\
                <span><span class="swatch node"></span>current case</span></div>

                """
        }
        if !data.storesWithoutMachine.isEmpty {
            var list = data.storesWithoutMachine.map(HTMLText.escape).joined(separator: ", ")
            if data.unnamedStoresWithoutMachine > 0 {
                list += " and \(counted(data.unnamedStoresWithoutMachine, "more store"))"
            }
            text += "<p class=\"note\">Without a machine: \(list).</p>\n"
        }
        text += "</div></section>\n</div>\n"
        return text
    }

    // MARK: Data

    /// Everything but the event columns and details: names, stores, the window, the problems.
    static func info(_ data: ReportData) -> JSONValue {
        func string(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        func int(_ value: Int) -> JSONValue { .number(String(value)) }
        var problems: [JSONValue] = []
        for placed in data.problems {
            var object: JSONObject = [
                "kind": .string(placed.problem.kind.rawValue), "severity": .string(placed.problem.severity.rawValue),
                "line": int(placed.problem.line),
            ]
            if let seq = placed.problem.seq { object.append(key: "seq", value: int(seq)) }
            if let store = placed.problem.store { object.append(key: "store", value: .string(store)) }
            object.append(key: "message", value: .string(placed.problem.message))
            object.append(key: "event", value: placed.event.map(int) ?? .null)
            problems.append(.object(object))
        }
        let machines: [JSONValue] = data.graphs.enumerated().map { index, graph in
            .object([
                "id": .string("rw-m\(index)"),
                "store": int(data.stores.existingNumber(graph.store) ?? -1),
                "nodes": .array(graph.nodes.map { .string($0.name) }),
                "edges": .array(
                    graph.edges.map { .array([.string(graph.nodes[$0.from].name), .string(graph.nodes[$0.to].name)]) }),
            ])
        }
        return .object([
            "file": .string(data.path),
            "app": string(data.header.app),
            "window": .object([
                "first": int(data.window.firstStep), "last": int(data.window.lastStep),
                "start": int(data.window.startStep),
                "whole": .bool(data.window.isWhole),
            ]),
            "trace": .object(["events": int(data.traceEvents), "lastStep": int(data.traceLastStep)]),
            "summary": .object([
                "events": int(data.validation.events), "errors": int(data.validation.errors),
                "warnings": int(data.validation.warnings), "omitted": int(data.validation.omitted),
            ]),
            "names": .array(data.names.strings.map(JSONValue.string)),
            "arguments": .array(data.arguments.strings.map(JSONValue.string)),
            "stores": .array(data.stores.strings.map(JSONValue.string)),
            "start": .array(data.start.map { .array([int($0.store), int($0.caseName)]) }),
            "machines": .array(machines),
            "problems": .array(problems),
            "problemsOutside": int(data.problemsOutside),
        ])
    }

    /// `1 event`, `42 events`, `100,000 events`.
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(grouped(count)) \(noun)\(count == 1 ? "" : "s")"
    }

    /// `count` with a comma between groups of three digits: `100,000`.
    static func grouped(_ count: Int) -> String {
        let digits = Array(String(count.magnitude))
        var text = count < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }
}
