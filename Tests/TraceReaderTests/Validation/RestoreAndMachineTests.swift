import TestSupport
import Testing

@testable import Recorder
@testable import TraceReader

/// shared/TRACE_FORMAT.md's `restore` event, the `machine` a register carries, and `unchecked`:
/// one small trace per rule.
@Suite struct RestoreAndMachineTests {
    typealias T = ValidationTesting
    typealias Found = ValidationTesting.Found

    private static let panel = #"{"initial":"off","transitions":{"off":["on"],"on":["off"]}}"#

    // MARK: restore

    @Test func aRestoreSetsTheCurrentCaseAndIsNotJudgedByTheMachine() {
        // loaded → failed would be illegal, idle → loaded too: a restore is not an action.
        let report = T.validate([
            T.header, T.register(1), T.restore(2, "loaded", members: #","step":5,"trace":"run.jsonl""#),
            T.transition(3, "loaded", "loading"), T.restore(4, "failed"), T.transition(5, "failed", "loading"),
        ])
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.events == 5)
    }

    @Test func theTransitionAfterARestoreStartsFromItsCase() {
        let problems = T.problems([
            T.header, T.register(1), T.transition(2, "idle", "loading"), T.restore(3, "loaded"),
            T.transition(4, "loading", "failed"),
        ])
        #expect(problems == [Found(.discontinuity, line: 5, seq: 4, store: "CatalogStore")])
    }

