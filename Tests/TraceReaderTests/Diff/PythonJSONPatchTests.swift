import Foundation
import TestSupport
import Testing

@testable import TraceJSON

/// Checks `JSONPatch.make` against an independent implementation: Python's `jsonpatch`
/// package applies each patch to the first state, and the result must be the second state.
///
/// Python reads numbers as `decimal.Decimal` (`parse_float` and `parse_int`), so `1e400`,
/// `-0` and integers past 64 bits arrive exactly, and compares with a function that is strict
/// about types: `True == 1` in Python, so booleans, numbers, strings, arrays, objects and null
/// are told apart before their values are compared (numbers by exact decimal value, strings by
/// code points, objects by member names in any order).
///
/// The test fails, with what to install, when `python3` or `jsonpatch` is missing: CI installs
/// both (`pip install jsonpatch`), and a silent skip would hide a broken patch.
@Suite struct PythonJSONPatchTests {
    /// What a check in Python starts with: `jsonpatch` (exit 3 without it), `load` (numbers as
    /// `Decimal`) and `same` (the strict comparison above). `TraceConverterTests` uses it too.
    static let prelude = #"""
        import decimal, json, sys

        try:
            import jsonpatch
        except ImportError:
            print("MISSING jsonpatch")
            sys.exit(3)

        def load(text):
            return json.loads(text, parse_float=decimal.Decimal, parse_int=decimal.Decimal)

        def same(a, b):
            if a is None or isinstance(a, bool) or b is None or isinstance(b, bool):
                return a is b
            if isinstance(a, decimal.Decimal) or isinstance(b, decimal.Decimal):
                return isinstance(a, decimal.Decimal) and isinstance(b, decimal.Decimal) and a == b
            if isinstance(a, str) or isinstance(b, str):
                return isinstance(a, str) and isinstance(b, str) and a == b
            if isinstance(a, list) or isinstance(b, list):
                return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
            if isinstance(a, dict) and isinstance(b, dict):
                return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
            return False
        """#

    static let script =
        prelude + "\n\n"
            + #"""
            with open(sys.argv[1], encoding="utf-8") as cases:
                for number, line in enumerate(cases):
                    case = load(line)
                    try:
                        result = jsonpatch.JsonPatch(case["patch"]).apply(case["before"])
                        ok = same(result, case["after"])
                        detail = "" if ok else "result differs"
                    except Exception as error:
                        ok, detail = False, type(error).__name__ + ": " + str(error)
                    print(json.dumps({"case": number, "ok": ok, "detail": detail}))
            """#

    struct Outcome {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs `python3` with `arguments` and collects what it prints.
    func python(_ arguments: [String], in folder: URL) throws -> Outcome {
        let run = try ChildProcess.run("python3", arguments)
        let status: Int32 = if case .exited(let code) = run.termination { code } else { -1 }
        return Outcome(
            status: status, output: run.outputText,
            errors: run.errorText + (status == -1 ? "\npython3: \(run.termination)" : ""))
    }

    /// The generated pairs, plus the hand-picked awkward ones.
    func pairs() throws -> [(before: JSONValue, after: JSONValue)] {
        let json = DiffTesting.json
        var pairs: [(JSONValue, JSONValue)] = [
            (try json(#"{"a": 1, "b": [1, 2, 3]}"#), try json(#"{"b": [1, 2, 3], "a": 1}"#)),
            (
                try json(#"{"CatalogStore": {"loading": {}}}"#),
                try json(#"{"CatalogStore": {"loaded": {"_0": [{"title": "日本語"}]}}}"#)
            ),
            (try json(#"[1e400, -0, 12345678901234567890123]"#), try json(#"[10e399, 0, 12345678901234567890124]"#)),
            (try json(#"[[1, [2, [3, 4]]], [5]]"#), try json(#"[[1, [2, [3, 4, 4.5]]], [], [5]]"#)),
            (.string("caf\u{E9}"), .string("cafe\u{301}")),
            (.object(["caf\u{E9}": .number("1")]), .object(["cafe\u{301}": .number("1")])),
            (
                .object(["a/b": .number("1"), "~": .number("2"), "": .number("3")]),
                .object(["a/b": .number("4"), "~0": .number("2"), "": .array([])])
            ),
            (
                .array((0..<100).map { .number(String($0)) }),
                .array((0..<101).map { .number(String($0 == 50 ? 1000 : $0)) })
            ),
            (try json("true"), try json("1")),
            (try json("{}"), try json("[]")),
        ]
        for seed in 5_000..<5_400 as Range<UInt64> {
            var generator = DiffStateGenerator(seed: seed)
            pairs.append(generator.pair())
        }
        return pairs
    }

    @Test func pythonJSONPatchTurnsTheFirstStateIntoTheSecond() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let check = try python(["-c", "import jsonpatch"], in: folder)
        guard check.status == 0 else {
            Issue.record(
                """
                This test needs python3 with the jsonpatch package, the independent JSON Patch \
                implementation it checks against (status \(check.status): \(check.errors.suffix(300))). \
                Install them: `apt-get install python3 python3-pip && pip install jsonpatch` (CI does).
                """)
            return
        }

        let pairs = try pairs()
        var cases = ""
        for (before, after) in pairs {
            let patch = JSONPatch.make(from: before, to: after)
            cases += JSONPrinter.compact(.object(["before": before, "after": after, "patch": patch])) + "\n"
        }
        let casesURL = folder.appendingPathComponent("cases.jsonl")
        let scriptURL = folder.appendingPathComponent("check_patches.py")
        try cases.write(to: casesURL, atomically: true, encoding: .utf8)
        try Self.script.write(to: scriptURL, atomically: true, encoding: .utf8)

        let run = try python([scriptURL.path, casesURL.path], in: folder)
        #expect(run.status == 0, "python3 failed: \(run.errors)")
        let results = run.output.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
        #expect(
            results.count == pairs.count,
            "expected one result per pair; python3 printed:\n\(run.output.prefix(2_000))\(run.errors.prefix(2_000))")
        for result in results where result["ok"] != .bool(true) {
            let number = result["case"]?.intValue ?? -1
            let pair = pairs.indices.contains(number) ? pairs[number] : (JSONValue.null, JSONValue.null)
            Issue.record(
                """
                case \(number): \(result["detail"]?.stringValue ?? "?")
                before: \(JSONPrinter.compact(pair.0, terminalSafe: true))
                after:  \(JSONPrinter.compact(pair.1, terminalSafe: true))
                patch:  \(JSONPrinter.compact(JSONPatch.make(from: pair.0, to: pair.1), terminalSafe: true))
                """)
        }
    }
}
