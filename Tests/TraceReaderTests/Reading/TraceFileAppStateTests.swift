import Testing

@Suite struct TraceFileAppStateTests {
    typealias F = ReaderFixture

    @Test func theAppStateAtEveryStepIsTheReplayOfTheFormat() throws {
        let lines = [
            F.header(),
            F.register(1, "CatalogStore", state: #"{"idle":{}}"#, caseName: "idle"),
            F.register(2, "Counter", state: #"{"value":0}"#),
            F.transition(3, "CatalogStore", state: #"{"loading":{}}"#, from: "idle", to: "loading"),
            F.transition(4, "Counter", state: #"{"value":1}"#),
            F.transition(5, "Counter", state: #"{"value":1}"#, changed: false),
            F.register(6, "Session", state: "null"),
            F.transition(7, "CatalogStore", state: #"{"loaded":{"_0":["Dune"]}}"#, from: "loading", to: "loaded"),
        ]
        let trace = try F.open(lines)
        let expected = F.replay(lines, through: 7)
        for step in 0...7 {
            #expect(trace.appState(atStep: step) == expected[step], "step \(step)")
        }
        #expect(trace.appState(atStep: 0).isEmpty)
        #expect(trace.appState(atStep: 1).keys == ["CatalogStore"])
        #expect(trace.appState(atStep: 7).keys == ["CatalogStore", "Counter", "Session"])
    }

    @Test func stepsBeforeTheStartAndPastTheEnd() throws {
        let lines = [F.header(machines: "{}"), F.register(1, "A", state: "1"), F.transition(2, "A", state: "2")]
        let trace = try F.open(lines)
        #expect(trace.appState(atStep: -1).isEmpty)
        #expect(trace.appState(atStep: .min).isEmpty)
        #expect(trace.appState(atStep: 3) == trace.appState(atStep: 2))
        #expect(trace.appState(atStep: .max) == trace.appState(atStep: 2))
        #expect(trace.appState(atStep: .max)["A"] == .number("2"))
        #expect(trace.state(of: "A", atStep: 0) == nil)
        #expect(trace.state(of: "A", atStep: .max) == .number("2"))
        #expect(trace.state(of: "B", atStep: 2) == nil)
    }

    @Test func aStoreThatRegistersAgainStartsOverFromItsNewState() throws {
        let lines = [
            F.header(machines: "{}"),
            F.register(1, "Cart", state: #"{"items":[]}"#),
            F.transition(2, "Cart", state: #"{"items":["a"]}"#),
            F.transition(3, "Cart", state: #"{"items":["a","b"]}"#),
            F.register(4, "Cart", state: #"{"items":[]}"#),
            F.transition(5, "Cart", state: #"{"items":["c"]}"#),
        ]
        let trace = try F.open(lines)
        let expected = F.replay(lines, through: 5)
        for step in 0...5 {
            #expect(trace.appState(atStep: step) == expected[step], "step \(step)")
            #expect(trace.state(of: "Cart", atStep: step) == expected[step]["Cart"], "step \(step)")
        }
        #expect(trace.storeNames == ["Cart"])
    }

    @Test func aStepMissingFromTheTraceShowsTheStateBeforeIt() throws {
        // seq 3 is on a malformed line: step 3 is the same moment as step 2.
        let lines = [
            F.header(machines: "{}"),
            F.register(1, "A", state: "1"),
            F.transition(2, "A", state: "2"),
            #"{"type":"transition","seq":3,"store":"A","state":3}"#,  // no action, no changed
            F.transition(4, "A", state: "4"),
        ]
        let trace = try F.open(lines)
        #expect(trace.eventCount == 3)
        #expect(trace.lastStep == 4)
        #expect(trace.appState(atStep: 3) == trace.appState(atStep: 2))
        #expect(trace.state(of: "A", atStep: 3) == .number("2"))
        #expect(trace.state(of: "A", atStep: 4) == .number("4"))
        #expect(trace.eventIndex(forSeq: 3) == nil)
        #expect(trace.eventIndex(forSeq: 4) == 2)
        let expected = F.replay(lines.enumerated().filter { $0.offset != 3 }.map(\.element), through: 4)
        for step in 0...4 { #expect(trace.appState(atStep: step) == expected[step], "step \(step)") }
    }

    @Test func whenSeqsDoNotGoUpStepsFollowTheFile() throws {
        let lines = [
            F.header(machines: "{}"),
            F.register(1, "A", state: "1"),
            F.transition(2, "A", state: "2"),
            F.transition(2, "A", state: "3"),  // a repeat
            F.transition(1, "A", state: "4"),  // a step back
            F.transition(9, "A", state: "5"),
        ]
        let trace = try F.open(lines)
        #expect(trace.eventCount == 5)
        #expect(trace.issues.map(\.kind) == [.seqOrder, .seqOrder])
        #expect(trace.issues.map(\.line) == [4, 5])
        #expect(trace.lastStep == 5)
        for index in 0..<5 {
            #expect(trace.step(ofEventAt: index) == index + 1)
            #expect(trace.eventIndex(atStep: index + 1) == index)
            #expect(trace.state(of: "A", atStep: index + 1) == .number(String(index + 1)))
        }
        // By seq: the first event with that seq.
        #expect(trace.eventIndex(forSeq: 2) == 1)
        #expect(trace.eventIndex(forSeq: 1) == 0)
        #expect(trace.eventIndex(forSeq: 9) == 4)
        #expect(trace.eventIndex(forSeq: 3) == nil)
        #expect(trace.event(at: 3)?.seq == 1)
    }

    @Test func aFirstSeqBelowOneAlsoMeansFileOrder() throws {
        let trace = try F.open([
            F.header(machines: "{}"), F.register(0, "A", state: "1"), F.transition(1, "A", state: "2"),
        ])
        #expect(trace.issues.map(\.kind) == [.seqOrder])
        #expect(trace.lastStep == 2)
        #expect(trace.state(of: "A", atStep: 1) == .number("1"))
        #expect(trace.appState(atStep: 0).isEmpty)
    }

    @Test func unknownEventTypesCountAsEventsButChangeNoStore() throws {
        let lines = [
            F.header(machines: "{}"),
            F.register(1, "A", state: "1"),
            // The page's keys keep their types on an unknown type too; the others may mean anything.
            #"{"type":"note","seq":2,"store":"A","state":99,"text":["hello"]}"#,
            F.transition(3, "A", state: "3"),
        ]
        let trace = try F.open(lines)
        #expect(trace.eventCount == 3)
        #expect(trace.event(at: 1)?.type == "note")
        #expect(trace.event(at: 1)?.setsState == false)
        #expect(trace.issues.map(\.kind) == [.unknownType])
        #expect(trace.issues.first?.line == 3)
        #expect(trace.state(of: "A", atStep: 2) == .number("1"))
        #expect(trace.eventIndex(forSeq: 2) == 1)
    }

    @Test func aLongTraceAgreesWithTheReplayAtEveryStep() throws {
        let lines = F.generated(events: 300)
        let trace = try F.open(lines)
        let expected = F.replay(lines, through: 301)
        for step in 0...301 {
            #expect(trace.appState(atStep: step) == expected[step], "step \(step)")
        }
    }
}
