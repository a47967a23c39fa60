import Foundation
import TestSupport
import Testing

/// Issue 36's columns in a real terminal (tmux), as a person reads them: stepping over rows
/// whose actions and arguments have many lengths moves no column, and a problem's tag is whole
/// at 80 and at 120 columns, a kind longer than `illegal` (`discontinuity`) included.
@Suite(.serialized) struct ListColumnsScreenTests {
    static func lines(_ screen: String) -> [String] {
        screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func steppingMovesNoColumn(columns: Int, rows: Int) throws {
        let trace = try MixedWidthTrace(cycles: 6)
        let tmux = try FullScreenStepTests.start(trace.path, columns: columns, rows: rows)
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        var screen = try tmux.wait(for: "the first screen, validated") {
            $0.contains("step 0 of 44") && $0.contains("6 problems")
        }
        var seen = Set<ListColumnsTests.Starts>()
        var tags = 0
        for step in 1...30 {
            try tmux.keys("Right")
            screen = try tmux.wait(for: "step \(step)") { $0.contains("step \(step) of 44") }
            for row in ListColumnsTests.listRows(Self.lines(screen)) {
                seen.insert(ListColumnsTests.starts(row))
                if Array(row)[1] == "✖" {
                    #expect(row.contains("loading → loading") && row.contains("  ✖ illegal"), "\(row)")
                    tags += 1
                }
            }
        }
        #expect(tags > 0)
        #expect(Set(seen.map(\.action)).count == 1, "\(seen)\n\(screen)")
        #expect(Set(seen.map(\.detail)).count == 1, "\(seen)\n\(screen)")
        #expect(Set(seen.compactMap(\.args)).count == (columns >= 120 ? 1 : 0), "\(seen)\n\(screen)")
        try tmux.keys("q")
        _ = try tmux.wait(for: "the program to exit") { $0.contains("EXITED-0") }
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func theKnownBadTracesTagIsWhole(columns: Int, rows: Int) throws {
        let path = SourceRootTests.packageRoot + "/traces/invalid/double-refresh.jsonl"
        let tmux = try FullScreenStepTests.start(path, columns: columns, rows: rows)
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        _ = try tmux.wait(for: "the problem counted") { $0.contains("1 problem (1 error)") }
        try tmux.keys("]")
        let screen = try tmux.wait(for: "the illegal step") { $0.contains("step 6 of 9") }
        let row = try #require(Self.lines(screen).first { $0.hasPrefix("▶✖ ") }, "\(screen)")
        #expect(
            row.range(
                of: #"6  CatalogStore +toLoading +loading → loading  \(no change\)  ✖ illegal"#,
                options: .regularExpression)
                != nil, "\(row)")
        try tmux.keys("q")
        _ = try tmux.wait(for: "the program to exit") { $0.contains("EXITED-0") }
    }

    /// A checkout whose `calculating → ready` comes again from `ready`: a discontinuity, whose
    /// kind is longer than `illegal`.
    static func writeDiscontinuity(to path: String) throws {
        let machine =
            #"{"initial":"editing","transitions":{"editing":["calculating"],"calculating":["ready"],"ready":["paying","editing"],"paying":[]}}"#
        var lines = [
            #"{"type":"header","format":"rewind-trace","version":1,"app":"Checkout","machines":{"CheckoutStore":\#(machine)}}"#,
            #"{"type":"register","seq":1,"elapsed":0.001,"store":"CheckoutStore","case":"editing","state":{"editing":{}}}"#,
        ]
        let steps = [
            ("calculate", "editing", "calculating"), ("priced", "calculating", "ready"),
            ("priced", "calculating", "ready"), ("pay", "ready", "paying"),
        ]
        for (offset, (action, from, to)) in steps.enumerated() {
            let seq = offset + 2
            lines.append(
                #"{"type":"transition","seq":\#(seq),"elapsed":\#(Double(seq) / 100),"store":"CheckoutStore","action":"\#(action)","from":"\#(from)","to":"\#(to)","changed":true,"state":{"\#(to)":{}},"args":{"count":\#(seq * 100)}}"#
            )
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test(arguments: [(80, 24), (120, 40), (150, 40)])
    func aDiscontinuitysTagIsWholeBesideItsFromAndTo(columns: Int, rows: Int) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("checkout.jsonl")
        try Self.writeDiscontinuity(to: path)
        let tmux = try FullScreenStepTests.start(path, columns: columns, rows: rows)
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        _ = try tmux.wait(for: "the problem counted") { $0.contains("1 problem (1 error)") }
        try tmux.keys("]")
        let screen = try tmux.wait(for: "the discontinuity") { $0.contains("step 4 of 5") }
        let rows = ListColumnsTests.listRows(Self.lines(screen))
        let row = try #require(rows.first { $0.hasPrefix("▶✖ ") }, "\(screen)")
        #expect(row.contains("calculating → ready  ✖ discontinuity"), "\(row)")
        // Its columns are those of the rows without a problem.
        let other = try #require(rows.first { $0.contains("editing → calculating") }, "\(screen)")
        #expect(ListColumnsTests.starts(row) == ListColumnsTests.starts(other), "\(screen)")
        try tmux.keys("q")
        _ = try tmux.wait(for: "the program to exit") { $0.contains("EXITED-0") }
    }
}
