import Foundation
@_spi(RewindInternals) import RewindSupport
import Synchronization
import TestSupport
import Testing

@testable import TraceJSON
@testable import TraceReader

/// `TraceFile` on version 2 traces whose transitions carry patches: every state is rebuilt from
/// the store's latest whole state and the patches after it, in any order of reading, and a
/// patch that does not apply is an error naming its line, never a wrong state.
@Suite struct TraceFilePatchTests {
    typealias F = ReaderFixture

    static let header2 = #"{"type":"header","format":"rewind-trace","version":2,"machines":{}}"#

    static func patched(_ seq: Int, _ store: String, _ patch: String, action: String = "act") -> String {
        #"{"type":"transition","seq":\#(seq),"store":"\#(store)","action":"\#(action)","changed":true,"patch":\#(patch)}"#
    }

    /// Every store at every step, read in `order`, against the replay.
    func expectEveryState(
        of trace: TraceFile, matches expected: [JSONObject], order: [Int], _ comment: String
    ) {
        for step in order {
            for store in PatchedTrace.stores {
                let state = trace.state(of: store, atStep: step)
                #expect(state == expected[step][store], "\(comment), \(store) at step \(step)")
                // The text reads (what `show` and `diff` use) rebuild the same state.
                #expect(trace.stateText(of: store, atStep: step)?.value == state, "\(comment), \(store) text")
            }
            let appState = JSONValue.object(trace.appState(atStep: step))
            #expect(trace.appStateText(atStep: step).value == appState, "\(comment), app state text at step \(step)")
        }
    }

    @Test func everyStepOfARandomVersionTwoTraceIsThePatchesAppliedInOrder() throws {
        for seed in UInt64(1)...40 {
            let run = PatchedTrace.make(seed: seed, events: 120)
            let trace = try F.open(run.patched)
            let whole = try F.open(run.whole)
            #expect(trace.issues.allSatisfy { $0.kind == .unknownType }, "seed \(seed): \(trace.issues)")
            #expect(run.patchCount > 0)
            let expected = PatchedTrace.replay(run.patched)
            var order = Array(0...trace.lastStep)
            expectEveryState(of: trace, matches: expected, order: order, "seed \(seed), forward")
            order.reverse()
            expectEveryState(of: trace, matches: expected, order: order, "seed \(seed), backward")
            var random = SeededGenerator(seed: seed)
            order.shuffle(using: &random)
            expectEveryState(of: trace, matches: expected, order: order, "seed \(seed), shuffled")
            // The same data as the run's whole states (patches keep data, not member order).
            for step in stride(from: 0, through: trace.lastStep, by: 7) {
                let state = try trace.readAppState(atStep: step)
                let wholeState = whole.appState(atStep: step)
                #expect(state.keys.sorted() == wholeState.keys.sorted(), "seed \(seed) at step \(step)")
                for (store, value) in wholeState {
                    #expect(state[store].map { $0.isEquivalent(to: value) } == true, "seed \(seed) \(store) \(step)")
                }
            }
        }
    }

    @Test func theStatesAreTheSameWhateverTheIndexingPieces() throws {
        let run = PatchedTrace.make(seed: 99, events: 300)
        let bytes = Array(F.text(run.patched).utf8)
        let header = try TraceFile(bytes: bytes).header
        let bodyStart = try #require(bytes.firstIndex(of: 0x0A)) + 1
        let expected = PatchedTrace.replay(run.patched)
        for pieces in [2, 3, 7, 64] {
            let index = ByteView.withBytes(of: bytes) { buffer in
                TraceIndexer.index(
                    buffer, bodyStart: bodyStart, headerEndsInCarriageReturn: false, machines: header.machines,
                    version: header.version, pieceCount: pieces)
            }
            let trace = TraceFile(
                TraceLoader.Loaded(source: TraceSource(bytes: bytes), header: header, index: index), path: "t")
            expectEveryState(
                of: trace, matches: expected, order: Array(0...trace.lastStep).reversed(), "\(pieces) pieces")
        }
    }

