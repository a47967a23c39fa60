import Foundation
import TestSupport
import Testing

@testable import Inspector

/// Long and deep values in a real terminal (issue 20, item 3), at 80 × 24 and 200 × 60: the
/// change in the middle of a 340-character string is shown, `e` shows the string whole, `<` `>`
/// reach the end of its line in the state pane, and a 60-deep state is folded to a screen, with
/// its change listed, `+` `-` opening and folding levels.
@Suite(.serialized) struct LongAndDeepScreenTests {
    @Test(arguments: [(80, 24), (200, 60)])
    func aLongStringIsShownWholeAndReachedSideways(columns: Int, rows: Int) throws {
        let trace = try LongAndDeepTrace()
        let tmux = try FullScreenStepTests.start(trace.path, columns: columns, rows: rows, options: "--at 3")
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        var screen = try tmux.wait(for: "step 3's diff") {
            $0.contains("step 3 of 4") && $0.contains("what step 3 changed: NotesStore.edit")
        }
        // The diff shows the middle of the string, where it changed.
        #expect(screen.contains("WORD-TWENTY-FIVE"))

        try tmux.keys("e")
        screen = try tmux.wait(for: "the string whole") {
            $0.contains("NotesStore.text at step 3") && $0.contains("after:")
        }
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let after = try #require(rows.firstIndex { $0.hasPrefix("after:") })
        let value = rows[(after + 1)...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(value.count == (columns == 80 ? 5 : 2), "\(screen)")
        // Every character, spaces aside (tmux drops those at the end of a row).
        #expect(
            value.map { $0.dropFirst(2) }.joined().filter { $0 != " " }
                == ("\"" + LongAndDeepTrace.editedText + "\"").filter { $0 != " " })
        #expect(rows.contains { $0.hasPrefix("before:") })
        #expect(rows.allSatisfy { ScreenText.width($0) <= columns })

        try tmux.keys("Escape")
        screen = try tmux.wait(for: "the step again") { $0.contains("what step 3 changed") }
        try tmux.keys("Tab")
        screen = try tmux.wait(for: "the state pane") { $0.contains("the app state at step 3") }
        #expect(!screen.contains("word50"))
        var presses = 0
        while !screen.contains("word50\"") && presses < 12 {
            let before = screen
            try tmux.keys(">")
            presses += 1
            screen = try tmux.wait(for: "a sideways scroll") { $0 != before && $0.contains("from column") }
        }
        #expect(screen.contains("word50\""), "\(screen)")
        #expect(presses > 1 && presses < (columns == 80 ? 10 : 4))
        #expect(screen.contains("…"))
        try tmux.keys("<", "<", "<", "<", "<", "<", "<", "<", "<", "<", "<", "<")
        screen = try tmux.wait(for: "the start of the line") { $0.contains("\"text\": \"word1 word2") }
        #expect(!screen.contains("from column"))
        try tmux.keys("q")
        _ = try tmux.wait(for: "the program to exit") { $0.contains("EXITED-0") }
    }

    @Test(arguments: [(80, 24), (200, 60)])
    func aSixtyDeepStateIsFoldedAndItsChangeListed(columns: Int, rows: Int) throws {
        let trace = try LongAndDeepTrace()
        let tmux = try FullScreenStepTests.start(trace.path, columns: columns, rows: rows, options: "--at 4")
        defer { _ = try? tmux.run(["kill-session", "-t", tmux.session]) }
        var screen = try tmux.wait(for: "step 4") { $0.contains("step 4 of 4") && $0.contains("DeepStore.touch") }
        // The diff starts near the change, 59 levels down, rather than 59 levels above it.
        screen = try tmux.wait(for: "the deep change") { $0.contains("+   note: \"deep change\"") }
        #expect(screen.contains("in DeepStore.next.…55 levels….next.next (59 levels down"))
        try tmux.keys("Tab")
        screen = try tmux.wait(for: "the folded state") { $0.contains("the app state at step 4, 6 levels open") }
        // Within a screen or two: at 80 × 24 one page down.
        if rows < 40 {
            try tmux.keys("PageDown")
            screen = try tmux.wait(for: "the next page") { $0.contains("↳") }
        }
        #expect(screen.contains("\"next\": {…} 2 members"))
        #expect(screen.contains("↳ next.next.…50 levels….next.note: \"deep change\""))
        try tmux.keys("-", "-", "-", "-", "-")
        screen = try tmux.wait(for: "one level open") { $0.contains("1 levels open") }
        #expect(screen.contains("\"DeepStore\": {"))
        #expect(screen.contains("\"next\": {…} 2 members"))
        #expect(screen.contains("↳ next.next.…55 levels….next.note: \"deep change\""))
        try tmux.keys("-")
        screen = try tmux.wait(for: "the stores folded") { $0.contains("every store folded") }
        #expect(screen.contains("\"DeepStore\": {…} 2 members"))
        try tmux.keys("+", "+")
        screen = try tmux.wait(for: "two levels open") { $0.contains("2 levels open") }
        #expect(screen.contains("\"depth\": 2,") && !screen.contains("\"depth\": 3,"))

        // e shows the changed note with its whole path.
        try tmux.keys("e")
        screen = try tmux.wait(for: "the note whole") { $0.contains("\"deep change\"") && $0.contains("before:") }
        #expect(screen.contains("\"start\""))
        #expect(screen.replacingOccurrences(of: "\n", with: "").contains(".next.note at step 4"))
        try tmux.keys("q")
        _ = try tmux.wait(for: "the state again") { $0.contains("2 levels open") }
        try tmux.keys("q")
        _ = try tmux.wait(for: "the program to exit") { $0.contains("EXITED-0") }
    }
}
