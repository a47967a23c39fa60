import TestSupport
import Testing
import ToolSupport

@testable import TraceJSON
@testable import TraceQueries

/// A changed string longer than its line shows the part that changed (issue 20, item 3).
@Suite struct ChangedStringWindowTests {
    static let a = String(repeating: "a", count: 50)
    static let b = String(repeating: "b", count: 50)

    @Test func leavesStringsThatFitAlone() {
        #expect(ChangedStringWindow.fitted(old: #""abc""#, new: #""abd""#, width: 20) == nil)
    }

    @Test(arguments: [12, 30, 60])
    func showsTheFirstDifferenceOnBothSidesWithinTheWidth(width: Int) throws {
        let window = try #require(
            ChangedStringWindow.fitted(old: "\"\(Self.a)X\(Self.b)\"", new: "\"\(Self.a)Y\(Self.b)\"", width: width))
        #expect(window.old.contains("X") && window.new.contains("Y"), "\(window)")
        #expect(window.old.hasPrefix("\"…") && window.old.hasSuffix("…"), "\(window)")
        #expect(window.new.hasPrefix("\"…") && window.new.hasSuffix("…"), "\(window)")
        #expect(DisplayWidth.of(window.old) <= width && DisplayWidth.of(window.new) <= width)
        // Both sides start at the same character, so the change lines up.
        #expect(window.old.firstIndex(of: "X") == window.new.firstIndex(of: "Y"))
    }

    @Test func aChangeNearTheStartShowsTheStartUncut() throws {
        let window = try #require(
            ChangedStringWindow.fitted(old: "\"X\(Self.a)\"", new: "\"Y\(Self.a)\"", width: 20))
        #expect(window.old.hasPrefix("\"X") && window.new.hasPrefix("\"Y"))
        #expect(window.old.hasSuffix("…"))
    }

    @Test func aChangeAtTheEndShowsTheEnd() throws {
        let sparkles = String(repeating: "✨", count: 40)
        let window = try #require(
            ChangedStringWindow.fitted(old: "\"\(sparkles) one\"", new: "\"\(sparkles) two\"", width: 20))
        #expect(window.old.hasSuffix(" one\"") && window.new.hasSuffix(" two\""), "\(window)")
        #expect(DisplayWidth.of(window.old) <= 20 && DisplayWidth.of(window.new) <= 20)
    }

    @Test func theStepViewPrinterShowsTheChangeAndDiffPrintsWhole() throws {
        let before = try DiffTesting.json(#"{"title": "bottom \#(Self.a) of the text, one"}"#)
        let after = try DiffTesting.json(#"{"title": "bottom \#(Self.a) of the text, two"}"#)
        let diff = StateDiff(from: before, to: after)
        var printer = StateDiffPrinter(width: 40)
        #expect(printer.text(diff).contains(Self.a + " of the text, one"))
        printer.showsChangedPartOfLongStrings = true
        let lines = printer.text(diff).split(separator: "\n")
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasPrefix(#"- title: "…"#) == true && lines.first?.hasSuffix("one\"") == true)
        #expect(lines.last?.hasPrefix(#"+ title: "…"#) == true && lines.last?.hasSuffix("two\"") == true)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 40 })
    }
}
