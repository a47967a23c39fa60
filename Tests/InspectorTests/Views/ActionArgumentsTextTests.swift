import Foundation
import Testing
import TraceJSON
import TraceReader

@testable import Inspector

/// An action's `args`: shortened in the step view's list, whole in its event pane and in `log`,
/// and found by `/` (issue 20, item 2).
@Suite struct ActionArgumentsTextTests {
    static let header =
        #"{"type":"header","format":"rewind-trace","version":1,"app":"Shop","machines":{}}"#

    /// A trace whose `add` events carry `args`, the second with a 90-character note.
    static func trace(in folder: HostileFolder) throws -> String {
        let note = String(repeating: "gift wrap ", count: 9) + "END"
        let lines = [
            header,
            #"{"type":"register","seq":1,"store":"CartStore","state":{"n":0}}"#,
            #"{"type":"transition","seq":2,"store":"CartStore","action":"add","changed":true,"state":{"n":1},"args":{"sku":"CUP","quantity":1}}"#,
            #"{"type":"transition","seq":3,"store":"CartStore","action":"add","changed":true,"state":{"n":2},"args":{"sku":"MUG","note":"\#(note)"}}"#,
            #"{"type":"transition","seq":4,"store":"CartStore","action":"clear","changed":true,"state":{"n":0}}"#,
        ]
        let path = folder.path("args.jsonl")
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func argumentsReadAsACall() {
        let args: JSONObject = ["sku": .string("MUG"), "quantity": .number("2"), "tags": .array([.string("a")])]
        #expect(ActionArgumentsText.text(args) == #"sku: "MUG", quantity: 2, tags: ["a"]"#)
        #expect(ActionArgumentsText.text(nil) == "")
        #expect(ActionArgumentsText.text(JSONObject()) == "")
        // A name or value from the trace never drives the terminal.
        let hostile: JSONObject = ["\u{1B}[2J": .string("\u{1B}]0;x\u{07}")]
        #expect(!ActionArgumentsText.text(hostile).contains("\u{1B}"))
    }

    @Test func shorteningCutsWithAnEllipsisAndWrappingKeepsEverything() {
        #expect(ActionArgumentsText.shortened("abcdef", width: 6) == "abcdef")
        #expect(ActionArgumentsText.shortened("abcdefgh", width: 6) == "abcde…")
        let text = String(repeating: "x", count: 25)
        let lines = ScreenText.wrapped(text, lead: "args: ", width: 16)
        #expect(lines == ["args: xxxxxxxxxx", "      xxxxxxxxxx", "      xxxxx"])
        #expect(
            ScreenText.wrapped(#"a: "b c d e""#, lead: "args: ", width: 16) == [#"args: a: "b c d"#, #"      e""#])
    }

    @Test func theListShowsThemShortenedAndThePaneWhole() throws {
        let folder = try HostileFolder()
        let file = try TraceFile(path: try Self.trace(in: folder))
        var session = StepSession(trace: file, problems: [:])
        _ = session.go(toStep: 3)
        let screen = StepScreen(style: Style(enabled: false))
        let lines = screen.lines(for: session, columns: 80, rows: 24)
        #expect(lines.allSatisfy { ScreenText.width($0) == 80 })
        let listed = try #require(lines.first { $0.hasPrefix("▶") })
        // 20 columns of arguments at 80: a fourth of the width.
        #expect(listed.contains(#"add       sku: "MUG", note: "…"#))
        #expect(lines.contains { $0.contains(#"add       sku: "CUP", quantit…"#) })
        let wide = screen.lines(for: session, columns: 200, rows: 60)
        #expect(wide.contains { $0.contains(#"sku: "CUP", quantity: 1"#) })
        // The event pane has every character of the note, wrapped at the screen's width.
        let pane = lines.drop { !$0.hasPrefix("── what step 3") }.dropFirst()
        let argsLines = pane.prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(argsLines.first?.hasPrefix(#"args: sku: "MUG", note: "gift wrap"#) == true)
        #expect(argsLines.count >= 2)
        let shown = argsLines.map { $0.dropFirst("args: ".count) }.joined().filter { $0 != " " }
        let note = String(repeating: "gift wrap ", count: 9) + "END"
        #expect(shown == #"sku:"MUG",note:"\#(note)""#.filter { $0 != " " })
    }

    @Test func findLooksInTheArguments() throws {
        let folder = try HostileFolder()
        var session = StepSession(trace: try TraceFile(path: try Self.trace(in: folder)), problems: [:])
        let foundMug = session.find("MUG")
        #expect(foundMug && session.step == 3)
        let foundCup = session.find(#"sku: "CUP""#)
        #expect(foundCup && session.step == 2)
        let foundTeapot = session.find("TEAPOT")
        #expect(!foundTeapot)
    }

    @Test func logPrintsThemWhole() throws {
        let folder = try HostileFolder()
        let result = inspector(["log", try Self.trace(in: folder)])
        #expect(result.status == 0)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[1].contains(#"add       sku: "CUP", quantity: 1"#))
        #expect(lines[2].contains(#"note: "\#(String(repeating: "gift wrap ", count: 9))END""#))
        // The column is padded, so what follows the arguments lines up when they are short.
        #expect(lines[3].contains("clear"))
    }
}
