import CommandLineArguments
import TraceReader

/// `inspector stats TRACE`: what a developer checks first on a long trace.
enum Stats: Command {
    static let name = "stats"
    static let summary = "count events per store and action, time between events, no-change steps"
    static let help = """
        Usage: inspector stats TRACE [--top N] [--format text|json]

        Prints what to check first on a long trace:
          - the busiest stores: events per store, how many changed nothing, and the most
            events the store had within one second;
          - events per action (store.action), with how many changed nothing;
          - the time between consecutive events: min, median, 99th percentile, max;
          - the steps where an action changed nothing (changed: false).
        Each line is read once, without building its state.

        Options:
          --top N              list at most N stores and N actions (default 10; 0: all)
          --format text        for people (default)
          --format json        one JSON object, every store and action, for scripts

        \(standardExitStatuses)
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let top = try arguments.intOption("--top", atLeast: 0) ?? 10
        let format = try arguments.choice("--format", among: ["text", "json"]) ?? "text"
        let file = try arguments.positional("TRACE (the trace file)")
        try arguments.finish()
        let trace = try TraceOpening.open(file)
        TraceOpening.reportIssues(of: trace, console: console)
        let stats = TraceStatistics(trace: trace)
        if format == "json" {
            console.out.line(JSONPrinter.compact(json(stats, file: file), terminalSafe: true))
        } else {
            printText(stats, file: file, top: top == 0 ? Int.max : top, console: console)
        }
        return ExitStatus.success
    }

    private static func printText(_ stats: TraceStatistics, file: String, top: Int, console: Console) {
        let out = console.out
        let style = console.style
        var summary =
            "\(TTY.safe(file)): \(count(stats.events, "event")), \(count(stats.stores.count, "store")), \(count(stats.actions.count, "action"))"
        if let duration = stats.duration { summary += ", " + EventLine.seconds(duration) + " recorded" }
        out.line(summary)
        if stats.otherEvents > 0 { out.line("  \(count(stats.otherEvents, "event")) of other types") }
        if stats.unreadableEvents > 0 {
            out.line(
                "  \(count(stats.unreadableEvents, "event")) could not be read again: the file changed since it was opened"
            )
        }

        if !stats.stores.isEmpty {
            out.line("")
            out.line(
                style.bold("Busiest stores")
                    + (stats.stores.count > top ? " (top \(top) of \(stats.stores.count))" : ""))
            let rows = stats.stores.prefix(top).map { store in
                [
                    TTY.safe(store.name), String(store.events), percent(store.events, of: stats.events),
                    store.unchanged > 0 ? "\(store.unchanged) no change" : "",
                    store.peakPerSecond > 0 ? "peak \(store.peakPerSecond)/s" : "",
                ]
            }
            table(rows, rightAligned: [1, 2], console: console)
        }
        if !stats.actions.isEmpty {
            out.line("")
            out.line(
                style.bold("Events per action")
                    + (stats.actions.count > top ? " (top \(top) of \(stats.actions.count))" : ""))
            let rows = stats.actions.prefix(top).map { action in
                [
                    TTY.safe(action.store) + "." + TTY.safe(action.action), String(action.events),
                    percent(action.events, of: stats.events),
                    action.unchanged > 0 ? "\(action.unchanged) no change" : "",
                ]
            }
            table(rows, rightAligned: [1, 2], console: console)
        }
        out.line("")
        out.line(style.bold("Time between events"))
        if let intervals = stats.intervals {
            out.line(
                "  min \(EventLine.seconds(intervals.minimum))  median \(EventLine.seconds(intervals.median))  p99 \(EventLine.seconds(intervals.p99))  max \(EventLine.seconds(intervals.maximum))  (\(count(intervals.count, "interval")))"
            )
        } else {
            out.line("  not known: fewer than two events have an elapsed time")
        }
        out.line("")
        out.line(style.bold("Steps where nothing changed"))
        if stats.unchangedCount == 0 {
            out.line("  none: every action changed the state")
        } else {
            let listed = stats.unchangedSteps.prefix(20)
            var steps = listed.map(String.init).joined(separator: ", ")
            if stats.unchangedCount > listed.count {
                steps +=
                    ", … (\(stats.unchangedCount - listed.count) more; --format json lists \(TraceStatistics.listedUnchangedSteps))"
            }
            out.line(
                "  \(count(stats.unchangedCount, "action")) (\(percent(stats.unchangedCount, of: stats.events)) of events) left the state as it was: steps \(steps)"
            )
            out.line("  see one with 'inspector step \(TTY.safe(file)) --at \(stats.unchangedSteps.first ?? 0)'")
        }
    }

    /// Columns padded to their widest cell; empty trailing cells dropped.
    private static func table(_ rows: [[String]], rightAligned: Set<Int>, console: Console) {
        guard let columns = rows.map(\.count).max() else { return }
        let widths = (0..<columns).map { column in
            rows.map { column < $0.count ? ScreenText.width($0[column]) : 0 }.max() ?? 0
        }
        for row in rows {
            var cells: [String] = []
            for (column, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: max(0, widths[column] - ScreenText.width(cell)))
                cells.append(rightAligned.contains(column) ? padding + cell : cell + padding)
            }
            var line = "  " + cells.joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            console.out.line(line)
        }
    }

    private static func count(_ value: Int, _ noun: String) -> String {
        "\(value) \(noun)\(value == 1 ? "" : "s")"
    }

    /// `12.5%`, one decimal.
    private static func percent(_ part: Int, of whole: Int) -> String {
        guard whole > 0 else { return "0%" }
        let tenths = (part * 1000 + whole / 2) / whole
        return "\(tenths / 10).\(tenths % 10)%"
    }

    private static func json(_ stats: TraceStatistics, file: String) -> JSONValue {
        func number(_ value: Int) -> JSONValue { .number(String(value)) }
        func number(_ value: Double) -> JSONValue { value.isFinite ? .number(String(value)) : .null }
        var object: JSONObject = [
            "file": .string(file),
            "events": number(stats.events),
            "otherEvents": number(stats.otherEvents),
            "unchanged": number(stats.unchangedCount),
            "unchangedSteps": .array(stats.unchangedSteps.map(number)),
        ]
        object.set(stats.duration.map(number) ?? .null, forKey: "duration")
        object.set(
            .array(
                stats.stores.map { store in
                    .object([
                        "name": .string(store.name), "events": number(store.events),
                        "unchanged": number(store.unchanged), "peakPerSecond": number(store.peakPerSecond),
                    ])
                }), forKey: "stores")
        object.set(
            .array(
                stats.actions.map { action in
                    .object([
                        "store": .string(action.store), "action": .string(action.action),
                        "events": number(action.events), "unchanged": number(action.unchanged),
                    ])
                }), forKey: "actions")
        if let intervals = stats.intervals {
            object.set(
                .object([
                    "count": number(intervals.count), "min": number(intervals.minimum),
                    "median": number(intervals.median),
                    "p99": number(intervals.p99), "max": number(intervals.maximum),
                ]), forKey: "intervals")
        } else {
            object.set(.null, forKey: "intervals")
        }
        return .object(object)
    }
}
