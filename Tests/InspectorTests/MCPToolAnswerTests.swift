import Foundation
import TestSupport
import Testing
import TraceJSON
import TraceReader

@testable import Inspector

/// What `inspector mcp`'s tools answer beyond the first questions: sources found in the
/// repository as `validate --source-root` finds them, a long string read piece by piece, and an
/// action the trace does not have.
@Suite struct MCPToolAnswerTests {
    let trace = JSONPrinter.quoted(MCPDriver.trace)

    @Test func problemsAreExactlyValidateFormatJSONWithTheSourceFileInTheRepository() throws {
        let driver = try MCPDriver()
        let answer = try driver.result("problems", #"{"trace":\#(trace)}"#)
        let sourceRoot = SourceRoot(path: packageRoot.path)
        let report = try TraceFile(path: MCPDriver.trace).validate(
            with: TraceValidator(maximumProblems: MCPSession.listedProblems))
        #expect(answer["problems"] == JSONReporter.json(report, sourceRoot: sourceRoot)["problems"])
        let first = try #require(answer["problems"]?[0])
        #expect(first["sourceFile"] == .string(packageRoot.path + "/Sources/SampleApp/Shop/Shop.swift"))
        #expect(first["sourceLine"] == .number("97"))
    }

    @Test func whyAndEventsGiveTheSourceFileAndLine() throws {
        let driver = try MCPDriver()
        let file = JSONValue.string(packageRoot.path + "/Sources/SampleApp/Shop/Shop.swift")
        let why = try driver.result("why", #"{"trace":\#(trace),"seq":6}"#)
        #expect(why["chain"]?[0]?["source"] == .string("SampleApp/Shop.swift:97"))
        #expect(why["chain"]?[0]?["sourceFile"] == file && why["chain"]?[0]?["sourceLine"] == .number("97"))
        let events = try driver.result("events", #"{"trace":\#(trace),"problemsOnly":true,"limit":1}"#)
        #expect(events["events"]?[0]?["sourceFile"] == file)
        // Relative to the current directory when the source root is it, as validate prints it.
        let here = SourceRoot()
        if here.locate("SampleApp/Shop.swift:97") != nil {
            #expect(here.locate("SampleApp/Shop.swift:97")?.path == "Sources/SampleApp/Shop/Shop.swift")
        }
    }

    @Test func aStringLongerThanTheAnswerIsReadPieceByPiece() throws {
        let folder = try TemporaryFolder()
        // 100,002 bytes: two-byte characters, a control character and ASCII, so that pieces
        // must not cut a character and escapes must fit the budget.
        let long = String(repeating: "é\u{1B}abc", count: 16_667)
        var lines = [#"{"type":"header","format":"rewind-trace","version":1,"app":"Long","machines":{}}"#]
        lines.append(
            #"{"type":"register","seq":1,"store":"Notes","state":{"text":\#(JSONPrinter.quoted(long)),"n":1}}"#)
        let path = folder.path("long.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let driver = try MCPDriver(allowing: [folder.url.path])
        let quoted = JSONPrinter.quoted(path)

        // The store folds; its `next` names the string's path.
        let store = try driver.result("state", #"{"trace":\#(quoted),"step":1,"path":"Notes"}"#)
        #expect(store["folded"] == .bool(true))
        #expect(store["next"]?.arrayValue?.contains { $0["path"] == .string("Notes.text") } == true)

        var offset = 0
        var read = ""
        var pieces = 0
        while true {
            let piece = try driver.result(
                "state", #"{"trace":\#(quoted),"step":1,"path":"Notes.text","offset":\#(offset)}"#)
            #expect(AnswerBounds.size(piece) <= AnswerBounds.answerBytes)
            #expect(piece["string"]?["bytes"] == .number(String(long.utf8.count)))
            #expect(piece["string"]?["offset"] == .number(String(offset)))
            read += try #require(piece["value"]?.stringValue)
            pieces += 1
            guard let next = piece["nextOffset"]?.intValue else { break }
            #expect(piece["next"]?[0]?["offset"] == .number(String(next)))
            #expect(piece["next"]?[0]?["path"] == .string("Notes.text"))
            offset = next
        }
        #expect(read == long)
        #expect(pieces > 6)
        // `length` asks for smaller pieces.
        let small = try driver.result(
            "state", #"{"trace":\#(quoted),"step":1,"path":"Notes.text","offset":1,"length":10}"#)
        // Offset 1 is inside "é": the piece starts at the next character.
        #expect(small["string"]?["offset"] == .number("2"))
        #expect(small["value"] == .string("\u{1B}abcé\u{1B}abc"))
    }

    @Test func anActionTheTraceDoesNotHaveIsAnErrorListingItsActions() throws {
        let driver = try MCPDriver()
        let message = try driver.toolError("events", #"{"trace":\#(trace),"action":"nosuch"}"#)
        #expect(message.contains(#"no action named "nosuch""#), "\(message)")
        #expect(message.contains(#""toLoading""#) && message.contains(#""didLoad""#), "\(message)")
        // An action the trace has, under a filter that matches nothing, is still an empty page.
        let none = try driver.result("events", #"{"trace":\#(trace),"action":"didLoad","store":"CartStore"}"#)
        #expect(none["events"] == .array([]))
        let some = try driver.result("events", #"{"trace":\#(trace),"action":"CatalogStore.didLoad"}"#)
        #expect(some["events"]?.arrayValue?.isEmpty == false)
    }
}