    @Test func aPatchedEventHasItsPatchAndTheStoresStateIsRebuilt() throws {
        let trace = try F.open([
            Self.header2, F.register(1, "Counter", state: #"{"n":0,"tags":["a"]}"#),
            Self.patched(
                2, "Counter", #"[{"op":"replace","path":"/n","value":1},{"op":"add","path":"/tags/-","value":"b"}]"#),
            Self.patched(3, "Counter", #"[{"op":"copy","from":"/n","path":"/m"}]"#),
        ])
        let event = try #require(trace.event(at: 1))
        #expect(event.state == nil)
        #expect(event.patch?.arrayValue?.count == 2)
        #expect(trace.event(at: 0)?.patch == nil)
        #expect(trace.state(of: "Counter", atStep: 2) == (try JSONParser.parse(#"{"n":1,"tags":["a","b"]}"#)))
        #expect(
            try trace.readState(of: "Counter", atStep: 3) == (try JSONParser.parse(#"{"n":1,"tags":["a","b"],"m":1}"#)))
        #expect(trace.appState(atStep: 3)["Counter"]?["m"] == .number("1"))

        struct Counter: Decodable, Equatable {
            var n: Int
            var tags: [String]
        }
        #expect(try trace.state(of: "Counter", atStep: 2, as: Counter.self) == Counter(n: 1, tags: ["a", "b"]))
        #expect(try trace.state(of: "Counter", atStep: 1, as: Counter.self) == Counter(n: 0, tags: ["a"]))
    }

    @Test func aPatchThatDoesNotApplyIsAnErrorNamingItsLineUntilTheNextWholeState() throws {
        let lines = [
            Self.header2,
            F.register(1, "Cart", state: #"{"items":[]}"#),
            F.register(2, "Other", state: "1"),
            Self.patched(3, "Cart", #"[{"op":"add","path":"/items/-","value":"dune"}]"#),
            Self.patched(4, "Cart", #"[{"op":"remove","path":"/items/5"}]"#, action: "drop"),
            Self.patched(5, "Cart", #"[{"op":"add","path":"/items/-","value":"emma"}]"#),
            F.transition(6, "Cart", state: #"{"items":["x"]}"#),
            Self.patched(7, "Cart", #"[{"op":"add","path":"/items/-","value":"y"}]"#),
        ]
        let trace = try F.open(lines)
        #expect(trace.state(of: "Cart", atStep: 3) == (try JSONParser.parse(#"{"items":["dune"]}"#)))
        for step in [4, 5] {
            #expect(trace.state(of: "Cart", atStep: step) == nil, "step \(step)")
            #expect(trace.appState(atStep: step)["Cart"] == nil)
            #expect(trace.appState(atStep: step)["Other"] == .number("1"))
            #expect(throws: TraceReadError.self) { try trace.readState(of: "Cart", atStep: step) }
            do {
                _ = try trace.readAppState(atStep: step)
                Issue.record("step \(step) read")
            } catch {
                #expect(error.kind == .badPatch)
                #expect(error.line == 5, "the line of the patch that does not apply")
                #expect(error.message.contains("\"drop\" on \"Cart\""))
                #expect(error.message.contains("patch[0]: remove \"/items/5\""))
                #expect(error.description.hasPrefix("trace:5: "))
            }
            #expect(throws: TraceReadError.self) {
                try trace.state(of: "Cart", atStep: step, as: [String: [String]].self)
            }
            #expect(trace.stateText(of: "Cart", atStep: step) == nil)
            #expect(throws: TraceReadError.self) { try trace.readStateText(of: "Cart", atStep: step) }
            #expect(throws: TraceReadError.self) { try trace.readAppStateText(atStep: step) }
            let other = try trace.readAppStateText(atStep: step, store: "Other")
            #expect(other.value == .object(["Other": .number("1")]))
        }
        // The next whole state, and the patches after it, are known again; a step before too.
        #expect(trace.state(of: "Cart", atStep: 7) == (try JSONParser.parse(#"{"items":["x","y"]}"#)))
        #expect(trace.state(of: "Cart", atStep: 3) == (try JSONParser.parse(#"{"items":["dune"]}"#)))
        // What the validator says of the same line.
        let report = TraceValidator().validate(bytes: Array(F.text(lines).utf8))
        #expect(report.problems.map(\.kind) == [.badPatch])
        #expect(report.problems.map(\.line) == [5])
    }

    @Test func aStoreThatStartsWithAPatchHasNoStateUntilAWholeOne() throws {
        let trace = try F.open([
            Self.header2,
            Self.patched(1, "Ghost", #"[{"op":"add","path":"/a","value":1}]"#),
            F.transition(2, "Ghost", state: #"{"a":2}"#),
        ])
        #expect(trace.state(of: "Ghost", atStep: 1) == nil)
        do {
            _ = try trace.readState(of: "Ghost", atStep: 1)
            Issue.record("read a state that was never given")
        } catch {
            #expect(error.kind == .unknownState)
            #expect(error.line == 2)
        }
        #expect(trace.state(of: "Ghost", atStep: 2) == .object(["a": .number("2")]))
    }

    @Test func aPatchOnAnyOtherEventOrInVersionOneIsIgnored() throws {
        let v2 = try F.open([
            Self.header2,
            #"{"type":"register","seq":1,"store":"S","state":{"a":1},"patch":[{"op":"remove","path":"/a"}]}"#,
            #"{"type":"restore","seq":2,"store":"S","state":{"a":2},"patch":[]}"#,
        ])
        #expect(v2.issues.isEmpty)
        #expect(v2.state(of: "S", atStep: 1) == .object(["a": .number("1")]))
        #expect(v2.state(of: "S", atStep: 2) == .object(["a": .number("2")]))
        #expect(v2.event(at: 0)?.patch == nil)
        #expect(v2.index.patched == nil)
        let v1 = try F.open([
            F.header(machines: "{}"), F.register(1, "S", state: "1"),
            F.transition(2, "S", state: "2", extra: #","patch":[{"op":"replace","path":"","value":9}]"#),
        ])
        #expect(v1.state(of: "S", atStep: 2) == .number("2"))
        #expect(v1.event(at: 1)?.patch == nil)
        #expect(v1.index.patched == nil)
    }

    @Test func patchesCostTheIndexOneBitPerEvent() throws {
        let run = PatchedTrace.make(seed: 7, events: 5_000)
        let whole = try F.open(run.whole)
        let patched = try F.open(run.patched)
        #expect(whole.index.patched == nil)
        #expect(patched.index.patched != nil)
        let extra = patched.indexByteCount - whole.indexByteCount
        #expect(extra > 0 && extra <= patched.eventCount / 8 + 8, "\(extra) bytes for \(patched.eventCount) events")
    }

    @Test func aFileRewrittenAfterItWasOpenedGivesAnErrorNotAState() throws {
        let folder = try TemporaryFolder()
        let lines = [
            Self.header2, F.register(1, "Counter", state: #"{"n":0}"#),
            Self.patched(2, "Counter", #"[{"op":"replace","path":"/n","value":1}]"#),
        ]
        let path = try F.write(Array(F.text(lines).utf8), named: "t.jsonl", in: folder)
        let trace = try TraceFile(path: path)
        try Data(F.text([Self.header2]).utf8).write(to: URL(fileURLWithPath: path))
        #expect(trace.state(of: "Counter", atStep: 2) == nil)
        do {
            _ = try trace.readState(of: "Counter", atStep: 2)
            Issue.record("read a line that is gone")
        } catch {
            #expect(error.kind == .changed)
        }
    }

    @Test func severalThreadsReadTheSameTraceAtOnce() throws {
        let run = PatchedTrace.make(seed: 3, events: 400)
        let trace = try F.open(run.patched)
        let expected = PatchedTrace.replay(run.patched)
        let mismatches = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var random = SeededGenerator(seed: UInt64(thread))
            for _ in 0..<300 {
                let step = Int.random(in: 0...trace.lastStep, using: &random)
                for store in PatchedTrace.stores where trace.state(of: store, atStep: step) != expected[step][store] {
                    mismatches.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
    }
}
