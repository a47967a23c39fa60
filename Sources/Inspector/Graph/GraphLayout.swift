/// Where the report draws each case of a `MachineGraph` and how each edge runs: a layered
/// layout, as Graphviz's `dot` would do for a small machine, without Graphviz.
///
/// - Layers: breadth-first from the initial case over every edge, so a case sits one layer
///   after the nearest case that leads to it; cases the initial case cannot reach start their
///   own search in layer 0.
/// - Order in a layer: two sweeps of the barycenter heuristic (each case moves toward the mean
///   position of its neighbours in the layer before), which removes most crossings.
/// - Direction: layers go left to right, unless that is much wider than the report's machine
///   panel and top to bottom is narrower (a long chain of cases); then they go top to bottom.
///   Both are computed as left to right, then turned.
/// - Edges: to the next layer, an S-curve from the side of the case to the side of the next;
///   within a layer, a bulge to the side; back edges and edges that skip layers arc over the
///   cases in between, on whichever side is clearer. A case that goes to itself gets a loop.
/// - Labels: each taken edge is labelled with its actions and count (`MachineGraph.Edge.label`,
///   as `graph --format dot` writes). A gap between layers is wide enough for the labels that
///   cross it, and a label that would overlap a case or a label placed before it slides across
///   the layers' direction to the nearest free place.
struct GraphLayout {
    /// Which way the layers go.
    enum Direction: Equatable {
        case leftToRight
        case topToBottom
    }

    /// A case's box; `x` and `y` are its centre.
    struct Box: Equatable {
        var x: Double
        var y: Double
        var width: Double
        var height: Double

        var left: Double { x - width / 2 }
        var right: Double { x + width / 2 }
        var top: Double { y - height / 2 }
        var bottom: Double { y + height / 2 }

        /// The same box with x and y swapped.
        var turned: Box { Box(x: y, y: x, width: height, height: width) }
    }

    /// How an edge is drawn: a cubic Bézier path, and where its label goes.
    struct Route: Equatable {
        /// The start, the two control points and the end.
        var points: [(x: Double, y: Double)]
        /// The centre of the label: the middle of the curve, or the nearest free place to it.
        var label: (x: Double, y: Double)
        /// The label's estimated size on the page; zero for an edge without a label.
        var labelSize: (width: Double, height: Double) = (0, 0)

        /// The box the label takes.
        var labelBox: Box { Box(x: label.x, y: label.y, width: labelSize.width, height: labelSize.height) }

        /// The same route with x and y swapped.
        var turned: Route {
            Route(
                points: points.map { ($0.y, $0.x) }, label: (label.y, label.x),
                labelSize: (labelSize.height, labelSize.width))
        }

        static func == (lhs: Route, rhs: Route) -> Bool {
            lhs.points.elementsEqual(rhs.points) { $0.x == $1.x && $0.y == $1.y }
                && lhs.label.x == rhs.label.x && lhs.label.y == rhs.label.y
                && lhs.labelSize.width == rhs.labelSize.width && lhs.labelSize.height == rhs.labelSize.height
        }
    }

    /// Which way the layers go.
    var direction: Direction
    /// The layer of each node.
    var columns: [Int]
    /// The nodes of each layer, in order across it.
    var order: [[Int]]
    /// Each node's box.
    var boxes: [Box]
    /// Each edge's route, in the graph's edge order.
    var routes: [Route]
    /// The dot and the end of the arrow that marks the initial case.
    var start: (dot: (x: Double, y: Double), arrowEnd: (x: Double, y: Double))?
    /// The drawing's bounds (for the SVG `viewBox`), margins included.
    var bounds: (x: Double, y: Double, width: Double, height: Double)

    static let nodeHeight = 34.0
    static let columnGap = 92.0
    static let rowGap = 30.0
    /// Between layers going down, labels need less room than going across.
    static let layerGapDown = 58.0
    static let caseGapAcross = 26.0
    /// Wider than this, a left-to-right drawing is shrunk too far in the machine panel.
    static let panelWidth = 560.0
    /// A label's height, and the room kept around it.
    static let labelHeight = 15.0
    static let labelMargin = 3.0

