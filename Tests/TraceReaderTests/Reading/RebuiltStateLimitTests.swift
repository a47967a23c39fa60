import Testing

@testable import TraceJSON
@testable import TraceReader

/// A state rebuilt from version 2 patches obeys the limits of a parsed one (issue 34, items 2
/// and 4): nested at most 1,023 levels, at most 16,777,216 values. Breaking one is `bad-patch`
/// on the patch's line, the same for `validate` and for every read, never a wrong state, a
/// crash or a bomb that grows until memory runs out.
@Suite struct RebuiltStateLimitTests {
    static let header = #"{"type":"header","format":"rewind-trace","version":2,"app":"Limits","machines":{}}"#

    /// A trace of store S: registered with `state`, then one transition per patch (seq 2, 3, …).
    static func trace(state: String = "{}", _ patches: [String]) -> [UInt8] {
        var lines = [header, #"{"type":"register","seq":1,"store":"S","state":\#(state)}"#]
        for (offset, patch) in patches.enumerated() {
            lines.append(
                #"{"type":"transition","seq":\#(offset + 2),"store":"S","action":"go","changed":true,"patch":\#(patch)}"#
            )
        }
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    static func repeated(_ operation: String, _ count: Int) -> String {
        "[" + Array(repeating: operation, count: count).joined(separator: ",") + "]"
    }

    /// Checks that validate reports one bad-patch on `line`, and that reading the state at the
    /// step of that line (and after it) is the same error, naming the line. `valueLimit`: the
    /// most values copies may add, for validate and the reader alike.
    static func expectBadPatch(
        _ bytes: [UInt8], line: Int, saying words: String, valueLimit: Int = RebuiltStateSize.maximumValues,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var validator = TraceValidator()
        validator.rebuiltValueLimit = valueLimit
        let problems = validator.validate(bytes: bytes).problems
        #expect(problems.map(\.kind) == [.badPatch], "\(problems)", sourceLocation: sourceLocation)
        #expect(problems.first?.line == line, sourceLocation: sourceLocation)
        #expect(problems.first?.message.contains(words) == true, "\(problems)", sourceLocation: sourceLocation)
        let trace = try TraceFile(bytes: bytes, rebuiltValueLimit: valueLimit)
        for step in (line - 1)...trace.lastStep {
            #expect(trace.state(of: "S", atStep: step) == nil, "step \(step)", sourceLocation: sourceLocation)
            do {
                _ = try trace.readState(of: "S", atStep: step)
                Issue.record("step \(step): a state, not an error", sourceLocation: sourceLocation)
            } catch {
                #expect(error.kind == .badPatch, "\(error)", sourceLocation: sourceLocation)
                #expect(error.line == line, "\(error)", sourceLocation: sourceLocation)
                #expect(error.message.contains(words), "\(error)", sourceLocation: sourceLocation)
            }
        }
    }

    /// `copy "" → /x` nests the state one level deeper each time: 1,022 copies make a state of
    /// 1,023 levels, as deep as a parsed one can be, which reads back and converts; one more
    /// is bad-patch, and so are 100,000 (which overflowed the stack of every command).
    @Test func aStateNestedDeeperThanAParsedOneIsABadPatch() throws {
        let copy = #"{"op":"copy","from":"","path":"/x"}"#
        let deepest = Self.trace([Self.repeated(copy, 1_022)])
        #expect(TraceValidator().validate(bytes: deepest).problems == [])
        let trace = try TraceFile(bytes: deepest)
        var state = try #require(try trace.readState(of: "S", atStep: 2))
        var depth = 1
        while case .object(let object) = state, let inner = object["x"] {
            state = inner
            depth += 1
        }
        #expect(depth == 1_023)
        for count in [1_023, 5_000, 100_000] {
            try Self.expectBadPatch(
                Self.trace([Self.repeated(copy, count), #"[{"op":"add","path":"/y","value":1}]"#]), line: 3,
                saying: "nested 1024 levels deep")
        }
        // A value added at a deep path counts its own levels too.
        let path = String(repeating: "/x", count: 1_000)
        let deepValue = String(repeating: "[", count: 30) + String(repeating: "]", count: 30)
        try Self.expectBadPatch(
            Self.trace([Self.repeated(copy, 1_000), #"[{"op":"add","path":"\#(path)/y","value":\#(deepValue)}]"#]),
            line: 4, saying: "nested 1031 levels deep")
    }

    /// 64 copies of the state into itself would make 2^64 values: refused at the copy that
    /// passes the bound, without building anything (the test would not end otherwise).
    @Test func aCopyBombIsABadPatch() throws {
        let members = (0..<64).map { #"{"op":"copy","from":"","path":"/k\#($0)"}"# }
        try Self.expectBadPatch(
            Self.trace(["[" + members.joined(separator: ",") + "]"]), line: 3, saying: "more than 16,777,216 values")
        let elements = Self.repeated(#"{"op":"copy","from":"/arr","path":"/arr/-"}"#, 64)
        try Self.expectBadPatch(
            Self.trace(state: #"{"arr":[0]}"#, [elements]), line: 3, saying: "more than 16,777,216 values")
        // Spread over many lines, the bomb is refused as well.
        let lines = (0..<64).map { #"[{"op":"copy","from":"","path":"/k\#($0)"}]"# }
        try Self.expectBadPatch(Self.trace(lines), line: 27, saying: "more than 16,777,216 values")
    }

    /// What a patch removes or replaces no longer counts: replacing a large value again and
    /// again (more values in all than the bound) is fine, and so is removing it and adding it.
    @Test func removedAndReplacedValuesNoLongerCount() throws {
        let large = JSONValue.array(Array(repeating: .number("1"), count: 1_000_000))
        var operations: [JSONValue] = []
        for _ in 0..<20 {
            operations.append(Self.operation("replace", "/big", value: large))
            operations.append(Self.operation("remove", "/big"))
            operations.append(Self.operation("add", "/big", value: large))
        }
        let result = try JSONPatch.apply(.array(operations), to: .object(JSONObject([("big", .array([]))])))
        #expect(result["big"]?.arrayValue?.count == 1_000_000)
        // The same values copied in one patch pass the bound: refused.
        var copies: [JSONValue] = []
        for index in 0..<17 { copies.append(Self.operation("copy", "/c\(index)", from: "/big")) }
        #expect(throws: JSONPatchError.self) { try JSONPatch.apply(.array(copies), to: result) }
    }

    /// A state as large as a parsed one is rebuilt as it was written: the bound is on the values
    /// copies add beyond those the lines spell out, not on the state (a whole state of 17,000,000
    /// values, then a patch that replaced one number, was `bad-patch`). Here with a bound of
    /// 1,000, so that the state stays small: a whole state of 2,003 values, patched by `replace`,
    /// and grown by an `add` that writes 3,000 values, reads back and validates; copies may add
    /// 1,000 values more, not 2,000.
    @Test func aPatchedStateAsLargeAsAParsedOneIsRebuilt() throws {
        let limit = 1_000
        let elements = Array(repeating: "0", count: 2_000).joined(separator: ",")
        let added = Array(repeating: "1", count: 3_000).joined(separator: ",")
        let bytes = Self.trace(
            state: #"{"n":0,"a":[\#(elements)]}"#,
            [
                #"[{"op":"replace","path":"/n","value":1}]"#, #"[{"op":"replace","path":"/n","value":2}]"#,
                #"[{"op":"add","path":"/b","value":[\#(added)]}]"#,
                #"[{"op":"copy","from":"/a/0","path":"/c"},{"op":"replace","path":"/n","value":3}]"#,
            ])
        var validator = TraceValidator()
        validator.rebuiltValueLimit = limit
        #expect(validator.validate(bytes: bytes).problems == [])
        let trace = try TraceFile(bytes: bytes, rebuiltValueLimit: limit)
        for (step, n) in [(2, 1), (3, 2), (4, 2), (5, 3)] {
            let state = try #require(try trace.readState(of: "S", atStep: step))
            #expect(state["n"] == .number("\(n)"), "step \(step)")
            #expect(state["a"]?.arrayValue?.count == 2_000, "step \(step)")
        }
        let last = try #require(try trace.readState(of: "S", atStep: 5))
        #expect(last["b"]?.arrayValue?.count == 3_000)
        #expect(last["c"] == .number("0"))
        // Copying the 2,000 elements adds more than the 1,000 values copies may add.
        try Self.expectBadPatch(
            Self.trace(
                state: #"{"n":0,"a":[\#(elements)]}"#,
                [#"[{"op":"replace","path":"/n","value":1}]"#, #"[{"op":"copy","from":"/a","path":"/d"}]"#]),
            line: 4, saying: "more than 1,000 values", valueLimit: limit)
    }

    /// With a small bound, the copy bombs (64 × `copy "" → /kN`, and `copy /arr → /arr/-`) stop
    /// at it, on a large state as on a small one.
    @Test func aCopyBombStopsAtAnInjectedBound() throws {
        let limit = 1_000
        let members = (0..<64).map { #"{"op":"copy","from":"","path":"/k\#($0)"}"# }
        let elements = Array(repeating: "0", count: 5_000).joined(separator: ",")
        for state in ["{}", #"{"big":[\#(elements)]}"#] {
            try Self.expectBadPatch(
                Self.trace(state: state, ["[" + members.joined(separator: ",") + "]"]), line: 3,
                saying: "more than 1,000 values", valueLimit: limit)
        }
        try Self.expectBadPatch(
            Self.trace(state: #"{"arr":[0]}"#, [Self.repeated(#"{"op":"copy","from":"/arr","path":"/arr/-"}"#, 64)]),
            line: 3, saying: "more than 1,000 values", valueLimit: limit)
    }

    static func operation(_ name: String, _ path: String, value: JSONValue? = nil, from: String? = nil) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("op", .string(name)), ("path", .string(path))]
        if let value { members.append(("value", value)) }
        if let from { members.append(("from", .string(from))) }
        return .object(JSONObject(members))
    }

    /// A move deeper than the limit allows is refused; a move that stays within it applies.
    @Test func aMoveDeeperThanTheLimitIsABadPatch() throws {
        let chain = String(repeating: #"{"x":"#, count: 1_000) + "{}" + String(repeating: "}", count: 1_000)
        let path = String(repeating: "/x", count: 30)
        try Self.expectBadPatch(
            Self.trace(
                state: #"{"a":\#(chain),"b":\#(chain)}"#,
                [#"[{"op":"move","from":"/a","path":"/b\#(path)/a"}]"#]),
            line: 3, saying: "levels deep")
        let shallow = Self.trace(
            state: #"{"a":\#(chain),"b":{"c":{}}}"#, [#"[{"op":"move","from":"/a","path":"/b/c/a"}]"#])
        #expect(TraceValidator().validate(bytes: shallow).problems == [])
    }
}
