import Foundation
import TestSupport
import Testing

@testable import TraceJSON
@testable import TraceReader

/// `TraceConverter` (`inspector convert`): version 1 → 2 → 1 keeps every state, version 2 output
/// follows the format's rule for whole states, and Python's `jsonpatch` (an independent JSON
/// Patch implementation) rebuilds the same states from the patches it writes.
@Suite struct TraceConverterTests {
    typealias F = ReaderFixture

    static func convert(
        _ trace: TraceFile, to version: Int, patchesPerWholeState: Int = TraceConverter.formatPatchesPerWholeState,
        heldBytes: Int = 64 << 20
    ) throws -> (lines: [String], summary: TraceConverter.Summary) {
        var bytes: [UInt8] = []
        let converter = TraceConverter(
            trace: trace, version: version, patchesPerWholeState: patchesPerWholeState, heldBytes: heldBytes)
        let summary = try converter.write { bytes += $0 }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasSuffix("\n"))
        return (text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init), summary)
    }

    static func objects(_ lines: [String]) throws -> [JSONObject] {
        try lines.map { try #require(try JSONParser.parse($0).objectValue) }
    }

    static func expectSameStates(_ first: TraceFile, _ second: TraceFile, _ comment: String) throws {
        #expect(first.lastStep == second.lastStep, "\(comment)")
        for step in 0...first.lastStep {
            let a = try first.readAppState(atStep: step)
            let b = try second.readAppState(atStep: step)
            #expect(a.keys == b.keys, "\(comment) at step \(step)")
            for (store, value) in a {
                #expect(b[store].map { $0.isEquivalent(to: value) } == true, "\(comment): \(store) at step \(step)")
            }
        }
    }

    @Test func versionOneToTwoToOneKeepsEveryState() throws {
        for seed in UInt64(200)..<230 {
            let run = PatchedTrace.make(seed: seed, events: 150)
            let original = try F.open(run.whole)
            let (two, summary) = try Self.convert(original, to: 2)
            #expect(summary.version == 2 && summary.patches > 0 && summary.events == original.eventCount)
            let v2 = try F.open(two)
            #expect(v2.header.version == 2)
            #expect(v2.issues.allSatisfy { $0.kind == .unknownType }, "seed \(seed): \(v2.issues)")
            #expect(TraceValidator().validate(bytes: Array(F.text(two).utf8)).errors == 0)
            try Self.expectSameStates(original, v2, "seed \(seed), version 2")
            let (one, back) = try Self.convert(v2, to: 1)
            #expect(back == TraceConverter.Summary(version: 1, events: original.eventCount, patches: 0))
            #expect(!one.joined().contains("\"patch\""))
            let v1 = try F.open(one)
            #expect(v1.header.version == 1)
            try Self.expectSameStates(original, v1, "seed \(seed), version 1")
            // Every member but `state` and `patch` is the input's, in its place.
            for (input, output) in zip(try Self.objects(run.whole), try Self.objects(one)) {
                #expect(input.keys.filter { $0 != "patch" } == output.keys)
                for (key, value) in output where key != "state" { #expect(input[key] == value) }
            }
        }
    }

    @Test func aWholeStateComesAgainByTheFormatsRule() throws {
        // One store with a large state changed a little many times: patches, then a whole state
        // every `limit` of them (1,024 in the format, 16 here); another whose patches soon
        // outweigh its small state.
        let limit = 16
        let bigPad = String(repeating: "x", count: 2_000)
        let smallPad = "0123456789012345678901234567890123456789"
        var lines = [F.header(machines: "{}")]
        lines.append(F.register(1, "Big", state: #"{"n":0,"pad":"\#(bigPad)"}"#))
        lines.append(F.register(2, "Small", state: #"{"n":0,"pad":"\#(smallPad)"}"#))
        for seq in 3...1_500 {
            let store = seq % 3 == 0 ? "Small" : "Big"
            lines.append(
                F.transition(seq, store, state: #"{"n":\#(seq),"pad":"\#(store == "Big" ? bigPad : smallPad)"}"#))
        }
        let (two, _) = try Self.convert(try F.open(lines), to: 2, patchesPerWholeState: limit)
        var wholeBytes: [String: Int] = [:]
        var patchBytes: [String: Int] = [:]
        var patchCount: [String: Int] = [:]
        var wholeStates: [String: Int] = [:]
        for object in try Self.objects(Array(two.dropFirst())) {
            let store = try #require(object["store"]?.stringValue)
            if let patch = object["patch"] {
                patchBytes[store, default: 0] += JSONPrinter.compact(patch).utf8.count
                patchCount[store, default: 0] += 1
                #expect(patchBytes[store, default: 0] <= wholeBytes[store, default: 0], "\(store)")
                #expect(patchCount[store, default: 0] <= limit, "\(store)")
            } else {
                let state = try #require(object["state"])
                wholeBytes[store] = JSONPrinter.compact(state).utf8.count
                patchBytes[store] = 0
                patchCount[store] = 0
                wholeStates[store, default: 0] += 1
            }
        }
        // Big: 1,000 transitions, a whole state after every 16 patches (and its register).
        #expect(wholeStates["Big"] == 1 + 1_000 / (limit + 1))
        // Small: 500 transitions, a patch of about 45 bytes and a state of about 60: every
        // other one is whole.
        #expect(wholeStates["Small"] == 1 + 500 / 2)
    }

    @Test func aTraceThatGainsNothingFromPatchesStaysVersionOne() throws {
        let lines = [
            F.header(machines: "{}"), F.register(1, "S", state: "1"), F.transition(2, "S", state: "2"),
            F.transition(3, "S", state: "[1,2]"),
        ]
        let (one, summary) = try Self.convert(try F.open(lines), to: 2)
        #expect(summary == TraceConverter.Summary(version: 1, events: 3, patches: 0))
        #expect(try F.open(one).header.version == 1)
        #expect(one.count == 4)
    }

    /// Version 2 output holds its lines back until the first patch decides the header; when more
    /// come first than it holds, the rest is converted again. Either way the output is the same.
    @Test func theOutputIsTheSameWhateverIsHeldBeforeTheFirstPatch() throws {
        // A store whose patches never pay comes first, so that the first patch comes late.
        var late = [F.header(machines: "{}"), F.register(1, "Tiny", state: "0")]
        for seq in 2..<40 { late.append(F.transition(seq, "Tiny", state: "\(seq)")) }
        let items = (0..<100).map(String.init).joined(separator: ",")
        late.append(F.register(40, "Big", state: "{\"items\":[\(items)],\"n\":0}"))
        for seq in 41..<60 { late.append(F.transition(seq, "Big", state: "{\"items\":[\(items)],\"n\":\(seq)}")) }
        // And a trace that never gains from patches.
        let never = [F.header(machines: "{}"), F.register(1, "S", state: "1"), F.transition(2, "S", state: "2")]
        for (name, lines) in [("late", late), ("never", never)] {
            let trace = try F.open(lines)
            let whole = try Self.convert(trace, to: 2)
            #expect(whole.summary.version == (name == "late" ? 2 : 1))
            for held in [0, 1, 200, 5_000] {
                let (output, summary) = try Self.convert(trace, to: 2, heldBytes: held)
                #expect(output == whole.lines, "\(name), holding \(held) bytes")
                #expect(summary == whole.summary, "\(name), holding \(held) bytes")
            }
        }
    }

    @Test func aPatchTheInputCarriesElsewhereIsDropped() throws {
        let lines = [
            F.header(machines: "{}"),
            #"{"type":"register","seq":1,"store":"S","state":{"a":1},"patch":"not one"}"#,
            F.transition(2, "S", state: #"{"a":1,"b":"\#(String(repeating: "y", count: 50))"}"#, extra: #","patch":7"#),
            F.transition(3, "S", state: #"{"a":2,"b":"\#(String(repeating: "y", count: 50))"}"#),
            #"{"type":"note","seq":4,"patch":{}}"#,
        ]
        let (two, summary) = try Self.convert(try F.open(lines), to: 2)
        // Seq 2 adds a member whose patch is larger than the state; seq 3 changes a number.
        #expect(summary.version == 2 && summary.patches == 1)
        let objects = try Self.objects(two)
        #expect(objects[1]["patch"] == nil && objects[1]["state"] != nil)
        #expect(objects[2]["patch"] == nil && objects[2]["state"] != nil)
        #expect(objects[4]["patch"] == nil)
        #expect(objects[3]["patch"] != nil && objects[3]["state"] == nil)
        #expect(TraceValidator().validate(bytes: Array(F.text(two).utf8)).problems.isEmpty)
    }

    @Test func aPatchThatDoesNotApplyStopsTheConversionNamingItsLine() throws {
        let trace = try F.open([
            TraceFilePatchTests.header2, F.register(1, "S", state: #"{"a":1}"#),
            TraceFilePatchTests.patched(2, "S", #"[{"op":"remove","path":"/b"}]"#),
        ])
        do {
            _ = try Self.convert(trace, to: 1)
            Issue.record("converted a trace whose patch does not apply")
        } catch let error as TraceReadError {
            #expect(error.kind == .badPatch && error.line == 3)
        }
    }

    // MARK: Python's jsonpatch

    static let script =
        PythonJSONPatchTests.prelude + "\n\n"
            + #"""
            # Replays the version 1 trace (whole states) and the version 2 one (patches applied by
            # jsonpatch) side by side, and compares every store's state after every event.
            with open(sys.argv[1], encoding="utf-8") as whole, open(sys.argv[2], encoding="utf-8") as patched:
                # Lines end in "\n" only: a state may hold U+2028, which splitlines() would cut at.
                whole_lines, patched_lines = whole.read().split("\n")[1:-1], patched.read().split("\n")[1:-1]
            if len(whole_lines) != len(patched_lines):
                print(json.dumps({"ok": False, "detail": "%d events and %d" % (len(whole_lines), len(patched_lines))}))
                sys.exit(0)
            expected, rebuilt, patches = {}, {}, 0
            for number, (a, b) in enumerate(zip(whole_lines, patched_lines)):
                a, b = load(a), load(b)
                if a.get("type") not in ("register", "transition", "restore"):
                    continue
                store = a["store"]
                expected[store] = a["state"]
                if "patch" in b:
                    patches += 1
                    rebuilt[store] = jsonpatch.JsonPatch(b["patch"]).apply(rebuilt[store])
                else:
                    rebuilt[store] = b["state"]
                if not same(expected[store], rebuilt[store]):
                    print(json.dumps({"ok": False, "detail": "event %d (%s): the states differ" % (number + 1, store)}))
            print(json.dumps({"ok": True, "patches": patches}))
            """#

    @Test func pythonJSONPatchRebuildsTheSameStatesFromAConvertedTrace() throws {
        let folder = try TemporaryFolder()
        let check = try ChildProcess.run("python3", ["-c", "import jsonpatch"])
        guard case .exited(0) = check.termination else {
            Issue.record(
                """
                This test needs python3 with the jsonpatch package (\(check.errorText.suffix(300))): \
                `apt-get install python3 python3-pip && pip install jsonpatch` (CI does).
                """)
            return
        }
        try Self.script.write(toFile: folder.path("replay.py"), atomically: true, encoding: .utf8)
        for seed in UInt64(300)..<320 {
            let run = PatchedTrace.make(seed: seed, events: 200)
            let (two, summary) = try Self.convert(try F.open(run.whole), to: 2)
            try F.text(run.whole).write(toFile: folder.path("whole.jsonl"), atomically: true, encoding: .utf8)
            try F.text(two).write(toFile: folder.path("patched.jsonl"), atomically: true, encoding: .utf8)
            let replay = try ChildProcess.run(
                "python3", [folder.path("replay.py"), folder.path("whole.jsonl"), folder.path("patched.jsonl")])
            #expect(replay.termination == .exited(0), "seed \(seed): \(replay.errorText.suffix(2_000))")
            let results = replay.outputText.split(separator: "\n").map(String.init)
            #expect(results == [#"{"ok": true, "patches": \#(summary.patches)}"#], "seed \(seed)")
        }
    }
}
