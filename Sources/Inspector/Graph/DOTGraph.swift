/// Writes state machines as a Graphviz DOT graph that `dot` renders unchanged: one cluster per
/// store, a point with an arrow marking the initial case, each edge labelled with the actions that
/// took it and how often, declared edges never taken dashed and grey, and edges the trace took
/// that the machine does not declare in red (with the cases only the trace names).
///
/// Identifiers are generated (`s0_c1`); names appear only in labels, quoted and escaped, after
/// `TTY.safe` has made any control character visible.
enum DOTGraph {
    static func write(_ drawings: [MachineGraph], title: String, notes: [String]) -> String {
        var lines: [String] = []
        lines.append("// inspector graph: \(comment(title))")
        for note in notes { lines.append("// \(comment(note))") }
        lines.append("digraph \(quoted("Rewind trace " + title)) {")
        lines.append("    rankdir=LR;")
        lines.append("    node [shape=box, style=rounded];")
        for (storeIndex, drawing) in drawings.enumerated() {
            let prefix = "s\(storeIndex)_"
            lines.append("    subgraph \(quoted("cluster_\(storeIndex)")) {")
            lines.append("        label=\(quoted(drawing.store));")
            for (index, node) in drawing.nodes.enumerated() {
                let style = node.declared ? "" : ", color=red, fontcolor=red"
                lines.append("        \(quoted(prefix + "c\(index)")) [label=\(quoted(node.name))\(style)];")
            }
            lines.append("        \(quoted(prefix + "start")) [shape=point, width=0.12, label=\"\"];")
            lines.append("        \(quoted(prefix + "start")) -> \(quoted(prefix + "c\(drawing.initial)"));")
            for edge in drawing.edges {
                let attributes: String
                if !edge.declared {
                    attributes = "label=\(quoted(edge.label + " undeclared")), color=red, fontcolor=red, penwidth=2"
                } else if edge.count == 0 {
                    attributes = "label=\(quoted(edge.label)), style=dashed, color=gray50, fontcolor=gray50"
                } else {
                    attributes = "label=\(quoted(edge.label))"
                }
                lines.append(
                    "        \(quoted(prefix + "c\(edge.from)")) -> \(quoted(prefix + "c\(edge.to)")) [\(attributes)];")
            }
            lines.append("    }")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// A DOT quoted string: `"` and `\` escaped, so that no `\n`/`\l` sequence or quote of a
    /// name changes the graph.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for character in TTY.safe(text) {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default: result.append(character)
            }
        }
        return result + "\""
    }

    /// Text for a `//` comment: on one line.
    private static func comment(_ text: String) -> String {
        TTY.safe(text)
    }
}
