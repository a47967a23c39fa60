import Testing
import TraceJSON

@testable import Inspector

/// The state pane's folding (issue 20, item 3): parts deeper than the open levels take one line,
/// a changed value under a fold is still listed, and with every level open it is the pretty JSON.
@Suite struct StateOutlineTests {
    static func parse(_ text: String) throws -> JSONObject {
        guard case .object(let object) = try JSONParser.parse(text) else { throw CancellationError() }
        return object
    }

    static let cart = #"{"CartStore":{"lines":[{"title":"Dune","tags":["a","b"]},{"title":"Emma","tags":[]}],"n":1}}"#

    @Test func withEveryLevelOpenItIsThePrettyJSON() throws {
        let state = try Self.parse(Self.cart)
        let lines = StateOutline(levels: 10, changed: []).lines(state)
        #expect(lines.joined(separator: "\n") == JSONPrinter.pretty(.object(state), terminalSafe: true))
    }

    @Test func deeperPartsFoldIntoOneLineWithTheirCount() throws {
        let state = try Self.parse(Self.cart)
        #expect(
            StateOutline(levels: 1, changed: []).lines(state) == [
                "{", "  \"CartStore\": {", "    \"lines\": […] 2 items,", "    \"n\": 1", "  }", "}",
            ])
        #expect(StateOutline(levels: 0, changed: []).lines(state) == ["{", "  \"CartStore\": {…} 2 members", "}"])
        let two = StateOutline(levels: 2, changed: []).lines(state)
        #expect(two.contains("      {…} 2 members,") && two.contains("      {…} 2 members"))
        let three = StateOutline(levels: 3, changed: []).lines(state)
        #expect(three.contains("        \"tags\": […] 2 items") && three.contains("        \"tags\": []"))
    }

    @Test func aChangedValueUnderAFoldIsListedBeneathIt() throws {
        let state = try Self.parse(Self.cart)
        let changed = [
            try StatePath(parsing: "CartStore.lines[0].tags[1]"), try StatePath(parsing: "CartStore.lines[1].gone"),
        ]
        let lines = StateOutline(levels: 1, changed: changed).lines(state)
        #expect(
            lines == [
                "{", "  \"CartStore\": {", "    \"lines\": […] 2 items,", "      ↳ [0].tags[1]: \"b\"",
                "      ↳ [1].gone: (removed)", "    \"n\": 1", "  }", "}",
            ])
        // A changed part is itself never folded.
        let whole = StateOutline(levels: 1, changed: [try StatePath(parsing: "CartStore.lines")]).lines(state)
        #expect(whole.contains("    \"lines\": [") && whole.contains("      {…} 2 members,"))
    }

    @Test func aSixtyDeepStateTakesAScreenAndKeepsItsChange() throws {
        var text = #"{"depth":60,"note":"deep change"}"#
        for depth in (1..<60).reversed() { text = #"{"depth":\#(depth),"next":\#(text)}"# }
        let state = try Self.parse(#"{"DeepStore":\#(text)}"#)
        let path = StatePath([.key("DeepStore")] + Array(repeating: .key("next"), count: 59) + [.key("note")])
        let pretty = JSONPrinter.pretty(.object(state)).split(separator: "\n")
        #expect(pretty.count > 170)
        let lines = StateOutline(levels: StepScreen.defaultLevels, changed: [path]).lines(state)
        #expect(lines.count < 30)
        #expect(lines.contains { $0.hasSuffix("↳ next.next.…50 levels….next.note: \"deep change\"") })
        #expect(lines.allSatisfy { $0.count < 80 })
    }

    @Test func aRepeatedNamePrintsItsLastMemberAsShowDoes() throws {
        let state = try Self.parse(#"{"S":{"a":1,"b":{"x":1},"a":2}}"#)
        #expect(
            StateOutline(levels: 9, changed: []).lines(state).joined(separator: "\n")
                == JSONPrinter.pretty(.object(state), terminalSafe: true))
        #expect(StateOutline(levels: 0, changed: []).lines(state)[1] == "  \"S\": {…} 2 members")
    }

    @Test func aLongPathIsShortenedInTheMiddle() {
        let keys: [StatePath.Component] = [.key("a"), .index(3), .key("b"), .key("c"), .index(7), .key("d")]
        #expect(StateOutline.shortened(keys) == "a[3].…2 levels…[7].d")
        #expect(StateOutline.shortened(Array(keys.prefix(5))) == "a[3].b.c[7]")
    }
}
