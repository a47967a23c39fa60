import Foundation
import Recorder
import TestSupport
import Testing

@testable import Inspector

/// Wide characters in a trace keep the full-screen view whole (issue 20, item 4): an app name
/// with 🛒 used to push the title bar off the screen and draw an event twice, ✨ in a diff left a
/// stale row and 🚀 shifted columns, because each counted one column where the terminal drew two.
@Suite(.serialized) struct WideCharacterScreenTests {
    static let sparkles = "✨ shiny ✨ new ✨ title ✨ " + String(repeating: "✨", count: 40)
    static let rockets = String(repeating: "🚀 to the moon ", count: 8)

    /// A trace of `🛒 Shop` whose states, keys and action names hold emoji and CJK text.
    static func record(to path: String) throws {
        let recorder = try TraceRecorder(path: path, app: "🛒 Shop 🛒 商店", machines: [:])
        let store = Store(initialState: ["title": "plain"], name: "Cart🛒", recorder: recorder)
        store.send("sparkle✨") { $0["title"] = sparkles }
        store.send("launch🚀") { $0["🚀"] = rockets }
        store.send("rename") { $0["title"] = "漢字のタイトル" + rockets }
        store.send("plain") { $0["title"] = "plain" }
        store.send("longer") { $0["title"] = sparkles + "!" }
        store.send("ended") { $0["title"] = sparkles + "! the end" }
    }

    @Test func everyRowFitsAndTheTitleBarStays() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("wide.jsonl")
        try Self.record(to: path)
        let tmux = try FullScreenStepTests.start(path, columns: 80, rows: 24)
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        _ = try tmux.wait(for: "the first screen, validated") {
            $0.contains("step 0 of 7") && !$0.contains("validating")
        }
        for step in 1...7 {
            try tmux.keys("Right")
            let screen = try tmux.wait(for: "step \(step)") {
                $0.contains("step \(step) of 7") && $0.contains("─ what step")
            }
            Self.expectWhole(screen, step: step)
        }
        // A changed string longer than the screen shows where it changed (issue 20, item 3).
        let ended = try tmux.screen()
        #expect(ended.contains(#"title: "…✨✨"#) && ended.contains(#"✨! the end""#), "\(ended)")
        try tmux.keys("Tab")
        Self.expectWhole(try tmux.wait(for: "the app state") { $0.contains("the app state at step 7") }, step: 7)
        try tmux.keys("q")
    }

    /// Scrolled sideways, a state of emoji and CJK text keeps every row within the screen, and
    /// the end of the longest line is reached (issue 20, item 3).
    /// (At 200 columns every line of this state fits.)
    @Test func scrollingSidewaysKeepsWideCharactersWhole() throws {
        let (columns, rows) = (80, 24)
        let folder = try TemporaryFolder()
        let path = folder.path("wide.jsonl")
        try Self.record(to: path)
        let tmux = try FullScreenStepTests.start(path, columns: columns, rows: rows, options: "--at 3")
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        _ = try tmux.wait(for: "step 3") { $0.contains("step 3 of 7") && !$0.contains("validating") }
        try tmux.keys("Tab")
        var screen = try tmux.wait(for: "the app state") { $0.contains("the app state at step 3") }
        var presses = 0
        while !screen.contains("the moon \"") && presses < 12 {
            let before = screen
            try tmux.keys(">")
            presses += 1
            screen = try tmux.wait(for: "a sideways scroll") { $0 != before && $0.contains("from column") }
            for row in screen.split(separator: "\n") {
                #expect(ScreenText.width(String(row)) <= columns, "a row wider than the screen: \(row)")
            }
        }
        #expect(screen.contains("the moon \""), "\(screen)")
        #expect(presses > 0 && screen.contains("…"))
        try tmux.keys("q")
    }

    /// The screen has its 24 rows, none wider than 80 columns, the title bar on top, the key
    /// hints at the bottom, and each event listed once.
    static func expectWhole(_ screen: String, step: Int) {
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let drawn = rows.count == 25 && rows.last == "" ? Array(rows.dropLast()) : rows
        #expect(drawn.count == 24, "step \(step): \(drawn.count) rows:\n\(screen)")
        #expect(drawn.first?.hasPrefix(" Rewind · 🛒 Shop 🛒 商店") == true, "step \(step): no title bar:\n\(screen)")
        for row in drawn {
            #expect(ScreenText.width(row) <= 80, "step \(step): a row wider than the screen: \(row)")
        }
        for action in ["sparkle✨", "launch🚀", "rename", "plain", "longer", "ended"] {
            let list = drawn.dropFirst().prefix { !$0.hasPrefix("──") }
            let listed = list.filter { $0.contains(" \(action) ") }
            #expect(listed.count <= 1, "step \(step): \(action) listed \(listed.count) times:\n\(screen)")
        }
    }
}