    /// The text an edge is labelled with: its actions and count, cut to 40 characters (the
    /// tooltip has them all); nil for an edge never taken, which its dashes say.
    static func labelText(of edge: MachineGraph.Edge) -> String? {
        edge.count > 0 ? MachineSVG.shortened(edge.label) : nil
    }

    /// Lays out `graph`, in the direction that suits it best (or in `direction`).
    init(_ graph: MachineGraph, direction: Direction? = nil) {
        let columns = Self.layers(graph)
        let columnCount = (columns.max() ?? -1) + 1
        let order = Self.reduceCrossings(
            (0..<columnCount).map { column in (0..<graph.nodes.count).filter { columns[$0] == column } }, graph: graph,
            columns: columns)
        let across = Self(graph, columns: columns, order: order, direction: .leftToRight)
        guard direction != .leftToRight else {
            self = across
            return
        }
        let down = Self(graph, columns: columns, order: order, direction: .topToBottom)
        if direction == .topToBottom
            || (across.bounds.width > Self.panelWidth && down.bounds.width < across.bounds.width)
        {
            self = down
        } else {
            self = across
        }
    }

    /// The layout in one direction: computed left to right (for top to bottom, with each box's
    /// width and height swapped), then turned.
    private init(_ graph: MachineGraph, columns: [Int], order: [[Int]], direction: Direction) {
        let count = graph.nodes.count
        let down = direction == .topToBottom
        let textWidths = graph.nodes.map { max(76, Self.textWidth($0.name) + 30) }
        let along = down ? [Double](repeating: Self.nodeHeight, count: count) : textWidths
        let acrossSize = down ? textWidths : [Double](repeating: Self.nodeHeight, count: count)
        // Labels are written across the page: going across, the gap after a layer fits the
        // widest label of the edges from it to the next layer; going down, it fits them stacked.
        let labelSizes = graph.edges.map { edge -> (width: Double, height: Double) in
            guard let text = Self.labelText(of: edge) else { return (0, 0) }
            let width = Self.textWidth(text) * 0.88 + 6
            return down ? (Self.labelHeight, width) : (width, Self.labelHeight)
        }
        var gaps = [Double](repeating: down ? Self.layerGapDown : Self.columnGap, count: order.count)
        var stacked = [Int](repeating: 0, count: order.count)
        for (index, edge) in graph.edges.enumerated()
        where edge.from != edge.to && columns[edge.to] == columns[edge.from] + 1 && labelSizes[index].width > 0 {
            let layer = columns[edge.from]
            stacked[layer] += 1
            gaps[layer] =
                down
                ? max(gaps[layer], Double(stacked[layer]) * (Self.labelHeight + 2 * Self.labelMargin) + 24)
                : max(gaps[layer], labelSizes[index].width + 36)
        }
        let caseGap = down ? Self.caseGapAcross : Self.rowGap
        func extent(_ layer: [Int]) -> Double {
            layer.reduce(0) { $0 + acrossSize[$1] } + Double(max(0, layer.count - 1)) * caseGap
        }

        // Layers one after the other, each as deep as its deepest case; cases centred across.
        var boxes = [Box](repeating: Box(x: 0, y: 0, width: 0, height: 0), count: count)
        let widest = order.map(extent).max() ?? 0
        var position = 0.0
        for (index, layer) in order.enumerated() {
            let depth = layer.map { along[$0] }.max() ?? 0
            var offset = (widest - extent(layer)) / 2
            for node in layer {
                boxes[node] = Box(
                    x: position + depth / 2, y: offset + acrossSize[node] / 2, width: along[node],
                    height: acrossSize[node])
                offset += acrossSize[node] + caseGap
            }
            position += depth + gaps[index]
        }

        var routes: [Route] = []
        var seen = Set<[Int]>()
        for (index, edge) in graph.edges.enumerated() {
            seen.insert([edge.from, edge.to])
            let isSecondOfPair = seen.contains([edge.to, edge.from]) && edge.from != edge.to
            var route = Self.route(edge, boxes: boxes, columns: columns, isSecondOfPair: isSecondOfPair)
            route.labelSize = labelSizes[index]
            routes.append(route)
        }
        Self.separateLabels(&routes, boxes: boxes)
        var start: (dot: (x: Double, y: Double), arrowEnd: (x: Double, y: Double))?
        if graph.initial < count {
            let box = boxes[graph.initial]
            start = ((box.left - 24, box.y), (box.left - 1, box.y))
        }

        // Bounds: the boxes, the curves' apexes and labels, and the initial arrow.
        var minX = 0.0
        var minY = 0.0
        var maxX = 0.0
        var maxY = widest
        for box in boxes {
            minX = min(minX, box.left)
            maxX = max(maxX, box.right)
            minY = min(minY, box.top)
            maxY = max(maxY, box.bottom)
        }
        for route in routes {
            let box = route.labelBox
            minX = min(minX, box.left, route.label.x - 12)
            maxX = max(maxX, box.right, route.label.x + 12)
            minY = min(minY, box.top, route.label.y - 12)
            maxY = max(maxY, box.bottom, route.label.y + 12)
        }
        if let start { minX = min(minX, start.dot.x - 6) }

        self.direction = direction
        self.columns = columns
        self.order = order
        if down {
            self.boxes = boxes.map(\.turned)
            self.routes = routes.map(\.turned)
            self.start = start.map { (($0.dot.y, $0.dot.x), ($0.arrowEnd.y, $0.arrowEnd.x)) }
            bounds = (minY - 10, minX - 10, maxY - minY + 20, maxX - minX + 20)
        } else {
            self.boxes = boxes
            self.routes = routes
            self.start = start
            bounds = (minX - 10, minY - 10, maxX - minX + 20, maxY - minY + 20)
        }
    }

