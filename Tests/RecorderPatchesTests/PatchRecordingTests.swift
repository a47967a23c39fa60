import Foundation
import Recorder
import TestSupport
import Testing
import TraceJSON
import TraceReader

@testable import RecorderPatches

/// Version 2 recording (`TraceRecorder(patches: .automatic())`): every state rebuilt from the
/// patches is, byte for byte, the state that version 1 records for the same actions.
@Suite struct PatchRecordingTests {
    enum Kind: Codable, Equatable, Sendable {
        case draft
        case published(at: Int)
        case archived(reason: String, by: [Int])
    }

    struct Document: Codable, Equatable, Sendable {
        var title: String
        var done: Bool
        var count: Int
        var tags: [String]
        var note: String?
        var kind: Kind
    }

    final class Box: Codable, Equatable, @unchecked Sendable {
        var value: Int
        init(_ value: Int) { self.value = value }
        static func == (left: Box, right: Box) -> Bool { left === right }
    }

    struct Library: Codable, Equatable, Sendable {
        var documents: [Document] = []
        var byName: [String: Document] = [:]
        var grid: [[Int]] = []
        var numbers: Set<Int> = []
        var mode = Kind.draft
        var pinned: Document?
        var names: [String] = []
        var boxes: [Box] = []
        var counter = 0
        var flags: [Bool] = []
    }

    /// Names that a JSON Pointer must escape, and one that only looks like an escape.
    static let names = ["a/b", "c~d", "~1", "plain", "é", "", "x", "zz/~"]

    static func document(_ number: Int) -> Document {
        Document(
            title: "doc \(number)", done: number % 2 == 0, count: number, tags: number % 3 == 0 ? [] : ["t\(number)"],
            note: number % 4 == 0 ? nil : "note \(number)", kind: number % 5 == 0 ? .published(at: number) : .draft)
    }

    /// One random action on a library: what apps do to lists, dictionaries, sets, optionals,
    /// enums and nested arrays, and a class instance changed in place.
    static func act(on library: inout Library, boxes: [Box], _ random: inout SeededGenerator) {
        let number = Int.random(in: 0..<1_000, using: &random)
        let count = library.documents.count
        switch Int.random(in: 0..<24, using: &random) {
        case 0, 1: library.documents.append(document(number))
        case 2: library.documents.insert(document(number), at: number % (count + 1))
        case 3: if count > 0 { library.documents.remove(at: number % count) }
        case 4: if count > 0 { library.documents[number % count].title += "!" }
        case 5: if count > 0 { library.documents[number % count].done.toggle() }
        case 6: if count > 0 { library.documents[number % count].tags.append("n\(number)") }
        case 7:
            if count > 0 {
                let index = number % count
                library.documents[index].note = library.documents[index].note == nil ? "set \(number)" : nil
            }
        case 8:
            if count > 0 {
                library.documents[number % count].kind =
                    number % 2 == 0 ? .archived(reason: "r\(number)", by: [number, 1]) : .published(at: number)
            }
        case 9: library.documents.reverse()
        case 10: library.byName[names[number % names.count]] = document(number)
        case 11: library.byName[names[number % names.count]] = nil
        case 12: if let key = library.byName.keys.sorted().first { library.byName[key]?.count += 1 }
        case 13: library.grid.append([number, number + 1])
        case 14: if !library.grid.isEmpty { library.grid[number % library.grid.count].append(number) }
        case 15: if !library.grid.isEmpty { library.grid.remove(at: 0) }
        case 16: library.numbers.insert(number % 50)
        case 17: library.numbers.remove(number % 50)
        case 18: library.mode = number % 3 == 0 ? .draft : .archived(reason: "\(number)", by: [])
        case 19: library.pinned = library.pinned == nil ? document(number) : nil
        case 20:
            if library.names.isEmpty || number % 3 == 0 {
                library.names.insert("name \(number)", at: number % (library.names.count + 1))
            } else {
                library.names[number % library.names.count] = "renamed \(number)"
            }
        case 21: if number % 2 == 0 { library.boxes.append(boxes[number % boxes.count]) }
        case 22: library.flags.append(number % 2 == 0)
        default: library.counter += 1
        }
    }

