@_spi(RewindInternals) internal import RewindSupport
import TraceJSON
import TraceReader

// `TerminalText` moves from RewindSupport to ToolSupport on main: import it from where it is.
#if canImport(ToolSupport)
    @_spi(RewindInternals) internal import ToolSupport
#endif

/// Where two runs first differ, as `TraceComparison` finds it: the event on each side, the
/// members that differ, the app states there, and the chain of causes that led to each event.
/// `report()` writes it for people: `inspector compare` prints it, and `GoldenTrace` fails a
/// test with it.
public struct TraceDifference: Sendable {
    /// One run's side of the difference.
    public struct Side: Sendable {
        /// The trace's path, or the name its bytes were given.
        public var name: String
        /// The event at the difference, without its state; nil when this run has no event there
        /// (it ended first), or for a difference of the headers.
        public var event: TraceEvent?
        /// The events this run has up to the difference, or in all when it ended first.
        public var eventCount: Int
        /// The chain of causes of `event`, itself first (see `CauseChain`); nil without event.
        public var causes: CauseChain?
        /// For a difference of the headers: the stores whose machines differ.
        public var machines: [String]

        /// A side at `event`.
        public init(name: String, event: TraceEvent?, eventCount: Int, causes: CauseChain?) {
            self.name = name
            self.event = event
            self.eventCount = eventCount
            self.causes = causes
            self.machines = []
        }

        /// A side of a difference of the headers' machines.
        init(name: String, eventCount: Int, machines: [String]) {
            self.init(name: name, event: nil, eventCount: eventCount, causes: nil)
            self.machines = machines
        }
    }

    /// The 1-based position of the events that differ (the first event of each run is 1); 0
    /// when every event agrees and the headers declare different machines.
    public var position: Int
    /// What differs, in the format's order: `type`, `store`, `action`, `case`, `from`, `to`,
    /// `changed`, `args`, `machine`, `state`; `end` when one run has no event there; `machines`
    /// for the headers.
    public var fields: [String]
    /// The first run's side.
    public var first: Side
    /// The second run's side.
    public var second: Side
    /// The app states just after the two events, the ignored paths left out: first → second.
    public var stateDiff: StateDiff
    /// The paths left out of the comparison.
    public var ignoring: [StatePathPattern]

    /// The difference for people, every string from the traces escaped:
    ///
    /// ```
    /// traces differ at event 7: action, state
    ///   a.jsonl:8  seq 7  CartStore.add  args {"sku":"A1"}
    ///   b.jsonl:8  seq 7  CartStore.remove  args {"sku":"A1"}
    /// app state there (- a.jsonl, + b.jsonl):
    ///     CartStore: { … }
    /// causes in a.jsonl: seq 7 CartStore.add ← seq 6 CatalogStore.didLoad (the action that started it)
    /// ```
    ///
    /// - Parameters:
    ///   - width: the width the state diff is fitted to.
    ///   - colors: ANSI colours in the state diff.
    public func report(width: Int = 100, colors: Bool = false) -> String {
        var lines: [String] = []
        let names = (TerminalText.safe(first.name), TerminalText.safe(second.name))
        if position == 0 {
            lines.append(
                "\(names.0) and \(names.1) agree on every event (\(first.eventCount)), but their headers declare different machines for: \(first.machines.map(TerminalText.safe).joined(separator: ", "))"
            )
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append("\(names.0) and \(names.1) differ at event \(position): \(fields.joined(separator: ", "))")
        let column = max(names.0.count, names.1.count) + 8
        for side in [first, second] {
            let name = TerminalText.safe(side.name)
            guard let event = side.event else {
                lines.append("  \(pad(name, column))ends after \(counted(side.eventCount, "event"))")
                continue
            }
            lines.append("  \(pad("\(name):\(event.line)", column))\(Self.describe(event, withArguments: true))")
        }
        if !stateDiff.isEmpty {
            lines.append("app state there (- \(names.0), + \(names.1)):")
            let tree = StateDiffPrinter(width: width, terminalSafe: true, colors: colors).text(stateDiff)
            lines += tree.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        } else if fields.contains("state") || fields.contains("end") {
            lines.append("app state there: the same")
        }
        for side in [first, second] {
            guard let chain = side.causes else { continue }
            var text = "causes in \(TerminalText.safe(side.name)): "
            text += chain.events.map { "seq \($0.seq) " + Self.describe($0, withArguments: false, short: true) }
                .joined(separator: " ← ")
            text += " " + Self.ending(chain.end)
            lines.append(text)
        }
        if !ignoring.isEmpty {
            lines.append("ignored: " + ignoring.map { TerminalText.safe($0.description) }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `seq 7  CartStore.add  loading → loaded  args {"sku":"A1"}`, or without `seq` and
    /// arguments for a chain: `CartStore.add`.
    static func describe(_ event: TraceEvent, withArguments: Bool, short: Bool = false) -> String {
        var parts: [String] = short ? [] : ["seq \(event.seq)"]
        let store = TerminalText.safe(event.store ?? "?")
        switch event.type {
        case "transition": parts.append("\(store).\(TerminalText.safe(event.action ?? "?"))")
        case "register", "restore": parts.append("\(event.type) \(store)")
        default: parts.append(TerminalText.safe(event.type) + (event.store.map { " " + TerminalText.safe($0) } ?? ""))
        }
        if short { return parts.joined(separator: " ") }
        if let from = event.from, let to = event.to {
            parts.append("\(TerminalText.safe(from)) → \(TerminalText.safe(to))")
        } else if let caseName = event.caseName {
            parts.append("case \(TerminalText.safe(caseName))")
        }
        if event.changed == false { parts.append("(no change)") }
        if withArguments, let args = event.args {
            parts.append("args " + JSONPrinter.compact(.object(args), terminalSafe: true))
        }
        return parts.joined(separator: "  ")
    }

    private static func ending(_ end: CauseChain.End) -> String {
        switch end {
        case .origin: "(the action that started it)"
        case .missingCause(let seq): "(its cause, seq \(seq), is not in the trace)"
        case .cycle(let seq): "(its cause, seq \(seq), is already in the chain: the trace is damaged)"
        case .unreadable(let seq): "(its cause, seq \(seq), is too far back in a stream that cannot be read again)"
        }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(2, width - text.count))
    }

    private func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
