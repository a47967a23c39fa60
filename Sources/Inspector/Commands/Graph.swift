import CommandLineArguments
import Recorder
import TraceReader

/// `inspector graph`: each store's state machine as a graph, with the transitions a trace took.
enum Graph: Command {
    static let name = "graph"
    static let summary = "draw each store's state machine with the transitions a trace took (DOT or Mermaid)"
    static let help = """
        Usage: inspector graph TRACE [--format dot|mermaid] [--spec FILE]

        Draws the state machine of each store that has one: its declared transitions, how often
        the trace took each (with the actions that did), declared transitions never taken
        (dashed), and the transitions taken that the machine does not declare, in red. The
        initial case has an arrow from a dot.

        Options:
          --format FORMAT   dot (default): Graphviz, render with `dot -Tsvg -o graph.svg`
                            mermaid: a Mermaid stateDiagram-v2 (undeclared transitions are
                            labelled "undeclared"; Mermaid cannot colour one transition)
          --spec FILE       take state machines from FILE, {"machines": {...}}, store by store

        Exit status:
          0  the graph was written
          2  the command line is wrong, or the file cannot be read or is not a trace
        """

    static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
        let format = try arguments.choice("--format", among: ["dot", "mermaid"]) ?? "dot"
        let specPath = try arguments.option("--spec")
        let path = try arguments.positional("TRACE")
        try arguments.finish()

        let machines = try TraceOpening.specMachines(at: specPath)
        let tally: TransitionTally
        do {
            tally = try TransitionTally.count(file: path, machines: machines)
        } catch {
            throw FileError(error.path, line: error.line, error.message)
        }

        var drawings: [MachineGraph] = []
        var notes: [String] = []
        for store in tally.stores {
            if let machine = store.machine {
                let drawing = MachineGraph(store: store.name, machine: machine, taken: store.taken)
                if drawing.omitted != (0, 0) {
                    notes.append(
                        "\(store.name)'s machine has more than \(MachineGraph.largestDrawn) transitions: only the transitions the trace took are drawn (\(counted(drawing.omitted.cases, "case")) and \(counted(drawing.omitted.edges, "declared transition")) left out)"
                    )
                }
                drawings.append(drawing)
            } else {
                notes.append("\(store.name) has no state machine; not drawn")
            }
        }
        if drawings.isEmpty { notes.append("no store of this trace has a state machine") }
        if tally.unreadableLines > 0 {
            console.err.line(
                "inspector: \(TTY.safe(path)): \(counted(tally.unreadableLines, "line")) could not be read and \(tally.unreadableLines == 1 ? "was" : "were") left out; run 'inspector validate \(TTY.safe(path))'"
            )
        }
        let output =
            format == "mermaid"
            ? MermaidGraph.write(drawings, title: path, notes: notes)
            : DOTGraph.write(drawings, title: path, notes: notes)
        console.out.line(output)
        return ExitStatus.success
    }
}
