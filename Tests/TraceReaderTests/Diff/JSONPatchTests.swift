import TestSupport
import Testing

@testable import TraceJSON

@Suite struct JSONPatchTests {
    let json = DiffTesting.json

    func patchText(_ before: String, _ after: String) throws -> String {
        JSONPrinter.compact(JSONPatch.make(from: try json(before), to: try json(after)))
    }

    @Test func oneInsertionIsOneAdd() throws {
        let before = JSONValue.array((0..<100).map { .number(String($0)) })
        var elements = (0..<100).map { JSONValue.number(String($0)) }
        elements.insert(.string("new"), at: 37)
        let patch = JSONPatch.make(from: .object(["lines": before]), to: .object(["lines": .array(elements)]))
        #expect(JSONPrinter.compact(patch) == #"[{"op":"add","path":"/lines/37","value":"new"}]"#)
    }

    @Test func removalsCountIndicesAsTheArrayStandsWhenTheyApply() throws {
        // Removing b and d: after b goes, d is at index 2.
        #expect(
            try patchText(#"["a","b","c","d","e"]"#, #"["a","c","e"]"#)
                == #"[{"op":"remove","path":"/1"},{"op":"remove","path":"/2"}]"#)
        #expect(
            try patchText(#"["a","b","c"]"#, #"["x","a","c","y"]"#)
                == #"[{"op":"add","path":"/0","value":"x"},{"op":"remove","path":"/2"},{"op":"add","path":"/3","value":"y"}]"#
        )
    }

    @Test func escapesTildeAndSlashInPointers() throws {
        #expect(
            try patchText(#"{"a/b": 1, "m~n": 2}"#, #"{"a/b": 3, "m~n": 2, "~1": 4}"#)
                == #"[{"op":"replace","path":"/a~1b","value":3},{"op":"add","path":"/~01","value":4}]"#)
    }

    @Test func replacesTheWholeDocumentAtTheEmptyPointer() throws {
        #expect(try patchText("1", #"{"a": 1}"#) == #"[{"op":"replace","path":"","value":{"a":1}}]"#)
        #expect(try patchText(#"{"a": 1}"#, #"{"a": 1.0}"#) == "[]")
    }

    @Test func anEnumCaseSwitchRemovesOneCaseAndAddsTheOther() throws {
        #expect(
            try patchText(#"{"CatalogStore": {"loading": {}}}"#, #"{"CatalogStore": {"loaded": {"_0": [1e400]}}}"#)
                == #"[{"op":"remove","path":"/CatalogStore/loading"},{"op":"add","path":"/CatalogStore/loaded","value":{"_0":[1e400]}}]"#
        )
    }

    // MARK: apply, after the examples of RFC 6902 Appendix A

    @Test(arguments: [
        (#"{"foo": "bar"}"#, #"[{"op": "add", "path": "/baz", "value": "qux"}]"#, #"{"foo": "bar", "baz": "qux"}"#),
        (
            #"{"foo": ["bar", "baz"]}"#, #"[{"op": "add", "path": "/foo/1", "value": "qux"}]"#,
            #"{"foo": ["bar", "qux", "baz"]}"#
        ),
        (#"{"baz": "qux", "foo": "bar"}"#, #"[{"op": "remove", "path": "/baz"}]"#, #"{"foo": "bar"}"#),
        (#"{"foo": ["bar", "qux", "baz"]}"#, #"[{"op": "remove", "path": "/foo/1"}]"#, #"{"foo": ["bar", "baz"]}"#),
        (
            #"{"baz": "qux", "foo": "bar"}"#, #"[{"op": "replace", "path": "/baz", "value": "boo"}]"#,
            #"{"baz": "boo", "foo": "bar"}"#
        ),
        (
            #"{"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}}"#,
            #"[{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}]"#,
            #"{"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}}"#
        ),
        (
            #"{"foo": ["all", "grass", "cows", "eat"]}"#, #"[{"op": "move", "from": "/foo/1", "path": "/foo/3"}]"#,
            #"{"foo": ["all", "cows", "eat", "grass"]}"#
        ),
        (
            #"{"baz": "qux", "foo": ["a", 2, "c"]}"#,
            #"[{"op": "test", "path": "/baz", "value": "qux"}, {"op": "test", "path": "/foo/1", "value": 2.0}]"#,
            #"{"baz": "qux", "foo": ["a", 2, "c"]}"#
        ),
        (
            #"{"foo": "bar"}"#, #"[{"op": "add", "path": "/child", "value": {"grandchild": {}}}]"#,
            #"{"foo": "bar", "child": {"grandchild": {}}}"#
        ),
        (
            #"{"foo": "bar"}"#, #"[{"op": "add", "path": "/baz", "value": "qux", "xyz": 123}]"#,
            #"{"foo": "bar", "baz": "qux"}"#
        ),
        (#"{"/": 9, "~1": 10}"#, #"[{"op": "test", "path": "/~01", "value": 10}]"#, #"{"/": 9, "~1": 10}"#),
        (
            #"{"foo": ["bar"]}"#, #"[{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}]"#,
            #"{"foo": ["bar", ["abc", "def"]]}"#
        ),
        (#"{"foo": 1}"#, #"[{"op": "copy", "from": "/foo", "path": "/bar"}]"#, #"{"foo": 1, "bar": 1}"#),
        (#"{"foo": 1}"#, #"[{"op": "replace", "path": "", "value": [1]}]"#, #"[1]"#),
        (#"{"foo": 1}"#, #"[{"op": "move", "from": "/foo", "path": "/foo"}]"#, #"{"foo": 1}"#),
        (
            #"{"caf\u00e9": 1}"#, #"[{"op": "move", "from": "/caf\u00e9", "path": "/cafe\u0301"}]"#,
            #"{"cafe\u0301": 1}"#
        ),
        (#"{"": {"": 1}}"#, #"[{"op": "replace", "path": "//", "value": 2}]"#, #"{"": {"": 2}}"#),
    ])
    func appliesTheRFCExamples(document: String, patch: String, expected: String) throws {
        let result = try JSONPatch.apply(try json(patch), to: try json(document))
        #expect(Equivalence.equal(result, try json(expected)), "\(JSONPrinter.compact(result))")
    }

    @Test(arguments: [
        (
            #"{"foo": "bar"}"#, #"[{"op": "add", "path": "/baz/bat", "value": "qux"}]"#,
            #"patch[0]: add "/baz/bat": the object at "" has no member "baz""#
        ),
        (
            #"{"baz": "qux"}"#, #"[{"op": "test", "path": "/baz", "value": "bar"}]"#,
            #"patch[0]: test "/baz": test failed: the value is "qux", not "bar""#
        ),
        (
            #"{"foo": [1, 2]}"#, #"[{"op": "add", "path": "/foo/3", "value": 0}]"#,
            #"patch[0]: add "/foo/3": the array at "/foo" has 2 elements, so add takes an index from 0 to 2 or "-", not "3""#
        ),
        (
            #"{"foo": [1, 2]}"#, #"[{"op": "remove", "path": "/foo/01"}]"#,
            #"patch[0]: remove "/foo/01": the array at "/foo" is indexed by a number such as 0 or 12 (no sign, no leading zero), not "01""#
        ),
        (
            #"{"foo": [1, 2]}"#, #"[{"op": "replace", "path": "/foo/2", "value": 0}]"#,
            #"patch[0]: replace "/foo/2": the array at "/foo" has 2 elements, so it has no index 2"#
        ),
        (
            #"{"foo": {"a": 1}}"#, #"[{"op": "move", "from": "/foo", "path": "/foo/a/b"}]"#,
            #"patch[0]: move "/foo/a/b": cannot move a value into itself"#
        ),
        (
            #"{"foo": 1}"#, #"[{"op": "remove", "path": "foo"}]"#,
            #"patch[0]: remove "foo": the JSON Pointer "foo" must be empty or start with "/""#
        ),
        (
            #"{"foo": 1}"#, #"[{"op": "remove", "path": "/f~2o"}]"#,
            #"patch[0]: remove "/f~2o": in the JSON Pointer token "f~2o", '~' must be followed by 0 (for '~') or 1 (for '/')"#
        ),
        (
            #"{"foo": 1}"#, #"[{"op": "remove", "path": "/foo/x"}]"#,
            #"patch[0]: remove "/foo/x": the value at "/foo" is a number, which has no member "x""#
        ),
        (
            #"{"foo": 1}"#, #"[{"op": "remove", "path": ""}]"#,
            #"patch[0]: remove "": cannot remove the whole document; use replace with the path "" to replace it"#
        ),
        (#"{"foo": 1}"#, #"[{"op": "add", "path": "/a"}]"#, #"patch[0]: add "/a": the operation has no "value""#),
        (
            #"{"foo": 1}"#, #"[{"op": "copy", "path": "/a"}]"#,
            #"patch[0]: copy "/a": the operation has no "from" string (a JSON Pointer such as "/a/0")"#
        ),
        (
            #"{"foo": 1}"#, #"[{"op": "frobnicate", "path": "/a"}]"#,
            #"patch[0]: unknown operation "frobnicate"; use add, remove, replace, move, copy or test"#
        ),
        (
            #"{"foo": 1}"#, #"[{"path": "/a"}]"#,
            #"patch[0]: the operation has no "op" string; use add, remove, replace, move, copy or test"#
        ),
        (
            #"{"foo": 1}"#, #"[{"op": "remove", "path": "/foo"}, 7]"#,
            #"patch[1]: an operation is an object such as {"op":"add","path":"/a","value":1}, found number"#
        ),
        (
            #"{"foo": 1}"#, #"{"op": "remove", "path": "/foo"}"#,
            #"a JSON Patch is an array of operations, found object"#
        ),
        (
            #"{"foo": 1}"#, #"[{"op": "remove", "path": "/\u001b[2J"}]"#,
            #"patch[0]: remove "/\u001b[2J": the object at "" has no member "\u001b[2J""#
        ),
    ])
    func refusesWhatCannotBeAppliedAndSaysWhy(document: String, patch: String, message: String) throws {
        let document = try json(document)
        let patch = try json(patch)
        #expect {
            _ = try JSONPatch.apply(patch, to: document)
        } throws: { error in
            (error as? JSONPatchError)?.description == message
        }
    }

    @Test func aTestOperationComparesNumbersByValueAndStringsByBytes() throws {
        let document = try json(#"{"n": 1e400, "s": "caf\u00e9"}"#)
        #expect(throws: Never.self) {
            try JSONPatch.apply(try json(#"[{"op": "test", "path": "/n", "value": 10e399}]"#), to: document)
        }
        #expect(throws: JSONPatchError.self) {
            try JSONPatch.apply(try json(#"[{"op": "test", "path": "/s", "value": "cafe\u0301"}]"#), to: document)
        }
    }

    @Test func makeThenApplyGivesTheSecondStateOnGeneratedPairs() throws {
        for seed in 1_000..<1_600 as Range<UInt64> {
            var generator = DiffStateGenerator(seed: seed)
            let (before, after) = generator.pair()
            let patch = JSONPatch.make(from: before, to: after)
            let result = try JSONPatch.apply(patch, to: before)
            #expect(Equivalence.equal(result, after), "seed \(seed): \(JSONPrinter.compact(patch))")
            // Re-reading the printed patch gives the same patch: numbers and strings survive.
            #expect(try JSONParser.parse(JSONPrinter.compact(patch)) == patch)
        }
    }

    @Test func aStateAgainstItselfReorderedNeedsNoPatch() throws {
        for seed in 2_000..<2_200 as Range<UInt64> {
            var generator = DiffStateGenerator(seed: seed)
            let state = generator.value(depth: 4)
            let reordered = Self.reordered(state, using: &generator.random)
            #expect(JSONPatch.make(from: state, to: reordered) == .array([]), "seed \(seed)")
        }
    }

    static func reordered(_ value: JSONValue, using random: inout SeededGenerator) -> JSONValue {
        switch value {
        case .array(let elements):
            return .array(elements.map { reordered($0, using: &random) })
        case .object(let object):
            let members = ObjectMembers(object).visiblePositions.map {
                (object.keys[$0], reordered(object[$0].value, using: &random))
            }
            return .object(JSONObject(members.shuffled(using: &random)))
        default:
            return value
        }
    }
}