    /// Moves each label that overlaps a case or a label placed before it to the nearest place
    /// where it overlaps nothing: 4 points at a time up to 160, across the layers first (as laid
    /// out left to right: up and down), then along them; a label with no free place stays put.
    static func separateLabels(_ routes: inout [Route], boxes: [Box]) {
        var placed: [Box] = []
        func overlaps(_ box: Box, _ other: Box) -> Bool {
            box.left < other.right + labelMargin && other.left < box.right + labelMargin
                && box.top < other.bottom + labelMargin && other.top < box.bottom + labelMargin
        }
        for index in routes.indices where routes[index].labelSize.width > 0 {
            let original = routes[index].labelBox
            search: for distance in 0...40 {
                for (dx, dy) in [(0.0, 1.0), (0, -1), (1, 0), (-1, 0)] {
                    var box = original
                    box.x += dx * Double(distance) * 4
                    box.y += dy * Double(distance) * 4
                    if !boxes.contains(where: { overlaps(box, $0) }) && !placed.contains(where: { overlaps(box, $0) }) {
                        routes[index].label = (box.x, box.y)
                        break search
                    }
                }
            }
            placed.append(routes[index].labelBox)
        }
    }

    /// Breadth-first columns from the initial case; unreachable cases start over at column 0.
    static func layers(_ graph: MachineGraph) -> [Int] {
        let count = graph.nodes.count
        var next = [[Int]](repeating: [], count: count)
        for edge in graph.edges where edge.from != edge.to {
            next[edge.from].append(edge.to)
        }
        var column = [Int](repeating: -1, count: count)
        let starts = (graph.initial < count ? [graph.initial] : []) + Array(0..<count)
        for start in starts where column[start] < 0 {
            column[start] = 0
            var queue = [start]
            var head = 0
            while head < queue.count {
                let node = queue[head]
                head += 1
                for target in next[node] where column[target] < 0 {
                    column[target] = column[node] + 1
                    queue.append(target)
                }
            }
        }
        return column
    }