    // "malformed without case when the store has a machine"
    @Test func aRestoreWithoutCaseOfAStoreWithAMachineIsMalformed() {
        let report = T.validate([T.header, T.register(1), T.restore(2, nil), T.restore(3, nil, store: "Cart")])
        // Cart has no machine: no case needed (and no earlier register).
        #expect(
            report.problems.map(Found.init) == [
                Found(.malformed, line: 3, seq: 2, store: "CatalogStore"),
                Found(.unregistered, line: 4, seq: 3, store: "Cart"),
            ])
        #expect(report.problems.first?.message.contains(#""case" is missing"#) == true)
        #expect(report.events == 2)
    }

    @Test func aRestoreNeedsStoreAndState() {
        let problems = T.problems([
            T.header, T.register(1), #"{"type":"restore","seq":2,"case":"idle","state":1}"#,
            #"{"type":"restore","seq":3,"store":"CatalogStore","case":"idle"}"#,
        ])
        #expect(
            problems == [
                Found(.malformed, line: 3, seq: 2), Found(.malformed, line: 4, seq: 3, store: "CatalogStore"),
            ])
    }

    @Test func aRestoreToACaseTheMachineLacksIsUnknownCase() {
        let problems = T.problems([
            T.header, T.register(1), T.restore(2, "sleeping"), T.transition(3, "idle", "loading"),
        ])
        // The current case is "sleeping" after it, so idle → loading is discontinuous.
        #expect(
            problems == [
                Found(.unknownCase, line: 3, seq: 2, store: "CatalogStore"),
                Found(.discontinuity, line: 4, seq: 3, store: "CatalogStore"),
            ])
    }

    // "A restore of a store with no earlier register is unregistered (once ...), and is still
    // checked for unknown-case and unchecked."
    @Test func aRestoreOfAStoreThatNeverRegisteredIsUnregisteredOnce() {
        let problems = T.problems([
            T.header, T.restore(1, "sleeping"), T.restore(2, "loaded"), T.transition(3, "loaded", "loading"),
            T.restore(4, "x", store: "Cart"), T.transition(5, nil, nil, store: "Cart"),
        ])
        #expect(
            problems == [
                Found(.unregistered, line: 2, seq: 1, store: "CatalogStore"),
                Found(.unknownCase, line: 2, seq: 1, store: "CatalogStore"),
                Found(.unregistered, line: 5, seq: 4, store: "Cart"),
                Found(.unchecked, line: 5, seq: 4, store: "Cart"),
            ])
    }

    @Test func aRestoreAfterAnUnregisteredTransitionIsNotUnregisteredAgain() {
        let problems = T.problems([T.header, T.transition(1, "idle", "loading"), T.restore(2, "idle")])
        #expect(problems == [Found(.unregistered, line: 2, seq: 1, store: "CatalogStore")])
    }

    // "A machine on a restore is ignored" (but shaped as a machine, as on every event).
    @Test func aRestoresMachineIsIgnored() {
        let withMachine = T.restore(2, "on", members: #","machine":\#(Self.panel)"#)
        let problems = T.problems([T.header, T.register(1), withMachine])
        #expect(problems == [Found(.unknownCase, line: 3, seq: 2, store: "CatalogStore")])
        let cart = T.restore(2, "on", store: "Cart", members: #","machine":\#(Self.panel)"#)
        #expect(
            T.problems([T.header, T.register(1, nil, store: "Cart"), cart]) == [
                Found(.unchecked, line: 3, seq: 2, store: "Cart")
            ])
        let badMachine = T.restore(2, "idle", members: #","machine":{"initial":"a","transitions":{}}"#)
        #expect(
            T.problems([T.header, T.register(1), badMachine]) == [
                Found(.malformed, line: 3, seq: 2, store: "CatalogStore")
            ])
    }

    @Test func restoresTypesAreChecked() {
        for member in [#","step":"5""#, #","step":5.5"#, #","trace":5"#, #","trace":null"#] {
            #expect(
                T.problems([T.header, T.register(1), T.restore(2, "idle", members: member)]) == [
                    Found(.malformed, line: 3, seq: 2, store: "CatalogStore")
                ], "\(member)")
        }
    }

    // MARK: machine

    @Test func aRegistersMachineChecksTheStore() {
        let problems = T.problems([
            T.header, T.registerState(1, "off", store: "Panel", members: #","machine":\#(Self.panel)"#),
            T.transition(2, "off", "on", store: "Panel"), T.transition(3, "on", "on", store: "Panel"),
            T.transition(4, nil, "off", store: "Panel"),
        ])
        #expect(
            problems == [
                Found(.illegal, line: 4, seq: 3, store: "Panel"), Found(.malformed, line: 5, seq: 4, store: "Panel"),
            ])
    }

    @Test func aRegisterWithAMachineNeedsCase() {
        let problems = T.problems([
            T.header, T.registerState(1, nil, store: "Panel", members: #","machine":\#(Self.panel)"#),
        ])
        #expect(problems == [Found(.malformed, line: 2, seq: 1, store: "Panel")])
    }

    // "A register whose machine is not shaped as a machine is malformed."
    @Test(arguments: [
        #"{"initial":"off","transitions":{"on":[]}}"#, #"{"initial":"off","transitions":{"off":["on"]}}"#,
        #"{"transitions":{"off":[]}}"#, #"{"initial":"off"}"#, #"{"initial":"off","transitions":{"off":"on"}}"#,
        #"{"initial":"off","transitions":{"off":[1]}}"#, #"{"initial":1,"transitions":{"off":[]}}"#, "[]", #""off""#,
        "null",
    ])
    func aRegisterWhoseMachineIsNotShapedIsMalformed(machine: String) {
        let report = T.validate([
            T.header, T.registerState(1, "off", store: "Panel", members: #","machine":\#(machine)"#),
            T.transition(2, "off", "on", store: "Panel"),
        ])
        #expect(report.problems.map(\.kind) == [.malformed, .unregistered], "\(machine)")
        #expect(report.problems.first?.message.contains("machine") == true, "\(report.problems.first?.message ?? "")")
    }

    // "A store's machine at an event: --spec first, then the machine of its latest register
    // (this one included) when that register carries one, then the header's."
    @Test func aRegistersMachineReplacesTheHeaders() {
        let problems = T.problems([
            T.header, T.registerState(1, "off", members: #","machine":\#(Self.panel)"#),
            T.transition(2, "off", "on"), T.transition(3, "on", "loading"),
        ])
        #expect(problems == [Found(.unknownCase, line: 4, seq: 3, store: "CatalogStore")])
    }

    @Test func theSpecsMachineWinsOverARegistersMachine() {
        let spec = MachineSpec(initial: "a", cases: ["a", "b"], transitions: ["a": ["b"], "b": []])
        let problems = T.problems(
            [
                T.header, T.registerState(1, "off", members: #","machine":\#(Self.panel)"#),
                T.transition(2, "a", "b"),
            ], machines: ["CatalogStore": spec])
        #expect(
            problems == [
                Found(.unknownCase, line: 2, seq: 1, store: "CatalogStore"),
                Found(.discontinuity, line: 3, seq: 2, store: "CatalogStore"),
            ])
    }

    // Decision: a later register without machine falls back to the header's, not to the
    // earlier register's machine.
    @Test func aLaterRegisterWithoutMachineFallsBackToTheHeader() {
        let problems = T.problems([
            T.header, T.registerState(1, "off", members: #","machine":\#(Self.panel)"#),
            T.transition(2, "off", "on"), T.register(3, "idle"), T.transition(4, "idle", "loading"),
            T.registerState(5, "off", store: "Panel", members: #","machine":\#(Self.panel)"#),
            T.register(6, nil, store: "Panel"), T.transition(7, nil, nil, store: "Panel"),
        ])
        #expect(problems.isEmpty, "\(problems)")
        // With the header's machine again, off is not a case.
        let back = T.problems([
            T.header, T.registerState(1, "off", members: #","machine":\#(Self.panel)"#), T.register(2, "off"),
        ])
        #expect(back == [Found(.unknownCase, line: 3, seq: 2, store: "CatalogStore")])
    }

    @Test func aMachineOnAnyEventMustBeShaped() {
        let problems = T.problems([
            T.header, T.register(1),
            #"{"type":"note","seq":2,"machine":{"initial":"x","transitions":{}}}"#,
            #"{"type":"note","seq":3,"machine":\#(Self.panel)}"#,
        ])
        #expect(problems == [Found(.malformed, line: 3, seq: 2)])
    }

    /// Registers of stores S0…S6, each with a machine of its own (case `cN`), more of them than
    /// `MachineTable.compactionThreshold`, from seq `seq + 1` on (`seq` is then the last).
    private static func registerManyMachines(after seq: inout Int, into lines: inout [String]) {
        for index in 0..<(MachineTable.compactionThreshold + 50) {
            seq += 1
            let machine = #"{"initial":"c\#(index)","transitions":{"c\#(index)":[]}}"#
            lines.append(T.registerState(seq, "c\(index)", store: "S\(index % 7)", members: #","machine":\#(machine)"#))
        }
    }

    @Test func manyDistinctMachinesStayCorrect() {
        // More carried machines than `MachineTable.compactionThreshold`: the stores in use keep theirs.
        var lines = [T.header]
        lines.append(
            T.registerState(
                1, "c0", store: "Keep", members: #","machine":{"initial":"c0","transitions":{"c0":["c0"]}}"#))
        var seq = 1
        Self.registerManyMachines(after: &seq, into: &lines)
        lines.append(T.transition(seq + 1, "c0", "c0", store: "Keep"))
        lines.append(T.transition(seq + 2, "c0", "c1", store: "Keep"))
        let last = MachineTable.compactionThreshold + 49
        lines.append(T.transition(seq + 3, "c\(last)", "c\(last)", store: "S\(last % 7)"))
        #expect(
            T.problems(lines) == [
                Found(.unknownCase, line: lines.count - 1, seq: seq + 2, store: "Keep"),
                Found(.illegal, line: lines.count, seq: seq + 3, store: "S\(last % 7)"),
            ])
    }

    @Test func casesAreLookedUpInTheMachineAfterTheMachinesAreRenumbered() {
        // A transition of "Gone" looks its cases up in the first carried machine; then "Gone" drops
        // it, and the compaction gives its number to "Keep"'s machine, whose cases are numbered
        // otherwise: Keep's transition must be judged by Keep's machine (x has no way out).
        let gone = #"{"initial":"a","transitions":{"a":["x"],"x":["y"],"y":["x"]}}"#
        let keep = #"{"initial":"x","transitions":{"x":[],"y":["x"]}}"#
        var lines = [
            T.header, T.registerState(1, "x", store: "Gone", members: #","machine":\#(gone)"#),
            T.registerState(2, "x", store: "Keep", members: #","machine":\#(keep)"#),
            T.transition(3, "x", "y", store: "Gone"), T.registerState(4, nil, store: "Gone"),
        ]
        var seq = 4
        Self.registerManyMachines(after: &seq, into: &lines)
        lines.append(T.transition(seq + 1, "x", "y", store: "Keep"))
        #expect(T.problems(lines) == [Found(.illegal, line: lines.count, seq: seq + 1, store: "Keep")])
    }

    // MARK: unchecked

    // "a register or restore that carries a case for a store with no machine at that event"
    @Test func aCaseForAStoreWithoutAMachineIsUnchecked() {
        let report = T.validate([
            T.header, T.register(1, "idle", store: "Catalog"), T.transition(2, "idle", "loaded", store: "Catalog"),
            T.restore(3, "idle", store: "Catalog"), T.register(4, nil, store: "Cart"),
        ])
        #expect(
            report.problems.map(Found.init) == [
                Found(.unchecked, line: 2, seq: 1, store: "Catalog"),
                Found(.unchecked, line: 4, seq: 3, store: "Catalog"),
            ])
        #expect(report.problems.allSatisfy { $0.severity == .warning })
        #expect(report.passes() && !report.passes(strict: true))
        #expect(report.problems[0].message.contains("no state machine"), "\(report.problems[0].message)")
    }

    // "unchecked is judged with the machine the store has at that event"
    @Test func uncheckedIsJudgedWithTheMachineAtTheEvent() {
        let problems = T.problems([
            T.header, T.registerState(1, "off", store: "Panel", members: #","machine":\#(Self.panel)"#),
            T.restore(2, "on", store: "Panel"), T.register(3, "on", store: "Panel"),
        ])
        #expect(problems == [Found(.unchecked, line: 4, seq: 3, store: "Panel")])
    }
}
