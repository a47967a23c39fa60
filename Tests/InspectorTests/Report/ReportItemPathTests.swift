import Foundation
import TestSupport
import Testing

@testable import Inspector

/// The report's diff panel names items by id as `inspector diff` does (issue 20, item 7). The
/// page computes its diffs in the browser: the page script's diff functions are run in Node on
/// `MovingItemsTrace`'s states, and must give the paths `diff --format paths` prints.
@Suite struct ReportItemPathTests {
    static let node = ["/usr/bin/node", "/usr/local/bin/node"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The changes the page's `diff` lists from `before` to `after`, under the store
    /// `CartStore`, as lines `op path (tree path)`.
    static func pageChanges(_ before: String, _ after: String) throws -> [String] {
        let node = try #require(Self.node, "Node is not installed: the report's script cannot be run")
        let script = String(decoding: PageAssets.script, as: UTF8.self)
        let start = try #require(script.range(of: "  function kind(value) {"))
        let end = try #require(script.range(of: "  // ---- Header, slider, keys"))
        let program = """
            var hasOwn = function (object, key) { return Object.prototype.hasOwnProperty.call(object, key); };
            function Num(text) { this.text = text; }
            \(script[start.lowerBound..<end.lowerBound])
            var out = [];
            diff(\(before), \(after), 'CartStore', out);
            out.forEach(function (c) { console.log(c.op + ' ' + c.path + ' (' + c.tree + ')'); });
            """
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-page-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("diff.js").path
        try Data(program.utf8).write(to: URL(fileURLWithPath: file))
        let outcome = try ChildProcess(node, [file], output: .pipe, errors: .pipe).communicate(timeout: 60)
        #expect(outcome.termination == .exited(0), "\(outcome.errorText)")
        return outcome.outputText.split(separator: "\n").map(String.init)
    }

    @Test(.enabled(if: node != nil)) func theDiffPanelNamesItemsByIDAndOpensTheTreeByPosition() throws {
        let states = MovingItemsTrace.states
        // The tree path is the position, which the state tree opens down to.
        #expect(
            try Self.pageChanges(states[3], states[4]) == [
                #"changed CartStore.lines[id: "MUG"].quantity (CartStore.lines[1].quantity)"#
            ])
        #expect(
            try Self.pageChanges(states[1], states[2]) == [#"removed CartStore.lines[id: "A"] (CartStore.lines[0])"#])
        // No ids, or a duplicate: positions, as before.
        #expect(
            try Self.pageChanges(#"{"l": [1, 2]}"#, #"{"l": [1, 3]}"#) == ["changed CartStore.l[1] (CartStore.l[1])"])
        #expect(
            try Self.pageChanges(#"{"l": [{"id": 1, "q": 1}, {"id": 1}]}"#, #"{"l": [{"id": 1, "q": 2}, {"id": 1}]}"#)
                == ["changed CartStore.l[0].q (CartStore.l[0].q)"])
    }

    @Test func theReportCarriesTheStatesAndTheScriptThatNamesItemsByID() throws {
        let trace = try ReportTraceFile(MovingItemsTrace.lines)
        #expect(runReportCommand(["report", trace.path]).status == 0)
        let html = try trace.read("shop.html")
        #expect(html.contains("function itemIDs(array)"))
        #expect(html.contains(#""id":"MUG""#))
    }
}
