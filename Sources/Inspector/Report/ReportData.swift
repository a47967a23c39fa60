import CommandLineArguments
import Recorder
import TraceJSON
import TraceReader

/// Everything a report page shows, read from a trace: the event summaries, each event's state
/// and arguments as JSON text (parsed by the page only when shown), the state where the window
/// starts, the machine graphs with the transitions taken, and the validation problems.
struct ReportData {
    /// The trace's path, as given.
    var path: String
    /// The trace's header.
    var header: TraceHeader
    /// The machines drawn and validated against: the header's, or `--spec`'s store by store.
    var machines: [String: MachineSpec]
    /// The steps the report covers.
    var window: ReportWindow
    /// The number of events in the whole trace, and its last step.
    var traceEvents: Int
    var traceLastStep: Int
    /// What validating the whole trace found.
    var validation: ValidationReport
    /// The problems on the window's lines, and the number on lines outside it.
    var problems: [PlacedProblem]
    var problemsOutside: Int
    /// Store names (the timeline's colours follow their numbers) and every other name.
    var stores = StringTable()
    var names = StringTable()
    /// The events' arguments as the timeline rows show them, shortened (`EventColumns.args`).
    var arguments = StringTable()
    /// One summary per event.
    var columns = EventColumns()
    /// One line of JSON per event, `{"state":…,"args":…}` (`{}` for an event without them,
    /// `null` for one that could not be read), then one `{"state":…}` line per store of
    /// `start`, already escaped for a script element.
    var details: [UInt8] = []
    /// The stores as they were before the window: (store number, case name number or -1).
    var start: [(store: Int, caseName: Int)] = []
    /// The graph of each store that has a machine, in the header's order.
    var graphs: [MachineGraph] = []
    /// The stores of the trace that have no machine (at most `limits.maximumUnmachinedNames`).
    var storesWithoutMachine: [String] = []
    /// How many stores without a machine are not named.
    var unnamedStoresWithoutMachine = 0
    /// The machines left out by the limits: how many, and their cases and transitions.
    var omittedMachines = (machines: 0, cases: 0, transitions: 0)
    /// The limits the page was made under (named by its notices).
    var limits: ReportLimits

    /// Reads the events of `window` from `trace`.
    /// - Throws: `UsageError` when the states take more than `limits` allows, saying which
    ///   window would fit.
    init(
        trace: TraceFile, window: ReportWindow, validation: ValidationReport, machines: [String: MachineSpec],
        limits: ReportLimits
    ) throws(UsageError) {
        path = trace.path
        header = trace.header
        self.limits = limits
        self.machines = machines
        self.window = window
        self.validation = validation
        traceEvents = trace.eventCount
        traceLastStep = trace.lastStep
        (problems, problemsOutside) = PlacedProblem.place(validation.problems, in: trace, window: window)
        for name in trace.storeNames { _ = stores.number(name) }

        var counts = TransitionCounts()
        for index in window.events {
            let event = trace.event(at: index)
            columns.append(
                event, step: trace.step(ofEventAt: index) ?? 0, line: trace.line(ofEventAt: index) ?? 0,
                stores: &stores, names: &names, arguments: &arguments)
            if let event, event.type == "transition", let store = event.store, machines[store] != nil,
                let from = event.from, let to = event.to
            {
                counts.record(store: store, from: from, to: to, action: event.action)
            }
            // A version 2 transition that carries a `patch`: the state the trace rebuilds (none
            // when a patch does not apply; validation lists that `bad-patch`).
            var state = event?.state
            if state == nil, let event, event.setsState, let store = event.store {
                state = trace.state(of: store, atStep: trace.step(ofEventAt: index) ?? 0)
            }
            appendDetails(of: event, state: state)
            if details.count > limits.maximumStateBytes {
                throw Self.tooLarge(trace: trace, window: window, reachedAt: index, limits: limits)
            }
        }
        for store in WindowStart(of: window, in: trace, machines: machines).stores {
            start.append((stores.number(store.name), names.number(store.caseName)))
            ScriptData.append(
                json: "{\"state\":" + JSONPrinter.compact(store.state, terminalSafe: true) + "}\n", to: &details)
        }
        let ordered = Set(header.machineOrder)
        let drawn =
            header.machineOrder.filter { machines[$0] != nil } + machines.keys.filter { !ordered.contains($0) }.sorted()
        // Machines while they fit the limits; the rest are counted, never built.
        var shown = (cases: 0, transitions: 0)
        for store in drawn {
            guard let machine = machines[store] else { continue }
            let cases = machine.transitions.count
            let transitions = machine.transitions.values.reduce(0) { $0 + $1.count }
            if graphs.count < limits.maximumMachines && shown.cases + cases <= limits.maximumCases
                && shown.transitions + min(transitions, MachineGraph.largestDrawn) <= limits.maximumTransitions
            {
                let graph = MachineGraph(store: store, machine: machine, taken: counts.taken(by: store))
                shown.cases += graph.nodes.count
                shown.transitions += graph.edges.count
                graphs.append(graph)
            } else {
                omittedMachines.machines += 1
                omittedMachines.cases += cases
                omittedMachines.transitions += transitions
            }
        }
        let unmachined = stores.strings.filter { machines[$0] == nil }
        storesWithoutMachine = Array(unmachined.prefix(limits.maximumUnmachinedNames))
        unnamedStoresWithoutMachine = unmachined.count - storesWithoutMachine.count
    }

    /// Where the app's Swift files are (the current directory): a stack is folded to their frames.
    private static let sourceRoot = SourceRoot()

    /// Appends the details line of `event` (nil: it could not be read), with `state`, the
    /// store's state after it.
    private mutating func appendDetails(of event: TraceEvent?, state: JSONValue?) {
        guard let event else {
            details.append(contentsOf: "null\n".utf8)
            return
        }
        var line = "{"
        if let state {
            line += "\"state\":" + JSONPrinter.compact(state, terminalSafe: true)
        }
        if let args = event.args {
            line += (state == nil ? "" : ",") + "\"args\":" + JSONPrinter.compact(.object(args), terminalSafe: true)
        }
        // The call stack that sent the action, folded to the app's frames (`CallStackText`).
        if let stack = event.stack, !stack.isEmpty {
            let frames = CallStackText(stack, sourceRoot: Self.sourceRoot).frames
            line += (line == "{" ? "" : ",") + "\"stack\":"
            line += JSONPrinter.compact(.array(frames.map { .string($0) }), terminalSafe: true)
        }
        line += "}\n"
        ScriptData.append(json: line, to: &details)
    }

    /// The refusal when the states outgrow the limit at event `index`: names the window read so
    /// far as one that fits.
    private static func tooLarge(trace: TraceFile, window: ReportWindow, reachedAt index: Int, limits: ReportLimits)
        -> UsageError
    {
        let megabytes = limits.maximumStateBytes >> 20
        let fitting =
            index > window.events.lowerBound ? trace.step(ofEventAt: index - 1) ?? window.firstStep : window.firstStep
        let suggestion =
            "inspector report \(TTY.safe(trace.path)) --from \(window.firstStep) --to \(max(window.firstStep, fitting))"
        return UsageError(
            "the states of \(TTY.safe(trace.path)) from step \(window.firstStep) take more than \(megabytes) MB by step \(trace.step(ofEventAt: index) ?? window.lastStep), more than a report holds (a browser slows down past that); write a window of steps, such as: \(suggestion), or raise the limit with --max-size MB (at most \(ReportLimits.largestStateMegabytes))"
        )
    }
}
