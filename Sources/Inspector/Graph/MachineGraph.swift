import Recorder
import TraceReader

/// One store's state machine as it is drawn (`graph` as DOT or Mermaid, `report` as SVG): its
/// cases (the declared ones, then any case the trace used that the machine does not have) and its
/// edges: every declared transition, with how often the trace took it, and every transition the
/// trace took that the machine does not declare (an illegal edge).
struct MachineGraph: Equatable {
    /// A case.
    struct Node: Equatable {
        /// The case's name.
        var name: String
        /// Whether the machine declares it; false for a name only the trace uses.
        var declared: Bool
    }

    /// A `from → to` pair, declared, taken, or both.
    struct Edge: Equatable {
        /// The node it leaves.
        var from: Int
        /// The node it enters.
        var to: Int
        /// Whether the machine declares it.
        var declared: Bool
        /// How often the trace (the report's window of it) took it.
        var count: Int
        /// The actions that took it, in the order first seen.
        var actions: [String]

        /// Taken although the machine does not declare it.
        var isIllegal: Bool { !declared && count > 0 }

        /// `toLoading (3)`, `toLoaded, toFailed (5)`, or `0` for an edge never taken.
        var label: String {
            guard count > 0 else { return "0" }
            let shown = actions.prefix(3).joined(separator: ", ") + (actions.count > 3 ? ", …" : "")
            return shown.isEmpty ? "\(count)" : "\(shown) (\(count))"
        }
    }

    /// The store's name.
    var store: String
    /// The cases, declared ones first in declaration order.
    var nodes: [Node]
    /// The node of the initial case.
    var initial: Int
    /// Declared edges in declaration order, then undeclared ones in the order first taken.
    var edges: [Edge]
    /// How many declared cases and transitions were left out because the machine has more than
    /// `largestDrawn` (0 and 0 when it is drawn whole).
    var omitted: (cases: Int, edges: Int) = (0, 0)

    /// The most declared transitions drawn: a machine with more (a fully connected one of a few
    /// hundred cases) is drawn with only the transitions taken and their cases, since no one
    /// can read, nor Graphviz lay out, millions of edges.
    static let largestDrawn = 20_000

    static func == (left: MachineGraph, right: MachineGraph) -> Bool {
        left.store == right.store && left.nodes == right.nodes && left.initial == right.initial
            && left.edges == right.edges && left.omitted == right.omitted
    }

    /// The graph of `machine` with the transitions `taken`, in the order they were first taken.
    /// Time and memory are linear in the machine's size and in `taken`.
    init(
        store: String, machine: MachineSpec, taken: [TransitionTally.Taken], largestDrawn: Int = Self.largestDrawn
    ) {
        var nodes: [Node] = []
        var nodeIndex: [String: Int] = [:]
        func node(_ name: String, declared: Bool) -> Int {
            if let known = nodeIndex[name] { return known }
            nodeIndex[name] = nodes.count
            nodes.append(Node(name: name, declared: declared))
            return nodes.count - 1
        }
        // `cases` is the declared order; a spec built by hand may list fewer names than its table.
        let listed = Set(machine.cases)
        let declaredCases =
            machine.cases.filter { machine.transitions[$0] != nil }
            + machine.transitions.keys.filter { !listed.contains($0) }.sorted()
        let declaredEdges = declaredCases.reduce(0) { $0 + (machine.transitions[$1]?.count ?? 0) }
        let drawsAll = declaredEdges <= largestDrawn
        var edges: [Edge] = []
        var edgeIndex: [Pair: Int] = [:]
        if drawsAll {
            for name in declaredCases { _ = node(name, declared: true) }
            for source in declaredCases {
                for target in machine.transitions[source] ?? [] {
                    let pair = Pair(from: node(source, declared: true), to: node(target, declared: true))
                    guard edgeIndex[pair] == nil else { continue }
                    edgeIndex[pair] = edges.count
                    edges.append(Edge(from: pair.from, to: pair.to, declared: true, count: 0, actions: []))
                }
            }
        }
        // Too large to draw whole: the cases and transitions taken, marked declared or not.
        let isDeclaredCase = drawsAll ? { _ in true } : { (name: String) in machine.transitions[name] != nil }
        let declares: (String, String) -> Bool =
            drawsAll ? { _, _ in false } : { from, to in machine.transitions[from]?.contains(to) ?? false }
        if !drawsAll { _ = node(machine.initial, declared: isDeclaredCase(machine.initial)) }
        for transition in taken {
            let pair = Pair(
                from: node(transition.from, declared: !drawsAll && isDeclaredCase(transition.from)),
                to: node(transition.to, declared: !drawsAll && isDeclaredCase(transition.to)))
            if let known = edgeIndex[pair] {
                edges[known].count += transition.count
                var seen = Set(edges[known].actions)
                edges[known].actions += transition.actions.filter { seen.insert($0).inserted }
            } else {
                edgeIndex[pair] = edges.count
                edges.append(
                    Edge(
                        from: pair.from, to: pair.to, declared: declares(transition.from, transition.to),
                        count: transition.count, actions: transition.actions))
            }
        }
        self.store = store
        self.initial = node(machine.initial, declared: true)
        self.nodes = nodes
        self.edges = edges
        if !drawsAll {
            omitted = (
                declaredCases.count - nodes.filter(\.declared).count,
                declaredEdges - edges.filter(\.declared).count
            )
        }
    }

    private struct Pair: Hashable {
        var from: Int
        var to: Int
    }
}
