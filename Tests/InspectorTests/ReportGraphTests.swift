import Recorder
import Testing
import TraceReader

@testable import Inspector

@Suite struct ReportGraphTests {
    static let catalog = MachineSpec(
        initial: "idle", cases: ["idle", "loading", "loaded", "failed"],
        transitions: [
            "idle": ["loading"], "loading": ["loaded", "failed"], "loaded": ["loading"], "failed": ["loading"],
        ])

    static let taken = [
        TransitionTally.Taken(from: "idle", to: "loading", count: 3, actions: ["toLoading"]),
        TransitionTally.Taken(from: "loading", to: "loading", count: 1, actions: ["toLoading"]),
        TransitionTally.Taken(from: "loading", to: "bogus", count: 2, actions: ["explode"]),
    ]

    @Test func countsTransitionsPerStoreInTheOrderFirstTaken() {
        var counts = TransitionCounts()
        counts.record(store: "A", from: "idle", to: "loading", action: "go")
        counts.record(store: "B", from: "x", to: "y", action: nil)
        counts.record(store: "A", from: "loading", to: "idle", action: "back")
        counts.record(store: "A", from: "idle", to: "loading", action: "retry")
        counts.record(store: "A", from: "idle", to: "loading", action: "go")
        #expect(
            counts.taken(by: "A") == [
                .init(from: "idle", to: "loading", count: 3, actions: ["go", "retry"]),
                .init(from: "loading", to: "idle", count: 1, actions: ["back"]),
            ])
        #expect(counts.taken(by: "B") == [.init(from: "x", to: "y", count: 1, actions: [])])
        #expect(counts.taken(by: "C").isEmpty)
    }

    @Test func declaredEdgesComeFirstAndUndeclaredOnesAreIllegal() {
        let graph = MachineGraph(store: "CatalogStore", machine: Self.catalog, taken: Self.taken)
        #expect(graph.nodes.map(\.name) == ["idle", "loading", "loaded", "failed", "bogus"])
        #expect(graph.nodes.map(\.declared) == [true, true, true, true, false])
        #expect(graph.nodes[graph.initial].name == "idle")
        let described = graph.edges.map {
            "\(graph.nodes[$0.from].name)>\(graph.nodes[$0.to].name):\($0.count):\($0.isIllegal)"
        }
        #expect(
            described == [
                "idle>loading:3:false", "loading>loaded:0:false", "loading>failed:0:false", "loaded>loading:0:false",
                "failed>loading:0:false", "loading>loading:1:true", "loading>bogus:2:true",
            ])
    }

    @Test func casesSitOneColumnRightOfTheNearestCaseLeadingToThem() {
        let graph = MachineGraph(store: "CatalogStore", machine: Self.catalog, taken: Self.taken)
        let layout = GraphLayout(graph, direction: .leftToRight)
        let column = Dictionary(uniqueKeysWithValues: graph.nodes.enumerated().map { ($1.name, layout.columns[$0]) })
        #expect(column == ["idle": 0, "loading": 1, "loaded": 2, "failed": 2, "bogus": 2])
        // Boxes of one column share a centre x and do not overlap; columns go left to right.
        for cases in layout.order {
            let boxes = cases.map { layout.boxes[$0] }
            #expect(Set(boxes.map(\.x)).count == 1)
            for (upper, lower) in zip(boxes, boxes.dropFirst()) { #expect(upper.bottom < lower.top) }
        }
        #expect(layout.boxes[0].right < layout.boxes[1].left)
        #expect(layout.boxes[1].right < layout.boxes[2].left)
    }

    @Test func everyEdgeRunsFromItsSourceToItsTargetInsideTheBounds() throws {
        let graph = MachineGraph(store: "CatalogStore", machine: Self.catalog, taken: Self.taken)
        let layout = GraphLayout(graph)
        let bounds = layout.bounds
        for (edge, route) in zip(graph.edges, layout.routes) {
            let source = layout.boxes[edge.from]
            let target = layout.boxes[edge.to]
            let start = route.points[0]
            let end = route.points[3]
            #expect(
                start.x >= source.left - 0.01 && start.x <= source.right + 0.01 && start.y >= source.top - 0.01
                    && start.y <= source.bottom + 0.01)
            #expect(
                end.x >= target.left - 0.01 && end.x <= target.right + 0.01 && end.y >= target.top - 0.01
                    && end.y <= target.bottom + 0.01)
            #expect(route.label.x > bounds.x && route.label.x < bounds.x + bounds.width)
            #expect(route.label.y > bounds.y && route.label.y < bounds.y + bounds.height)
        }
        // The back edge loaded → loading arcs clear of the boxes between and around it.
        let backEdge = graph.edges.firstIndex {
            graph.nodes[$0.from].name == "loaded" && graph.nodes[$0.to].name == "loading"
        }
        let back = try #require(backEdge)
        let apex = layout.routes[back].label.y
        let loaded = layout.boxes[2]
        let loading = layout.boxes[1]
        #expect(apex < min(loaded.top, loading.top) || apex > max(loaded.bottom, loading.bottom))
    }

    @Test func aLongChainIsDrawnTopToBottomWhereItIsNarrower() throws {
        let names = ["editing", "calculating", "ready", "paying", "paid", "failed"]
        var table: [String: [String]] = [:]
        for (name, next) in zip(names, names.dropFirst()) { table[name] = [next] }
        table["failed"] = ["editing"]
        let graph = MachineGraph(
            store: "Checkout", machine: MachineSpec(initial: "editing", cases: names, transitions: table), taken: [])
        let across = GraphLayout(graph, direction: .leftToRight)
        let chosen = GraphLayout(graph)
        #expect(across.bounds.width > GraphLayout.panelWidth)
        #expect(chosen.direction == .topToBottom)
        #expect(chosen.bounds.width < across.bounds.width)
        // Layers go down: each case of the chain is below the one before it, at the same x.
        for (upper, lower) in zip(chosen.boxes, chosen.boxes.dropFirst()) {
            #expect(upper.bottom < lower.top)
            #expect(upper.x == lower.x)
        }
        // Edges to the next layer leave the bottom of a case and enter the top of the next.
        let first = chosen.routes[0]
        #expect(first.points[0].y == chosen.boxes[0].bottom && first.points[3].y == chosen.boxes[1].top)
        let start = try #require(chosen.start)
        #expect(start.dot.y < chosen.boxes[0].top && start.dot.x == chosen.boxes[0].x)
    }

    @Test func aSmallMachineStaysLeftToRight() {
        let graph = MachineGraph(store: "CatalogStore", machine: Self.catalog, taken: Self.taken)
        #expect(GraphLayout(graph).direction == .leftToRight)
    }

    @Test func casesTheInitialCaseCannotReachStartTheirOwnColumns() {
        let machine = MachineSpec(
            initial: "a", cases: ["a", "b", "island", "shore"],
            transitions: ["a": ["b"], "b": [], "island": ["shore"], "shore": []])
        let graph = MachineGraph(store: "S", machine: machine, taken: [])
        #expect(GraphLayout.layers(graph) == [0, 1, 0, 1])
    }

    @Test func theSVGMarksEdgesByKindAndEscapesNames() {
        let machine = MachineSpec(initial: "<a>", cases: ["<a>", "b&c"], transitions: ["<a>": ["b&c"], "b&c": []])
        let taken = [TransitionTally.Taken(from: "b&c", to: "<a>", count: 2, actions: ["<go>"])]
        let graph = MachineGraph(store: "S\"<x>", machine: machine, taken: taken)
        let svg = MachineSVG.svg(graph, layout: GraphLayout(graph), id: "g0")
        #expect(!svg.contains("<a>") && !svg.contains("<go>") && !svg.contains("S\"<x>"))
        #expect(svg.contains(">&lt;a&gt;</text>"))
        #expect(svg.contains("b&amp;c → &lt;a&gt;: not declared, taken 2 times (&lt;go&gt;)"))
        #expect(svg.contains("id=\"g0-e0\" data-kind=\"never\""))
        #expect(svg.contains("id=\"g0-e1\" data-kind=\"illegal\""))
        #expect(svg.contains("<text class=\"count\""))
        #expect(svg.contains("id=\"g0-n0\"") && svg.contains("id=\"g0-n1\""))
        #expect(svg.contains("class=\"node initial\""))
    }

    @Test func coordinatesHaveAtMostOneDecimal() {
        #expect(MachineSVG.number(12) == "12")
        #expect(MachineSVG.number(12.34) == "12.3")
        #expect(MachineSVG.number(-0.06) == "-0.1")
        #expect(MachineSVG.number(.infinity) == "0")
    }
}

