@_spi(RewindInternals) import RewindSupport
import TestSupport
import Testing

@testable import TraceJSON
@testable import TraceReader

/// `TraceFile` on traces of the format's version 2 page: a `restore` sets its store's state, a
/// transition with a `patch` is an event whose state is rebuilt from the patches, and the reader
/// counts the same events as `TraceValidator`, a register's `machine` included.
@Suite struct TraceFileVersionTwoTests {
    typealias F = ReaderFixture

    private static let header2 =
        #"{"type":"header","format":"rewind-trace","version":2,"machines":\#(F.catalogMachine)}"#
    private static let panel = #"{"initial":"off","transitions":{"off":["on"],"on":["off"]}}"#

    @Test func aRestoreSetsItsStoresState() throws {
        let trace = try F.open([
            F.header(), F.register(1, "CatalogStore", state: #"{"idle":{}}"#, caseName: "idle"),
            F.transition(2, "CatalogStore", state: #"{"loading":{}}"#, from: "idle", to: "loading"),
            #"{"type":"restore","seq":3,"store":"CatalogStore","case":"idle","state":{"idle":{"back":true}},"step":1}"#,
        ])
        #expect(trace.eventCount == 3)
        #expect(trace.event(at: 2)?.setsState == true)
        #expect(trace.state(of: "CatalogStore", atStep: 3) == (try JSONParser.parse(#"{"idle":{"back":true}}"#)))
        #expect(trace.appState(atStep: 2)["CatalogStore"] == (try JSONParser.parse(#"{"loading":{}}"#)))
    }

    @Test func aPatchedTransitionIsAnEventWhoseStateIsRebuilt() throws {
        let trace = try F.open([
            Self.header2, F.register(1, "Counter", state: #"{"n":0}"#),
            #"{"type":"transition","seq":2,"store":"Counter","action":"bump","changed":true,"patch":[{"op":"replace","path":"/n","value":1}]}"#,
            F.transition(3, "Counter", state: #"{"n":2}"#),
        ])
        #expect(trace.eventCount == 3)
        #expect(trace.issues.isEmpty, "\(trace.issues)")
        #expect(trace.event(at: 1)?.state == nil)
        // The state before the patch with the patch applied (`TraceFilePatchTests` has more).
        #expect(trace.state(of: "Counter", atStep: 2) == .object(["n": .number("1")]))
        #expect(trace.appState(atStep: 2)["Counter"] == .object(["n": .number("1")]))
        #expect(try trace.state(of: "Counter", atStep: 2, as: [String: Int].self) == ["n": 1])
        #expect(trace.state(of: "Counter", atStep: 3) == .object(["n": .number("2")]))
    }

    @Test func aMalformedVersionTwoTransitionIsSkipped() throws {
        let trace = try F.open([
            Self.header2, F.register(1, "Counter", state: #"{"n":0}"#),
            F.transition(2, "Counter", state: "1", extra: #","patch":[]"#),
            #"{"type":"transition","seq":3,"store":"Counter","action":"bump","changed":true,"patch":[1]}"#,
        ])
        #expect(trace.eventCount == 1)
        #expect(trace.issues.map(\.line) == [3, 4])
    }

    // A register's machine makes `from` and `to` required, in one piece or across pieces.
    @Test func aRegistersMachineMakesFromAndToRequiredInEveryPiece() throws {
        var lines = [F.header()]
        var seq = 0
        for round in 0..<40 {
            seq += 1
            lines.append(
                round % 3 == 0
                    ? #"{"type":"register","seq":\#(seq),"store":"Panel","case":"off","machine":\#(Self.panel),"state":0}"#
                    : F.register(seq, "Panel", state: "0"))
            for _ in 0..<Int(round % 4) {
                seq += 1
                lines.append(F.transition(seq, "Panel", state: "1"))
                seq += 1
                lines.append(#"{"type":"restore","seq":\#(seq),"store":"Panel","state":2}"#)
            }
        }
        let bytes = Array(F.text(lines).utf8)
        let report = TraceValidator().validate(bytes: bytes)
        let malformed = Set(report.problems.filter { $0.kind == .malformed }.map(\.line))
        #expect(!malformed.isEmpty)
        let header = try TraceFile(bytes: bytes).header
        let bodyStart = try #require(bytes.firstIndex(of: 0x0A)) + 1
        var messages: [String]?
        for pieces in [1, 2, 3, 5, 8, 13, 40] {
            let index = ByteView.withBytes(of: bytes) { buffer in
                TraceIndexer.index(
                    buffer, bodyStart: bodyStart, headerEndsInCarriageReturn: false, machines: header.machines,
                    version: header.version, pieceCount: pieces)
            }
            #expect(index.eventCount == report.events, "\(pieces) pieces")
            #expect(Set(index.issues.filter { $0.kind == .malformed }.map(\.line)) == malformed, "\(pieces) pieces")
            // The same messages, whether the event was judged in its piece or when joined.
            let said = index.issues.filter { $0.kind == .malformed }.map(\.description).sorted()
            #expect(said == (messages ?? said), "\(pieces) pieces")
            messages = messages ?? said
            let trace = TraceFile(
                TraceLoader.Loaded(source: TraceSource(bytes: bytes), header: header, index: index), path: "t")
            for event in 0..<trace.eventCount { #expect(trace.event(at: event) != nil) }
        }
    }

    /// The reader and the validator agree on the generated traces of the validator's tests,
    /// which use every feature of the page (without a spec, which the reader does not take).
    @Test func theReaderAndTheValidatorAgreeOnGeneratedTraces() throws {
        for seed in UInt64(0)..<300 {
            var random = SeededGenerator(seed: seed &* 104_729 &+ 17)
            let generated = GeneratedTrace.make(using: &random)
            let report = TraceValidator().validate(bytes: generated.bytes)
            guard let trace = try? TraceFile(bytes: generated.bytes) else {
                #expect(report.isFatal, "seed \(seed)")
                continue
            }
            #expect(!report.isFatal, "seed \(seed)")
            #expect(trace.eventCount == report.events, "seed \(seed)")
            let skipped = Set(trace.issues.filter { $0.kind == .malformed || $0.kind == .truncated }.map(\.line))
            let problems = Set(
                report.problems.filter { $0.kind == .malformed || $0.kind == .truncated }.map(\.line))
            #expect(skipped == problems, "seed \(seed)")
            for step in [0, trace.lastStep / 2, trace.lastStep] {
                for store in trace.storeNames {
                    #expect(trace.appState(atStep: step)[store] == trace.state(of: store, atStep: step))
                }
            }
        }
    }
}
