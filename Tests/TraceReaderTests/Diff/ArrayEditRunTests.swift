import TestSupport
import Testing

@testable import TraceJSON

/// A run of insertions and removals on one array is applied in one pass (`ArrayEditRun`): the
/// result, the size kept and the error are those of applying each operation on its own.
@Suite struct ArrayEditRunTests {
    /// Applies each operation of `patch` as a patch of its own (a run needs two operations).
    func oneByOne(_ operations: [JSONValue], to document: JSONValue) -> Result<JSONValue, JSONPatchError> {
        var state = document
        for (position, operation) in operations.enumerated() {
            do {
                state = try JSONPatch.apply(.array([operation]), to: state)
            } catch {
                return .failure(JSONPatchError(operation: position, message: error.message))
            }
        }
        return .success(state)
    }

    func whole(_ operations: [JSONValue], to document: JSONValue) -> Result<JSONValue, JSONPatchError> {
        Result { () throws(JSONPatchError) in try JSONPatch.apply(.array(operations), to: document) }
    }

    func operation(_ name: String, _ path: String, _ value: JSONValue? = nil) -> JSONValue {
        var object: JSONObject = ["op": .string(name), "path": .string(path)]
        if let value { object.append(key: "value", value: value) }
        return .object(object)
    }

    @Test func randomRunsGiveWhatEachOperationGivesOnItsOwn() {
        var random = SeededGenerator(seed: 34)
        for _ in 0..<300 {
            let count = Int.random(in: 0..<6, using: &random)
            let document = JSONValue.object([
                "a": .object(["list": .array((0..<count).map { .number(String($0)) })]),
                "b": .array([.array([])]),
            ])
            var operations: [JSONValue] = []
            var length = count
            for step in 0..<Int.random(in: 1..<12, using: &random) {
                let target = Bool.random(using: &random) ? "/a/list" : "/b/0"
                if target == "/b/0" { length = 3 }  // not tracked: indices there may be wrong
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<5:
                    let index = Int.random(in: 0...(length + 1), using: &random)
                    let token = Int.random(in: 0..<6, using: &random) == 0 ? "-" : String(index)
                    operations.append(operation("add", "\(target)/\(token)", .number(String(100 + step))))
                    if target == "/a/list" { length += 1 }
                case 5..<9:
                    let index = Int.random(in: 0...max(0, length), using: &random)
                    operations.append(operation("remove", "\(target)/\(index)"))
                    if target == "/a/list" { length = max(0, length - 1) }
                default:
                    operations.append(operation("replace", "/a/list/0", .string("r")))
                }
            }
            #expect(whole(operations, to: document) == oneByOne(operations, to: document))
        }
    }

    @Test func aChainOfInsertionsAtTheFrontEndsInReverseOrder() throws {
        let operations = (0..<1000).map { operation("add", "/arr/0", .number(String($0))) }
        let result = try JSONPatch.apply(.array(operations), to: .object(["arr": .array([.string("end")])]))
        let expected = (0..<1000).reversed().map { JSONValue.number(String($0)) } + [.string("end")]
        #expect(result == .object(["arr": .array(expected)]))
    }

    @Test func anIndexOutOfRangeInARunIsNamedAsOnItsOwn() {
        let operations = [
            operation("add", "/arr/0", .number("1")), operation("add", "/arr/1", .number("2")),
            operation("add", "/arr/5", .number("3")),
        ]
        guard case .failure(let error) = whole(operations, to: .object(["arr": .array([])])) else {
            Issue.record("the run applied an index out of range")
            return
        }
        #expect(error.operation == 2)
        #expect(error.message.contains("has 2 elements"))
    }

    @Test func aRunCountsTheValuesItAddsAsWrittenOut() {
        // Each add is a value of 2^23 + 1 values, written in the patch (shared by reference here,
        // as parsed values never are): the patch pays for them, so all three apply, as one by
        // one. The state then holds 3 × (2^23 + 1) + 2 values, all spelled out: copying one
        // element adds 2^23 + 1, within the 2^24 copies may add; copying the array does not fit.
        let big = JSONValue.array(Array(repeating: .null, count: 1 << 23))
        let adds = (0..<3).map { _ in operation("add", "/arr/-", big) }
        let copyOne = JSONValue.object(["op": .string("copy"), "from": .string("/arr/0"), "path": .string("/one")])
        let copyAll = JSONValue.object(["op": .string("copy"), "from": .string("/arr"), "path": .string("/all")])
        guard case .success = whole(adds + [copyOne], to: .object(["arr": .array([])])) else {
            Issue.record("values written in the patch were refused")
            return
        }
        guard case .failure(let error) = whole(adds + [copyAll], to: .object(["arr": .array([])])) else {
            Issue.record("a copy added more values than copies may add")
            return
        }
        #expect(error.operation == 3)
    }
}