    /// The same random actions on two stores, one recorded in version 1 and one in version 2:
    /// each state rebuilt from the version 2 trace (whole states and patches) equals the state
    /// of the version 1 trace at the same step, byte for byte; the version 2 trace validates.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func rebuiltStatesAreTheWholeStatesByteForByte(seed: UInt64) throws {
        let (patchTrace, wholeTrace) = try Self.record(seed: seed, actions: 1_200)
        try Self.expectSameStates(patchTrace, as: wholeTrace)
    }

    /// Records the same random actions in version 2 and in version 1; returns both traces.
    static func record(seed: UInt64, actions: Int) throws -> (patches: [UInt8], whole: [UInt8]) {
        var random = SeededGenerator(seed: seed)
        let (wholeSink, patchSink) = (MemorySink(), MemorySink())
        let whole = Store(initialState: Library(), name: "Library", recorder: try TraceRecorder(sink: wholeSink))
        let patched = Store(
            initialState: Library(), name: "Library",
            recorder: try TraceRecorder(sink: patchSink, patches: .automatic()))
        let boxes = (0..<4).map(Box.init)
        for _ in 0..<actions {
            if Int.random(in: 0..<10, using: &random) == 0 {
                // A change the stores cannot see: an instance in both states changes in place.
                boxes[Int.random(in: 0..<4, using: &random)].value += 1
                whole.send("poke") { _ in }
                patched.send("poke") { _ in }
                continue
            }
            var copy = random
            whole.send("act") { Self.act(on: &$0, boxes: boxes, &copy) }
            patched.send("act") { Self.act(on: &$0, boxes: boxes, &random) }
        }
        return (patchSink.data, wholeSink.data)
    }

    /// Python's `jsonpatch`, an independent implementation, applies the recorded patches in
    /// order, as a reader does, and finds at every step the state that version 1 records: the
    /// same members in the same order, numbers with the same text, `true` not `1`.
    ///
    /// It fails, saying what to install, when `python3` or `jsonpatch` is missing: CI installs
    /// both, and a silent skip would hide a broken patch.
    @Test func pythonJSONPatchRebuildsTheSameStates() throws {
        let folder = try TemporaryFolder()
        let (patchPath, wholePath) = (folder.path("patches.jsonl"), folder.path("whole.jsonl"))
        for seed in [5, 6] as [UInt64] {
            let (patchTrace, wholeTrace) = try Self.record(seed: seed, actions: 800)
            try Data(patchTrace).write(to: URL(fileURLWithPath: patchPath))
            try Data(wholeTrace).write(to: URL(fileURLWithPath: wholePath))
            let run = try ChildProcess.run("python3", ["-c", Self.replay, patchPath, wholePath])
            let output = run.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
            guard case .exited(0) = run.termination else {
                Issue.record(
                    """
                    python3 with the jsonpatch package (`pip install jsonpatch`; CI installs it) could not \
                    replay the trace: \(run.termination) \(output) \(run.errorText.suffix(600))
                    """)
                return
            }
            let events = RebuiltStates.lineCount(patchTrace)
            #expect(output == "\(events) states, \(events) as recorded", "seed \(seed)")
        }
    }

    /// Replays a version 2 trace (argument 1) with `jsonpatch` and compares each state with the
    /// version 1 trace of the same actions (argument 2). Numbers are read as their text, so
    /// that `1.0` is not `1` and `true` is not `1`; members are compared in order.
    static let replay = #"""
        import json, sys
        import jsonpatch

        def load(text):
            return json.loads(text, parse_float=lambda s: ["float", s], parse_int=lambda s: ["int", s])

        patched, whole = [[load(line) for line in open(path, encoding="utf-8")] for path in sys.argv[1:3]]
        states, same = {}, 0
        for event, recorded in zip(patched[1:], whole[1:]):
            store = event["store"]
            if "patch" in event:
                states[store] = jsonpatch.apply_patch(states[store], event["patch"])
            else:
                states[store] = event["state"]
            if json.dumps(states[store], ensure_ascii=False) == json.dumps(recorded["state"], ensure_ascii=False):
                same += 1
            else:
                print("seq", event["seq"], "differs:", json.dumps(event.get("patch")))
        print(len(patched) - 1, "states,", same, "as recorded")
        """#

    /// Compares a version 2 trace with the version 1 trace of the same actions.
    static func expectSameStates(_ patchTrace: [UInt8], as wholeTrace: [UInt8]) throws {
        let (rebuilt, recorded) = (try RebuiltStates(patchTrace), try RebuiltStates(wholeTrace))
        #expect(rebuilt.version == 2)
        #expect(recorded.version == 1)
        #expect(rebuilt.events.count == recorded.events.count)
        #expect(rebuilt.patchCount > rebuilt.events.count / 2, "most transitions carry a patch")
        for (got, want) in zip(rebuilt.events, recorded.events) where got.state != want.state {
            Issue.record(
                "seq \(got.seq): rebuilt \(got.state)\n  version 1 records \(want.state)\n  patch \(got.patch.map { JSONPrinter.compact($0) } ?? "none")"
            )
            break
        }
        let report = TraceValidator().validate(bytes: patchTrace)
        #expect(report.problems.isEmpty, "\(report.problems.map(\.message))")
    }
}
