import TestSupport
import Testing

@testable import Recorder
@testable import TraceReader

@Suite struct TransitionTallyTests {
    typealias T = ValidationTesting

    @Test func countsEachPairWithItsActions() throws {
        let lines = [
            T.header, T.register(1), T.transition(2, "idle", "loading", action: "load"),
            T.transition(3, "loading", "loading", action: "load"),
            T.transition(4, "loading", "loading", action: "reload"),
            "{broken", T.transition(6, nil, nil, store: "Cart"),
            T.transition(7, "empty", "full", action: "add", store: "Cart"),
        ]
        let tally = try TransitionTally.count(bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
        #expect(tally.stores.map(\.name) == ["CatalogStore", "Cart"])
        let catalog = tally.stores[0]
        #expect(catalog.machine?.initial == "idle")
        #expect(catalog.count(from: "idle", to: "loading") == 1)
        #expect(catalog.count(from: "loading", to: "loading") == 2)
        #expect(catalog.count(from: "loading", to: "loaded") == 0)
        #expect(catalog.taken.first { $0.from == "loading" && $0.to == "loading" }?.actions == ["load", "reload"])
        #expect(catalog.declares(from: "idle", to: "loading") && !catalog.declares(from: "loading", to: "loading"))
        #expect(tally.stores[1].machine == nil)
        #expect(tally.stores[1].taken == [TransitionTally.Taken(from: "empty", to: "full", count: 1, actions: ["add"])])
        #expect(tally.unreadableLines == 1)
    }

    @Test func aSpecReplacesAMachine() throws {
        let spec = MachineSpec(initial: "a", cases: ["a"], transitions: ["a": []])
        let tally = try TransitionTally.count(
            bytes: Array((T.header + "\n").utf8), machines: ["CatalogStore": spec, "Other": spec])
        #expect(tally.stores.map(\.name) == ["CatalogStore", "Other"])
        #expect(tally.stores[0].machine == spec)
    }

    @Test func aMachineARegisterCarriesIsTheStoresMachine() throws {
        let panel = #"{"initial":"off","transitions":{"off":["on"],"on":["off"]}}"#
        let lines = [
            T.header, T.registerState(1, "off", store: "Panel", members: #","machine":\#(panel)"#),
            T.transition(2, "off", "on", store: "Panel"),
            T.registerState(3, "off", members: #","machine":\#(panel)"#),
        ]
        let tally = try TransitionTally.count(bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
        #expect(tally.stores.map(\.name) == ["CatalogStore", "Panel"])
        #expect(tally.stores.allSatisfy { $0.machine?.initial == "off" })
        #expect(tally.stores[1].count(from: "off", to: "on") == 1)
        // A later register without a machine leaves the header's.
        let again = lines + [T.register(4)]
        let header = try TransitionTally.count(bytes: Array((again.joined(separator: "\n") + "\n").utf8))
        #expect(header.stores[0].machine?.initial == "idle")
    }

    @Test func notATraceIsAnErrorOnLineOne() {
        #expect(throws: ValidationFileError.self) {
            try TransitionTally.count(bytes: Array("nope\n".utf8), file: "x.jsonl")
        }
        do {
            _ = try TransitionTally.count(bytes: Array("nope\n".utf8), file: "x.jsonl")
        } catch {
            #expect(error.line == 1)
            #expect(error.description.hasPrefix("x.jsonl:1: not a trace: line 1 is not JSON"))
        }
    }
}
