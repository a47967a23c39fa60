import Testing

@testable import TraceJSON
@testable import TraceQueries

@Suite struct StatePathPatternTests {
    @Test func aWildcardStandsBetweenPathsOfTheUsualSyntax() throws {
        let pattern = try StatePathPattern(parsing: "CartStore.lines[*].addedAt")
        #expect(pattern.components == [.path(.key("CartStore")), .path(.key("lines")), .any, .path(.key("addedAt"))])
        #expect(try StatePathPattern(parsing: "S[*][0]").components == [.path(.key("S")), .any, .path(.index(0))])
        // `[*]` inside a quoted name is a name.
        #expect(try StatePathPattern(parsing: #"S["[*]"]"#).components == [.path(.key("S")), .path(.key("[*]"))])
        #expect(try StatePathPattern(parsing: "S.lines.2").components.last == .path(.key("2")))
    }

    @Test func aPathThatCannotBeReadSaysWhere() {
        #expect(throws: StatePathError.self) { try StatePathPattern(parsing: "") }
        #expect(throws: StatePathError.self) { try StatePathPattern(parsing: ".") }
        do {
            _ = try StatePathPattern(parsing: "S[*].a[")
            Issue.record("read")
        } catch {
            #expect(error.text == "S[*].a[")
            #expect(error.column >= 7)
        }
    }

    @Test func removingDropsMembersAndBlanksElements() throws {
        let state = try JSONParser.parse(#"{"S":{"a":[{"t":1,"k":2},{"t":3}],"m":{"x":{"t":1},"y":{"t":2}}}}"#)
        func removing(_ text: String) throws -> String {
            JSONPrinter.compact(try StatePathPattern(parsing: text).removing(from: state))
        }
        #expect(try removing("S.a[*].t") == #"{"S":{"a":[{"k":2},{}],"m":{"x":{"t":1},"y":{"t":2}}}}"#)
        #expect(try removing("S.a[0]") == #"{"S":{"a":[null,{"t":3}],"m":{"x":{"t":1},"y":{"t":2}}}}"#)
        #expect(try removing("S.a.1.t") == #"{"S":{"a":[{"t":1,"k":2},{}],"m":{"x":{"t":1},"y":{"t":2}}}}"#)
        #expect(try removing("S.m[*].t") == #"{"S":{"a":[{"t":1,"k":2},{"t":3}],"m":{"x":{},"y":{}}}}"#)
        #expect(try removing("S.nothing[*].t") == JSONPrinter.compact(state))
        #expect(try removing("S.a[9]") == JSONPrinter.compact(state))
    }
}
