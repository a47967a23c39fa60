import Recorder

/// One store's machine laid out for drawing: numbered cases (declared ones first, then the names
/// the trace used that the machine does not have), and every edge, declared or taken, with how
/// often it was taken. `DOTGraph` and `MermaidGraph` write it out.
struct GraphDrawing {
    /// A case to draw.
    struct Node {
        var name: String
        /// Whether the machine declares it (false: a case only the trace names).
        var declared: Bool
    }

    /// An edge to draw.
    struct Edge {
        var from: Int
        var to: Int
        /// How often the trace took it (0: declared, never taken).
        var count: Int
        var actions: [String]
        /// Whether the machine declares it.
        var declared: Bool

        /// `toLoading (3)`, `toLoaded, toFailed (5)`, or `0` for an edge never taken.
        var label: String {
            guard count > 0 else { return "0" }
            let shown = actions.prefix(3).joined(separator: ", ") + (actions.count > 3 ? ", …" : "")
            return shown.isEmpty ? "\(count)" : "\(shown) (\(count))"
        }
    }

    var store: String
    var nodes: [Node]
    var initial: Int?
    var edges: [Edge]

    /// The drawing of a store that has a machine.
    init(_ tally: TransitionTally.Store, machine: MachineSpec) {
        var nodes: [Node] = []
        var index: [String: Int] = [:]
        func node(_ name: String, declared: Bool) -> Int {
            if let known = index[name] { return known }
            index[name] = nodes.count
            nodes.append(Node(name: name, declared: declared))
            return nodes.count - 1
        }
        let declaredCases = machine.cases.filter { machine.transitions[$0] != nil }
            + machine.transitions.keys.filter { !machine.cases.contains($0) }.sorted()
        for name in declaredCases { _ = node(name, declared: true) }
        var edges: [Edge] = []
        var edgeIndex: [String: Int] = [:]
        for source in declaredCases {
            for target in machine.transitions[source] ?? [] where edgeIndex[source + "\u{0}" + target] == nil {
                edgeIndex[source + "\u{0}" + target] = edges.count
                edges.append(Edge(from: node(source, declared: true), to: node(target, declared: true), count: 0, actions: [], declared: true))
            }
        }
        for taken in tally.taken {
            let key = taken.from + "\u{0}" + taken.to
            if let known = edgeIndex[key] {
                edges[known].count = taken.count
                edges[known].actions = taken.actions
            } else {
                edgeIndex[key] = edges.count
                edges.append(Edge(
                    from: node(taken.from, declared: false), to: node(taken.to, declared: false),
                    count: taken.count, actions: taken.actions, declared: false))
            }
        }
        self.store = tally.name
        self.nodes = nodes
        self.initial = index[machine.initial]
        self.edges = edges
    }
}
