import Foundation
import Recorder
import TestSupport
import Testing
import TraceReader

@testable import Inspector

@Suite struct GraphCommandTests {
    typealias V = ValidateTesting

    private func trace(in folder: V.Folder) throws -> String {
        try folder.write(
            "t.jsonl",
            [
                V.header, V.register(1), V.transition(2, "idle", "loading"), V.transition(3, "loading", "loading"),
                V.transition(4, "loading", "loaded", action: "finish"), V.transition(5, "loaded", "loading"),
                V.transition(6, "loading", "ghost", action: "haunt"),
                #"{"type":"transition","seq":7,"store":"Cart","action":"add","from":"empty","to":"full","changed":true,"state":{}}"#,
            ])
    }

    @Test func dotDrawsDeclaredTakenAndUndeclaredTransitions() throws {
        let folder = try V.Folder()
        let path = try trace(in: folder)
        let (status, out, err) = V.run(["graph", path])
        #expect(status == 0)
        #expect(err.isEmpty)
        let lines = out.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("\"s0_c0\" [label=\"idle\"];"))
        #expect(lines.contains("\"s0_c4\" [label=\"ghost\", color=red, fontcolor=red];"))
        #expect(lines.contains("\"s0_start\" -> \"s0_c0\";"))
        #expect(lines.contains("\"s0_c0\" -> \"s0_c1\" [label=\"toLoading (1)\"];"))
        #expect(lines.contains("\"s0_c2\" -> \"s0_c1\" [label=\"toLoading (1)\"];"))
        #expect(lines.contains("\"s0_c1\" -> \"s0_c2\" [label=\"finish (1)\"];"))
        #expect(lines.contains("\"s0_c1\" -> \"s0_c3\" [label=\"0\", style=dashed, color=gray50, fontcolor=gray50];"))
        #expect(
            lines.contains(
                "\"s0_c1\" -> \"s0_c1\" [label=\"toLoading (1) undeclared\", color=red, fontcolor=red, penwidth=2];"))
        #expect(
            lines.contains(
                "\"s0_c1\" -> \"s0_c4\" [label=\"haunt (1) undeclared\", color=red, fontcolor=red, penwidth=2];"))
        #expect(lines.contains("// Cart has no state machine; not drawn"))
        #expect(lines.filter { $0.contains("->") }.count == 8)
    }

    @Test func mermaidDrawsAStateDiagram() throws {
        let folder = try V.Folder()
        let path = try trace(in: folder)
        let (status, out, _) = V.run(["graph", "--format", "mermaid", path])
        #expect(status == 0)
        let lines = out.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.first == "stateDiagram-v2")
        #expect(lines.contains("state \"CatalogStore\" as s0 {"))
        #expect(lines.contains("[*] --> s0_c0"))
        #expect(lines.contains("s0_c0 --> s0_c1 : toLoading (1)"))
        #expect(lines.contains("s0_c1 --> s0_c1 : undeclared toLoading (1)"))
        #expect(lines.contains("class s0_c4 undeclared"))
    }

    @Test func namesCannotBreakOutOfTheirQuotes() throws {
        let folder = try V.Folder()
        let store = #"A \"q\" \\l {x}; #1: \u001b"#
        let header =
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{"\#(store)":{"initial":"a\\\"","transitions":{"a\\\"":["b\nc"],"b\nc":[]}}}}"#
        let path = try folder.write("t.jsonl", [header])
        let dot = V.run(["graph", path]).out
        #expect(dot.contains(#"label="A \"q\" \\l {x}; #1: \\u{1b}";"#), "\(dot)")
        #expect(dot.contains(#"[label="a\\\""]"#), "\(dot)")
        #expect(dot.contains(#"[label="b\\nc"]"#), "\(dot)")
        let mermaid = V.run(["graph", "--format", "mermaid", path]).out
        #expect(
            mermaid.contains(#"state "A #quot;q#quot; \l #123;x#125;#59; #35;1#58; \u#123;1b#125;" as s0 {"#),
            "\(mermaid)")
        #expect(!mermaid.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test func graphvizRendersTheOutputUnchanged() throws {
        guard
            let dot = ["/usr/bin/dot", "/usr/local/bin/dot", "/opt/homebrew/bin/dot"].first(
                where: FileManager.default.isExecutableFile(atPath:))
        else {
            return  // Graphviz is not installed here; CI installs it.
        }
        let folder = try V.Folder()
        let store = #"A \"q\" \\l {x}; #1: \u001b"#
        let header =
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{"\#(store)":{"initial":"a","transitions":{"a":["b"],"b":[]}},"CatalogStore":{"initial":"idle","transitions":{"idle":["loading"],"loading":[]}}}}"#
        let path = try folder.write(
            "t.jsonl",
            [header, V.register(1), V.transition(2, "idle", "loading"), V.transition(3, "loading", #"x\"y"#)])
        let graph = V.run(["graph", path]).out
        let run = try ChildProcess.run(dot, ["-Tsvg"], input: Data(graph.utf8))
        let svg = run.outputText
        let complaints = run.errorText
        #expect(run.termination == .exited(0), "\(complaints)\n\(graph)")
        #expect(complaints.isEmpty, "\(complaints)")
        #expect(svg.contains("<svg"))
        #expect(svg.contains("x&quot;y") || svg.contains("x\"y"))
    }

    @Test func notATraceOrAMissingFileGivesTwo() throws {
        let folder = try V.Folder()
        let path = try folder.write("t.jsonl", ["nope"])
        let (status, out, err) = V.run(["graph", path])
        #expect(status == 2)
        #expect(out.isEmpty)
        #expect(err.hasPrefix("inspector: \(path):1: not a trace: line 1 is not JSON"))
        let missing = V.run(["graph", folder.path + "/missing.jsonl"])
        #expect(missing.status == 2 && missing.err.contains("missing.jsonl: cannot open"), "\(missing.err)")
        #expect(V.run(["graph"]).err.contains("missing TRACE"))
        // On a good trace, so that only the format can be what is refused.
        let good = try folder.write("good.jsonl", [V.header, V.register(1)])
        #expect(V.run(["graph", good]).status == 0)
        let png = V.run(["graph", good, "--format", "png"])
        #expect(png.status == 2 && png.err.contains("--format must be one of dot, mermaid"), "\(png.err)")
    }

    @Test func unreadableLinesAreLeftOutWithAWarning() throws {
        let folder = try V.Folder()
        let path = try folder.write("t.jsonl", [V.header, V.register(1), "{", V.transition(3, "idle", "loading")])
        let (status, out, err) = V.run(["graph", path])
        #expect(status == 0)
        #expect(out.contains("[label=\"toLoading (1)\"]"))
        #expect(
            err == "inspector: \(path): 1 line could not be read and was left out; run 'inspector validate \(path)'\n")
    }

    /// A machine too large to draw (a fully connected one) is drawn with the transitions taken
    /// only, and the graph says what it left out.
    @Test func aMachineTooLargeToDrawShowsWhatWasTaken() throws {
        let cases = (0..<200).map { "c\($0)" }
        let machine = MachineSpec(
            initial: "c0", cases: cases, transitions: Dictionary(uniqueKeysWithValues: cases.map { ($0, cases) }))
        let taken = [
            TransitionTally.Taken(from: "c0", to: "c5", count: 2, actions: ["go"]),
            TransitionTally.Taken(from: "c5", to: "zz", count: 1, actions: ["jump"]),
        ]
        let graph = MachineGraph(store: "S", machine: machine, taken: taken, largestDrawn: 1000)
        #expect(graph.nodes.map(\.name) == ["c0", "c5", "zz"])
        #expect(graph.nodes.map(\.declared) == [true, true, false])
        #expect(graph.edges.map { "\($0.from)→\($0.to) \($0.declared) \($0.count)" } == ["0→1 true 2", "1→2 false 1"])
        #expect(graph.omitted.cases == 198 && graph.omitted.edges == 40_000 - 1)
        let whole = MachineGraph(store: "S", machine: machine, taken: taken, largestDrawn: 40_000)
        #expect(whole.edges.count == 40_001 && whole.omitted == (0, 0))
    }
}
