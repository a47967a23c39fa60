import CommandLineArguments
import TraceJSON
import TraceQueries

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
        The file is read once, from its first line to its last, without building any state
        or index: memory stays bounded whatever the trace (under 64 MB). Past a million
        intervals, the median and p99 are estimates within 1%, printed with a leading ~ and
        three significant digits (exact up to there; "intervalsApproximate": true in JSON). Past 10,000 store names or store-and-action pairs, the
        events of names first met after that are counted together ("and N events of other
        stores"). A store with more events in a second than about a million has its peak
        counted per millisecond, printed with a leading ~.

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
        let stats: TraceStatistics
        do {
            stats = try TraceStatistics(path: file)
        } catch {
            throw FileError(file, line: error.line, error.message)
        }
        TraceOpening.reportIssues(stats.issues, path: file, console: console)
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
                    store.peakPerSecond > 0 ? "peak \(store.peakIsApproximate ? "~" : "")\(store.peakPerSecond)/s" : "",
                ]
            }
            table(rows, rightAligned: [1, 2], console: console)
            others(stats.otherStores, "stores", of: stats.events, console: console)
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
            others(stats.otherActions, "actions", of: stats.events, console: console)
        }
        out.line("")
        out.line(style.bold("Time between events"))
        if let intervals = stats.intervals {
            let estimate = intervals.isApproximate ? "; median and p99 within 1%" : ""
            out.line(
                "  min \(EventLine.seconds(intervals.minimum))  median \(quantile(intervals.median, intervals))  p99 \(quantile(intervals.p99, intervals))  max \(EventLine.seconds(intervals.maximum))  (\(count(intervals.count, "interval"))\(estimate))"
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

    /// The line under a table for the events of names not counted one by one (past the most
    /// names kept); nothing when there are none.
    private static func others(
        _ others: TraceStatistics.Others, _ what: String, of events: Int, console: Console
    ) {
        guard others.events > 0 else { return }
        let unchanged = others.unchanged > 0 ? ", \(others.unchanged) no change" : ""
        console.out.line(
            "  and \(count(others.events, "event")) (\(percent(others.events, of: events))) of other \(what), first seen after the most names counted\(unchanged)"
        )
    }

    /// A percentile: as `EventLine.seconds` when exact; an estimate as `~` and the three
    /// significant digits it has.
    private static func quantile(_ value: Double, _ intervals: TraceStatistics.Intervals) -> String {
        guard intervals.isApproximate, value.isFinite, value.magnitude >= 1e-9 else { return EventLine.seconds(value) }
        var scale = 1.0
        while (value.magnitude * scale) < 100 {
            scale *= 10
        }
        while (value.magnitude * scale) >= 1000 {
            scale /= 10
        }
        return "~" + EventLine.seconds((value * scale).rounded() / scale)
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
                    var object: JSONObject = [
                        "name": .string(store.name), "events": number(store.events),
                        "unchanged": number(store.unchanged), "peakPerSecond": number(store.peakPerSecond),
                    ]
                    if store.peakIsApproximate { object.set(.bool(true), forKey: "peakApproximate") }
                    return .object(object)
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
            if intervals.isApproximate { object.set(.bool(true), forKey: "intervalsApproximate") }
        } else {
            object.set(.null, forKey: "intervals")
        }
        for (key, others) in [("otherStores", stats.otherStores), ("otherActions", stats.otherActions)]
        where others.events > 0 {
            object.set(.object(["events": number(others.events), "unchanged": number(others.unchanged)]), forKey: key)
        }
        return .object(object)
    }
}
