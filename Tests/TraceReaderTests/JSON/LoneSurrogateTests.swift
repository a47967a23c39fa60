import Testing

@testable import TraceJSON
@testable import TraceQueries
@testable import TraceReader

/// Strings with lone surrogate escapes (`"\ud800"`): valid JSON, no Unicode text. Each stays
/// itself on every route (issue 17): parsed, printed, diffed, patched, and as a store name.
@Suite struct LoneSurrogateTests {
    private static let header = #"{"type":"header","format":"rewind-trace","version":1,"machines":{}}"#

    @Test func twoDifferentSurrogatesAreADiff() throws {
        let before = try JSONParser.parse(#"{"name":"\ud800"}"#)
        let after = try JSONParser.parse(#"{"name":"\udbff"}"#)
        let diff = StateDiff(from: before, to: after)
        #expect(!diff.isEmpty)
        #expect(diff.changes.count == 1)
        let line = StateDiffPrinter(width: 80).line(diff.changes[0])
        #expect(line.contains(#""\ud800""#) && line.contains(#""\udbff""#))
        #expect(line.hasSuffix(ValueText.notUnicodeNote))
        #expect(StateDiffPrinter(width: 80).text(diff).contains(ValueText.notUnicodeNote))
    }

    @Test func thePatchWritesTheSurrogateAndApplies() throws {
        let before = try JSONParser.parse(#"{"a":"x\ud800","\udc00":1}"#)
        let after = try JSONParser.parse(#"{"a":"x\udbff","\udc01":1}"#)
        let patch = JSONPatch.make(from: before, to: after)
        let text = JSONPrinter.compact(patch)
        #expect(text.contains(#""value":"x\udbff""#))
        #expect(text.contains(#""path":"/\udc00""#) && text.contains(#""path":"/\udc01""#))
        #expect(try JSONPatch.apply(JSONParser.parse(text), to: before) == after)
    }

    @Test func aSurrogateIsNotItsReplacementCharacter() throws {
        let lone = try JSONParser.parse(#"["\ud800"]"#)
        let replaced = try JSONParser.parse(#"["\ufffd"]"#)
        #expect(!StateDiff(from: lone, to: replaced).isEmpty)
        #expect(!lone.isEquivalent(to: replaced))
    }

    @Test func storesNamedWithDifferentSurrogatesStayTwoStores() throws {
        let lines = [
            Self.header,
            #"{"type":"register","seq":1,"store":"T\ud800","state":1}"#,
            #"{"type":"register","seq":2,"store":"T\udc00","state":2}"#,
        ]
        let trace = try TraceFile(bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
        #expect(trace.storeNames.count == 2)
        #expect(Set(trace.storeNames).count == 2)
        let state = trace.appState(atStep: 2)
        #expect(JSONPrinter.compact(.object(state)) == #"{"T\ud800":1,"T\udc00":2}"#)
        for name in trace.storeNames {
            #expect(LoneSurrogates.isNotUnicode(name))
            #expect(trace.state(of: name, atStep: 2) != nil)
        }
        // The diff of the step names the store as it was written.
        let diff = StateDiff(from: trace.appState(atStep: 1), to: trace.appState(atStep: 2))
        #expect(diff.changes.map(\.path.description) == [#"["T\udc00"]"#])
    }

    @Test func aDecodedStringHoldsTheReplacementCharacter() throws {
        let decoded = try JSONValueDecoder().decode([String].self, from: Array(#"["a\ud800b"]"#.utf8))
        #expect(decoded == ["a\u{FFFD}b"])
        #expect(try JSONValueDecoder().decode([String].self, from: JSONParser.parse(#"["a\ud800b"]"#)) == decoded)
    }

    @Test func aValueHistorySeesOneSurrogateBecomeAnother() throws {
        let trace = try QueryFixtures.open([
            QueryFixtures.header,
            QueryFixtures.register(1, "S", state: #"{"name":"\ud800"}"#),
            QueryFixtures.transition(2, "S", "rename", state: #"{"name":"\udbff"}"#),
            QueryFixtures.transition(3, "S", "same", state: #"{"name":"\uDBFF"}"#),
            QueryFixtures.transition(4, "S", "compose", state: #"{"name":"e\u0301"}"#),
            QueryFixtures.transition(5, "S", "decompose", state: #"{"name":"\u00e9"}"#),
        ])
        let history = try ValueHistory(trace: trace, path: StatePath(parsing: "S.name"))
        // Steps 2, 4 and 5 change the text; step 3 writes the same surrogate another way.
        #expect(history.changes().map(\.step) == [1, 2, 4, 5])
        let rename = try #require(history.changes().first { $0.step == 2 })
        #expect(
            rename.changes.map { StateDiffPrinter(width: 80).line($0) } == [
                #"S.name: "\ud800" → "\udbff"\#(ValueText.notUnicodeNote)"#
            ])
    }
}
