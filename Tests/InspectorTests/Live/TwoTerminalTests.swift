import Foundation
import TestSupport
import Testing

/// The README's two-terminal session, as a person runs it: the shop in one tmux session, the
/// inspector attached to it in another; stepping back in the inspector puts the past on the
/// shop's screen, `r` brings the present back, and killing the inspector leaves the shop running.
@Suite(.serialized) struct TwoTerminalTests {
    static var sampleAppPath: String {
        URL(fileURLWithPath: FullScreenStepTests.inspectorPath).deletingLastPathComponent()
            .appendingPathComponent("sample-app").path
    }

    @Test func theShopShowsThePastTheInspectorStepsTo() throws {
        try #require(FullScreenStepTests.hasTmux, "tmux is not installed: apt-get install -y tmux (.ci/run does)")
        try #require(FileManager.default.fileExists(atPath: Self.sampleAppPath), "build first: swift build")
        let folder = try TemporaryFolder()
        let (trace, socket) = (folder.path("shop.jsonl"), folder.path("shop.sock"))
        let shop = FullScreenStepTests.Tmux()
        try shop.run([
            "new-session", "-d", "-s", shop.session, "-x", "80", "-y", "30",
            "\(Self.sampleAppPath) --trace \(trace) --control \(socket); echo SHOP-EXITED-$?; sleep 30",
        ])
        defer { _ = try? shop.run(["kill-session", "-t", shop.session]) }
        _ = try shop.waitLong(for: "the shop") { $0.contains("REWIND SHOP") }
        // Steps 5-8: toLoading, didLoad, the cart's catalogDidLoad, add.
        try shop.keys("wait", "Enter")
        _ = try shop.waitLong(for: "the catalog") { $0.contains("SHIRT") }
        try shop.keys("add SHIRT 2", "Enter")
        _ = try shop.waitLong(for: "the cart") { $0.contains("2 x SHIRT") }

        let inspector = FullScreenStepTests.Tmux()
        try inspector.run([
            "new-session", "-d", "-s", inspector.session, "-x", "150", "-y", "30",
            "\(FullScreenStepTests.inspectorPath) step --attach \(socket); echo EXITED-$?; sleep 30",
        ])
        defer { _ = try? inspector.run(["kill-session", "-t", inspector.session]) }
        _ = try inspector.waitLong(for: "the attached view") { $0.contains("step 8 of 8") && $0.contains("app: live") }

        try inspector.keys("Left", "Left")
        _ = try inspector.waitLong(for: "the app at step 6") { $0.contains("app: at step 6") }
        var screen = try shop.waitLong(for: "the past on the shop's screen") {
            $0.contains("set the shop to step 6") && $0.contains("Cart\n  empty")
        }
        #expect(!screen.contains("2 x SHIRT"))

        // More moves, each writing restores into the trace the view reads; then `r`: the view
        // is on the app's present, step 8 (the cart's add), not on the last restore row.
        try inspector.keys("Left", "Right", "Left")
        _ = try inspector.waitLong(for: "the app at step 5") { $0.contains("app: at step 5") }
        try inspector.keys("r")
        let present = try inspector.waitLong(for: "the app back at its present") {
            $0.contains("back at its present, step 8") && $0.contains("step 8 of")
        }
        let row = try #require(present.split(separator: "\n").first { $0.hasPrefix("▶") }, "\(present)")
        #expect(row.contains(" 8 ") && row.contains("add") && !row.contains("restore"), "\(present)")
        screen = try shop.waitLong(for: "the present on the shop's screen") {
            $0.contains("set the shop to step 8") && $0.contains("2 x SHIRT")
        }

        // The inspector killed mid-session: the shop goes on.
        try inspector.keys("Home")
        _ = try shop.waitLong(for: "step 0") { $0.contains("set the shop to step 0") }
        let pid = try inspector.run(["display-message", "-p", "-t", inspector.session, "#{pane_pid}"], output: true)
        _ = try ChildProcess.run("pkill", ["-KILL", "-P", pid.trimmingCharacters(in: .whitespacesAndNewlines)])
        _ = try inspector.waitLong(for: "the inspector killed") { $0.contains("EXITED-137") }
        try shop.keys("add MUG", "Enter")
        screen = try shop.waitLong(for: "the shop going on") { $0.contains("1 x MUG") }
        #expect(!screen.contains("SHOP-EXITED"))
        try shop.keys("quit", "Enter")
        _ = try shop.waitLong(for: "the shop to quit") { $0.contains("SHOP-EXITED-0") }
        #expect(!FileManager.default.fileExists(atPath: socket))  // the channel removed its socket
    }
}

extension FullScreenStepTests.Tmux {
    /// Waits until the screen satisfies `condition`, looking every 50 ms for up to 60 s (two
    /// programs and tmux on a loaded machine can take seconds to draw); returns the last screen.
    func waitLong(for what: String, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(60)
        var last = try screen()
        while !condition(last) {
            guard Date() < deadline else {
                Issue.record("timed out waiting for \(what); screen was:\n\(last)")
                return last
            }
            Thread.sleep(forTimeInterval: 0.05)
            last = try screen()
        }
        return last
    }
}