@Suite struct ReportGraphLabelTests {
    /// A machine whose edges fan out from one case and back, taken by actions with long names.
    static var fan: MachineGraph {
        let targets = ["alpha", "beta", "gamma", "delta", "epsilon"]
        var table: [String: [String]] = ["hub": targets + ["hub"]]
        for target in targets { table[target] = ["hub", targets[(targets.firstIndex(of: target)! + 1) % 5]] }
        let machine = MachineSpec(initial: "hub", cases: ["hub"] + targets, transitions: table)
        var taken: [TransitionTally.Taken] = []
        for (from, list) in table {
            for to in list {
                taken.append(
                    .init(from: from, to: to, count: 12, actions: ["didReceiveResponse\(from)\(to)", "retry"]))
            }
        }
        return MachineGraph(store: "Fan", machine: machine, taken: taken)
    }

    @Test(arguments: [GraphLayout.Direction.leftToRight, .topToBottom])
    func labelsOverlapNeitherEachOtherNorCases(direction: GraphLayout.Direction) {
        let graph = Self.fan
        let layout = GraphLayout(graph, direction: direction)
        let labels = layout.routes.map(\.labelBox).filter { $0.width > 0 }
        #expect(labels.count == graph.edges.count)
        func overlap(_ one: GraphLayout.Box, _ other: GraphLayout.Box) -> Bool {
            one.left < other.right && other.left < one.right && one.top < other.bottom && other.top < one.bottom
        }
        for (index, label) in labels.enumerated() {
            for other in labels[(index + 1)...] { #expect(!overlap(label, other), "\(label) overlaps \(other)") }
            for box in layout.boxes { #expect(!overlap(label, box), "\(label) overlaps case \(box)") }
            // Inside the drawing.
            #expect(label.left >= layout.bounds.x && label.right <= layout.bounds.x + layout.bounds.width)
            #expect(label.top >= layout.bounds.y && label.bottom <= layout.bounds.y + layout.bounds.height)
        }
    }

    @Test func theGapBetweenLayersFitsTheLabelsCrossingIt() {
        let graph = Self.fan
        let layout = GraphLayout(graph, direction: .leftToRight)
        let hub = layout.boxes[0]
        for (edge, route) in zip(graph.edges, layout.routes) where edge.from == 0 && edge.to != 0 {
            #expect(route.labelBox.left > hub.right && route.labelBox.right < layout.boxes[edge.to].left)
        }
    }

    @Test func theSVGWritesEachLabelEscapedAndCut() {
        let machine = MachineSpec(initial: "a", cases: ["a", "b"], transitions: ["a": ["b"], "b": []])
        let long = String(repeating: "x", count: 60)
        let taken = [TransitionTally.Taken(from: "a", to: "b", count: 3, actions: ["<go>", long])]
        let graph = MachineGraph(store: "S", machine: machine, taken: taken)
        let svg = MachineSVG.svg(graph, layout: GraphLayout(graph), id: "g0")
        #expect(svg.contains(">&lt;go&gt;, \(String(repeating: "x", count: 33))…</text>"))
    }
}
