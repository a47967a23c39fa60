import Foundation
import TestSupport
import Testing

/// `w` in the full-screen `inspector step`, in tmux at 80 × 24 and 200 × 60, on `MovingItemsTrace`: MUG's
/// quantity changed at step 5, after A and B were removed; `w` goes to step 2, where the
/// quantity was set, not to step 4, the removal of B (issue 20, item 7).
@Suite(.serialized) struct ItemPathScreenTests {
    @Test(arguments: [(80, 24), (200, 60)]) func wFollowsTheItemUnderTheCursor(columns: Int, rows: Int) throws {
        let file = try QueryTraceFile(MovingItemsTrace.lines)
        let tmux = try FullScreenStepTests.start(file.path, columns: columns, rows: rows)
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        _ = try tmux.wait(for: "the first screen") { $0.contains("step 0 of 5") }
        try tmux.keys("5", "Enter")
        var screen = try tmux.wait(for: "the quantity change") {
            $0.contains("step 5 of 5") && $0.contains(#"[id: "MUG"]: {"#) && $0.contains("+       quantity: 3")
        }
        try tmux.keys("w")
        screen = try tmux.wait(for: "the step that set the quantity") {
            $0.contains("step 2 of 5") && $0.contains("+       quantity: 2")
        }
        #expect(screen.contains(#"CartStore.lines[id: "MUG"].quantity was la"#))  // cut at 80 columns
        #expect(screen.split(separator: "\n").allSatisfy { $0.count <= columns })
        try tmux.keys("q")
        _ = try tmux.wait(for: "the program to exit") { $0.contains("EXITED-0") }
    }
}