    /// Reorders each column by the barycenter of each node's neighbours in the column before
    /// (then, sweeping back, the column after), keeping the order of ties.
    static func reduceCrossings(_ start: [[Int]], graph: MachineGraph, columns: [Int]) -> [[Int]] {
        var order = start
        var neighbours = [[Int]](repeating: [], count: graph.nodes.count)
        for edge in graph.edges where edge.from != edge.to {
            neighbours[edge.from].append(edge.to)
            neighbours[edge.to].append(edge.from)
        }
        func position(in column: [Int]) -> [Int: Double] {
            Dictionary(uniqueKeysWithValues: column.enumerated().map { ($1, Double($0)) })
        }
        func sort(_ column: inout [Int], by reference: [Int]) {
            let positions = position(in: reference)
            let current = position(in: column)
            let keys = column.map { node -> Double in
                let known = neighbours[node].compactMap { positions[$0] }
                return known.isEmpty ? current[node] ?? 0 : known.reduce(0, +) / Double(known.count)
            }
            column = zip(column, keys).enumerated()
                .sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }
                .map(\.element.0)
        }
        guard order.count > 1 else { return order }
        for _ in 0..<2 {
            for index in 1..<order.count { sort(&order[index], by: order[index - 1]) }
            for index in stride(from: order.count - 2, through: 0, by: -1) { sort(&order[index], by: order[index + 1]) }
        }
        return order
    }

    /// The route of one edge.
    static func route(_ edge: MachineGraph.Edge, boxes: [Box], columns: [Int], isSecondOfPair: Bool) -> Route {
        let source = boxes[edge.from]
        let target = boxes[edge.to]
        if edge.from == edge.to {
            let y = source.top
            return Route(
                points: [(source.x - 10, y), (source.x - 34, y - 42), (source.x + 34, y - 42), (source.x + 10, y)],
                label: (source.x, y - 40))
        }
        let span = columns[edge.to] - columns[edge.from]
        if span == 1 {
            // Next column: an S-curve; a pair of opposite edges is drawn as two parallel curves.
            let shift = isSecondOfPair ? 6.0 : 0
            let start = (x: source.right, y: source.y + shift)
            let end = (x: target.left, y: target.y + shift)
            let middle = (start.x + end.x) / 2
            return Route(
                points: [start, (middle, start.y), (middle, end.y), end],
                label: ((start.x + end.x) / 2, (start.y + end.y) / 2))
        }
        if span == 0 {
            // Same column: bulge right, or left for the second of a pair.
            let side = isSecondOfPair ? -1.0 : 1
            let startX = side > 0 ? source.right : source.left
            let endX = side > 0 ? target.right : target.left
            let apex =
                (side > 0 ? max(startX, endX) : min(startX, endX)) + side
                * min(40, 22 + 0.15 * abs(target.y - source.y))
            let control = (8 * apex - startX - endX) / 6
            return Route(
                points: [(startX, source.y), (control, source.y), (control, target.y), (endX, target.y)],
                label: (apex, (source.y + target.y) / 2))
        }
        // Back edges and skips: an arc over the cases in between, above or below, whichever
        // needs the smaller detour (below for back edges when equal).
        let low = min(source.x, target.x)
        let high = max(source.x, target.x)
        let between = boxes.indices.filter {
            $0 != edge.from && $0 != edge.to && boxes[$0].x > low - 1 && boxes[$0].x < high + 1
        }
        let clearance = 20 + min(40, 0.08 * (high - low))
        let topLine = min(between.map { boxes[$0].top }.min() ?? .infinity, min(source.top, target.top)) - clearance
        let bottomLine =
            max(between.map { boxes[$0].bottom }.max() ?? -.infinity, max(source.bottom, target.bottom)) + clearance
        let upDetour = min(source.top, target.top) - topLine
        let downDetour = bottomLine - max(source.bottom, target.bottom)
        let above = span > 0 ? upDetour <= downDetour : upDetour < downDetour
        let direction = target.x > source.x ? 1.0 : -1
        let startX = source.x + direction * min(12, source.width / 4)
        let endX = target.x - direction * min(12, target.width / 4)
        let startY = above ? source.top : source.bottom
        let endY = above ? target.top : target.bottom
        let apex = above ? topLine : bottomLine
        let control = (8 * apex - startY - endY) / 6
        return Route(
            points: [(startX, startY), (startX, control), (endX, control), (endX, endY)],
            label: ((startX + endX) / 2, apex))
    }

    /// An estimate of the width of `text` in the page's 13px system font: enough to size a box.
    static func textWidth(_ text: String) -> Double {
        var width = 0.0
        for character in text.prefix(60) {
            switch character {
            case "i", "j", "l", "t", "f", "r", ".", ",", ":", ";", "'", "|", "!", "I", " ": width += 4.2
            case "m", "w", "M", "W", "@": width += 11
            case "A"..."Z": width += 8.6
            default: width += character.isASCII ? 7.2 : 13
            }
        }
        return width
    }
}
