import TestSupport
import Testing

@testable import TraceReader

@Suite struct TraceFileReadingTests {
    typealias F = ReaderFixture

    let lines = [
        F.header(),
        F.register(1, "CatalogStore", state: #"{"idle":{}}"#, caseName: "idle"),
        F.register(2, "Counter", state: #"{"value":0}"#),
        F.transition(
            3, "CatalogStore", action: "toLoading", state: #"{"loading":{}}"#, from: "idle", to: "loading",
            extra: #","source":"CatalogStore.swift:31","cause":2,"args":{"page":2,"query":"dune"}"#),
        F.transition(4, "Counter", action: "increment", state: #"{"value":1}"#, changed: false),
    ]

    @Test func indexesEveryEventAndDecodesOneOnDemand() throws {
        let trace = try F.open(lines)
        #expect(trace.eventCount == 4)
        #expect(trace.lastStep == 4)
        #expect(trace.storeNames == ["CatalogStore", "Counter"])
        #expect(trace.issues.isEmpty)
        #expect(trace.header.app == "Shop")
        #expect(trace.header.machines["CatalogStore"]?.initial == "idle")

        let event = try #require(trace.event(at: 2))
        #expect(event.index == 2)
        #expect(event.line == 4)
        #expect(event.seq == 3)
        #expect(event.type == "transition")
        #expect(event.store == "CatalogStore")
        #expect(event.action == "toLoading")
        #expect(event.from == "idle")
        #expect(event.to == "loading")
        #expect(event.caseName == nil)
        #expect(event.changed == true)
        #expect(event.elapsed == 1.25)
        #expect(event.source == "CatalogStore.swift:31")
        #expect(event.cause == 2)
        #expect(event.args == ["page": .number("2"), "query": .string("dune")])
        #expect(event.state == .object(["loading": .object([:])]))
        #expect(event.setsState)

        let register = try #require(trace.event(at: 0))
        #expect(register.type == "register")
        #expect(register.caseName == "idle")
        #expect(register.line == 2)
        #expect(trace.event(at: 3)?.changed == false)
    }

    @Test func anIndexOutOfRangeIsNil() throws {
        let trace = try F.open(lines)
        #expect(trace.event(at: 4) == nil)
        #expect(trace.event(at: -1) == nil)
        #expect(trace.event(at: .max) == nil)
        #expect(trace.step(ofEventAt: 4) == nil)
        #expect(trace.step(ofEventAt: -1) == nil)
    }

    @Test func findsEventsBySeqAndStep() throws {
        let trace = try F.open(lines)
        for index in 0..<trace.eventCount {
            let seq = try #require(trace.event(at: index)?.seq)
            #expect(trace.eventIndex(forSeq: seq) == index)
            #expect(trace.eventIndex(atStep: seq) == index)
            #expect(trace.step(ofEventAt: index) == seq)
        }
        #expect(trace.eventIndex(forSeq: 0) == nil)
        #expect(trace.eventIndex(forSeq: 5) == nil)
        #expect(trace.eventIndex(forSeq: -3) == nil)
        #expect(trace.eventIndex(atStep: 0) == nil)
    }

    @Test func aTraceWithOnlyAHeaderHasNoEvents() throws {
        for text in [F.header() + "\n", F.header()] {
            let trace = try TraceFile(bytes: Array(text.utf8))
            #expect(trace.eventCount == 0)
            #expect(trace.lastStep == 0)
            #expect(trace.storeNames.isEmpty)
            #expect(trace.appState(atStep: 1).isEmpty)
            #expect(trace.issues.isEmpty)
        }
    }

    @Test func storeNamesWithEscapesAndNonASCIIAreOneStore() throws {
        let trace = try F.open([
            F.header(machines: "{}"),
            F.register(1, "Caf\\u00e9", state: "1"),
            F.transition(2, "Café", state: "2"),
            F.transition(3, "Ca\\\"t", state: "3"),
        ])
        #expect(trace.storeNames == ["Café", "Ca\"t"])
        #expect(trace.state(of: "Café", atStep: 1) == .number("1"))
        #expect(trace.state(of: "Café", atStep: 3) == .number("2"))
        #expect(trace.state(of: "Ca\"t", atStep: 3) == .number("3"))
    }

    @Test func aStoreWithAMachineNeedsItsCases() throws {
        let trace = try F.open([
            F.header(),
            F.register(1, "CatalogStore", state: "1"),  // no case: malformed
            F.register(2, "CatalogStore", state: "2", caseName: "idle"),
            F.transition(3, "CatalogStore", state: "3"),  // no from/to: malformed
            F.transition(4, "Other", state: "4"),  // no machine: fine without from/to
        ])
        #expect(trace.eventCount == 2)
        #expect(trace.issues.map(\.line) == [2, 4])
        #expect(trace.issues.allSatisfy { $0.kind == .malformed && $0.message.contains("\"CatalogStore\"") })
        #expect(trace.storeNames == ["CatalogStore", "Other"])
    }

    @Test func theIndexCostsFarLessThan24BytesPerEvent() throws {
        let trace = try F.open(F.generated(events: 30_000))
        #expect(trace.eventCount == 30_000)
        let perEvent = Double(trace.indexByteCount) / Double(trace.eventCount)
        // 8 bytes of offset, 4 of the stores' interleaved event lists; steps and lines count up.
        #expect(perEvent <= 12.5)
    }
}
