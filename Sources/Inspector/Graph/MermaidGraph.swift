/// Writes state machines as a Mermaid `stateDiagram-v2`: one composite state per store, `[*]`
/// pointing at the initial case, each transition labelled with the actions that took it and how
/// often. Mermaid cannot colour one transition of a state diagram, so an undeclared transition
/// is labelled "undeclared" and the cases only the trace names get the red `undeclared` class.
///
/// Identifiers are generated (`s0_c1`); names appear only in descriptions and labels, where `"`,
/// `#`, `;` and `:` are written as Mermaid entity codes after `TTY.safe`.
enum MermaidGraph {
    static func write(_ drawings: [MachineGraph], title: String, notes: [String]) -> String {
        var lines: [String] = ["stateDiagram-v2"]
        lines.append("    %% inspector graph: \(text(title))")
        for note in notes { lines.append("    %% \(text(note))") }
        var undeclaredNodes: [String] = []
        for (storeIndex, drawing) in drawings.enumerated() {
            let prefix = "s\(storeIndex)_"
            lines.append("    state \"\(text(drawing.store))\" as s\(storeIndex) {")
            for (index, node) in drawing.nodes.enumerated() {
                lines.append("        state \"\(text(node.name))\" as \(prefix)c\(index)")
                if !node.declared { undeclaredNodes.append("\(prefix)c\(index)") }
            }
            lines.append("        [*] --> \(prefix)c\(drawing.initial)")
            for edge in drawing.edges {
                let label = edge.declared ? edge.label : "undeclared " + edge.label
                lines.append("        \(prefix)c\(edge.from) --> \(prefix)c\(edge.to) : \(text(label))")
            }
            lines.append("    }")
        }
        if !undeclaredNodes.isEmpty {
            lines.append("    classDef undeclared fill:#fdd,stroke:#c00,color:#c00")
            lines.append("    class \(undeclaredNodes.joined(separator: ",")) undeclared")
        }
        return lines.joined(separator: "\n")
    }

    /// Text for a description or a label: on one line, with the characters Mermaid would read as
    /// syntax written as entity codes.
    static func text(_ raw: String) -> String {
        var result = ""
        for character in TTY.safe(raw) {
            switch character {
            case "#": result += "#35;"
            case "\"": result += "#quot;"
            case ";": result += "#59;"
            case ":": result += "#58;"
            case "{": result += "#123;"
            case "}": result += "#125;"
            default: result.append(character)
            }
        }
        return result
    }
}
