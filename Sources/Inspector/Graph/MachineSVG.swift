/// A `MachineGraph` drawn as inline SVG: rounded boxes for the cases, curved edges with
/// arrowheads, labelled with the actions that took them and how often (`toLoading (3)`), the initial case marked by an arrow from a dot.
///
/// Edges carry the class `taken` (declared and taken), `never` (declared, not taken: dashed) or
/// `illegal` (taken, not declared: red); a case the machine does not declare is `undeclared`.
/// The page's script marks the current case and the current step's edge with the class
/// `current`, finding them by id: `ID-n3` is node 3 and `ID-e5` edge 5. Every name is escaped.
enum MachineSVG {
    /// The SVG element for `graph`, with element ids starting with `id`.
    static func svg(_ graph: MachineGraph, layout: GraphLayout, id: String) -> String {
        let bounds = layout.bounds
        var out = "<svg class=\"rw-graph\" id=\"\(id)\" xmlns=\"http://www.w3.org/2000/svg\""
        out += " viewBox=\"\(number(bounds.x)) \(number(bounds.y)) \(number(bounds.width)) \(number(bounds.height))\""
        out += " width=\"\(number(bounds.width))\" height=\"\(number(bounds.height))\" role=\"img\""
        out += " aria-label=\"State machine of \(HTMLText.escape(graph.store))\">"
        out += "<defs>"
        for kind in ["taken", "never", "illegal", "current"] {
            out += "<marker id=\"\(id)-\(kind)\" class=\"\(kind)\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\""
            out += " markerWidth=\"7\" markerHeight=\"7\" markerUnits=\"userSpaceOnUse\" orient=\"auto\">"
            out += "<path d=\"M0,1 L9,5 L0,9 z\"/></marker>"
        }
        out += "</defs><g class=\"edges\">"
        for (index, edge) in graph.edges.enumerated() {
            let kind = edge.isIllegal ? "illegal" : edge.count > 0 ? "taken" : "never"
            let route = layout.routes[index]
            let points = route.points
            var path = "M\(number(points[0].x)),\(number(points[0].y)) C"
            path += points.dropFirst().map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")
            let width =
                edge.count > 0 ? min(4.5, 1.6 + Double(Int.bitWidth - edge.count.leadingZeroBitCount - 1) * 0.45) : 1.3
            out += "<g class=\"edge \(kind)\" id=\"\(id)-e\(index)\" data-kind=\"\(kind)\">"
            out += "<title>\(HTMLText.escape(title(of: edge, in: graph)))</title>"
            out += "<path d=\"\(path)\" stroke-width=\"\(number(width))\" marker-end=\"url(#\(id)-\(kind))\"/>"
            if let label = GraphLayout.labelText(of: edge) {
                out +=
                    "<text class=\"count\" x=\"\(number(route.label.x))\" y=\"\(number(route.label.y + 4))\">\(HTMLText.escape(label))</text>"
            }
            out += "</g>"
        }
        out += "</g><g class=\"nodes\">"
        if let start = layout.start {
            out += "<circle class=\"start\" cx=\"\(number(start.dot.x))\" cy=\"\(number(start.dot.y))\" r=\"4.5\"/>"
            out +=
                "<path class=\"start\" d=\"M\(number(start.dot.x)),\(number(start.dot.y)) L\(number(start.arrowEnd.x)),\(number(start.arrowEnd.y))\""
            out += " marker-end=\"url(#\(id)-taken)\"/>"
        }
        for (index, node) in graph.nodes.enumerated() {
            let box = layout.boxes[index]
            var classes = "node"
            if !node.declared { classes += " undeclared" }
            if index == graph.initial { classes += " initial" }
            var note = index == graph.initial ? " (initial case)" : ""
            if !node.declared { note += " (not a case of the machine)" }
            out += "<g class=\"\(classes)\" id=\"\(id)-n\(index)\"><title>\(HTMLText.escape(node.name + note))</title>"
            out +=
                "<rect x=\"\(number(box.left))\" y=\"\(number(box.top))\" width=\"\(number(box.width))\" height=\"\(number(box.height))\" rx=\"10\"/>"
            out +=
                "<text x=\"\(number(box.x))\" y=\"\(number(box.y + 4.5))\">\(HTMLText.escape(shortened(node.name)))</text></g>"
        }
        out += "</g></svg>"
        return out
    }

    /// The tooltip of an edge: `loading → loading: not declared, taken 2 times (toLoading)`.
    static func title(of edge: MachineGraph.Edge, in graph: MachineGraph) -> String {
        var text = "\(graph.nodes[edge.from].name) → \(graph.nodes[edge.to].name): "
        text += edge.declared ? "declared" : "not declared"
        switch edge.count {
        case 0: text += ", never taken"
        case 1: text += ", taken once"
        default: text += ", taken \(edge.count) times"
        }
        if !edge.actions.isEmpty {
            text += " (" + edge.actions.prefix(5).joined(separator: ", ") + (edge.actions.count > 5 ? ", …" : "") + ")"
        }
        return text
    }

    /// A name cut to 40 characters for its box; the tooltip has it whole.
    static func shortened(_ name: String) -> String {
        name.count > 40 ? String(name.prefix(39)) + "…" : name
    }

    /// A coordinate with at most one decimal.
    static func number(_ value: Double) -> String {
        guard value.isFinite, value.magnitude < 1e15 else { return "0" }
        let tenths = (value * 10).rounded()
        if tenths.truncatingRemainder(dividingBy: 10) == 0 { return String(Int(tenths / 10)) }
        return String(tenths / 10)
    }
}
