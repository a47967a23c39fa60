import TestSupport
import Testing

@testable import Recorder
@testable import TraceQueries
@testable import TraceReader

@Suite struct TraceCoverageTests {
    typealias T = ValidationTesting

    private func tally(_ lines: [String], machines: [String: MachineSpec] = [:]) throws -> TransitionTally {
        try TransitionTally.count(bytes: Array((lines.joined(separator: "\n") + "\n").utf8), machines: machines)
    }

    @Test func addsUpTheRunsPerDeclaredTransition() throws {
        let first = try tally([
            T.header, T.register(1), T.transition(2, "idle", "loading", action: "load"),
            T.transition(3, "loading", "loaded", action: "done"), T.transition(4, "loaded", "loading", action: "load"),
        ])
        let second = try tally([
            T.header, T.register(1), T.transition(2, "idle", "loading", action: "refresh"),
            T.transition(3, "loading", "loading", action: "load"),
            T.transition(4, "empty", "full", action: "add", store: "Cart"),
        ])
        let coverage = TraceCoverage(tallies: [first, second])
        #expect(coverage.traces == 2)
        #expect(coverage.machines.map(\.store) == ["CatalogStore"])
        #expect(coverage.storesWithoutMachine == ["Cart"])
        let catalog = try #require(coverage.machines.first)
        #expect(catalog.traces == 2)
        #expect(
            catalog.declared == [
                .init(from: "idle", to: "loading", count: 2, traces: 2, actions: ["load", "refresh"]),
                .init(from: "loading", to: "loaded", count: 1, traces: 1, actions: ["done"]),
                .init(from: "loading", to: "failed", count: 0, traces: 0, actions: []),
                .init(from: "loaded", to: "loading", count: 1, traces: 1, actions: ["load"]),
                .init(from: "failed", to: "loading", count: 0, traces: 0, actions: []),
            ])
        #expect(catalog.undeclared == [.init(from: "loading", to: "loading", count: 1, traces: 1, actions: ["load"])])
        #expect(catalog.neverTaken.map { "\($0.from)→\($0.to)" } == ["loading→failed", "failed→loading"])
        #expect(catalog.unvisitedCases == ["failed"])
        #expect(catalog.takenCount == 3)
        #expect(catalog.percent == 60)
        #expect(coverage.percent == 60)
    }

    @Test func aCaseSetByARegisterOrARestoreIsVisited() throws {
        let run = try tally([T.header, T.register(1, "idle"), T.restore(2, "failed")])
        let catalog = try #require(TraceCoverage(tallies: [run]).machines.first)
        #expect(catalog.unvisitedCases == ["loading", "loaded"])
        #expect(catalog.takenCount == 0)
        #expect(catalog.percent == 0)
    }

    @Test func theMachineMostRunsDeclareIsTheOneMeasuredAgainst() throws {
        // The same table written in another order is the same machine.
        let reordered =
            #"{"CatalogStore":{"initial":"idle","transitions":{"failed":["loading"],"loaded":["loading"],"loading":["failed","loaded"],"idle":["loading"]}}}"#
        let other = #"{"CatalogStore":{"initial":"idle","transitions":{"idle":["busy"],"busy":["idle"]}}}"#
        let runs = try [
            tally([T.header(machines: other), T.register(1), T.transition(2, "idle", "busy")]),
            tally([T.header, T.register(1)]),
            tally([T.header(machines: reordered), T.register(1), T.transition(2, "idle", "loading")]),
        ]
        let catalog = try #require(TraceCoverage(tallies: runs).machines.first)
        #expect(catalog.machine.initial == "idle")
        #expect(catalog.declared.count == 5)
        #expect(catalog.tracesWithAnotherMachine == 1)
        #expect(catalog.traces == 3)
        // Against that machine, idle → busy is undeclared, and busy was visited but is no case of it.
        #expect(catalog.undeclared.map { "\($0.from)→\($0.to)" } == ["idle→busy"])
        #expect(catalog.takenCount == 1)
    }

    @Test func aSpecMachineAndARegistersMachineFollowTheFormatsPrecedence() throws {
        let carried = #","machine":{"initial":"off","transitions":{"off":["on"],"on":["off"]}}"#
        let registered = try tally([
            T.header, T.registerState(1, "off", members: carried), T.transition(2, "off", "on", body: #""state":{}"#),
        ])
        #expect(TraceCoverage(tallies: [registered]).machines.first?.percent == 50)
        let spec = MachineSpec(initial: "off", cases: ["off", "on"], transitions: ["off": ["on"], "on": []])
        let pinned = try tally(
            [
                T.header, T.registerState(1, "off", members: carried),
                T.transition(2, "off", "on", body: #""state":{}"#),
            ],
            machines: ["CatalogStore": spec])
        #expect(TraceCoverage(tallies: [pinned]).machines.first?.percent == 100)
    }

    @Test func aMachineWithoutTransitionsHasNothingToCover() throws {
        let run = try tally([T.header(machines: #"{"Done":{"initial":"end","transitions":{"end":[]}}}"#)])
        let coverage = TraceCoverage(tallies: [run])
        #expect(coverage.machines.first?.percent == nil)
        #expect(coverage.percent == nil)
    }

    @Test func measuringFilesKeepsTheirOrderAndListsThoseThatCannotBeRead() throws {
        // Many files, read in parallel: the first seen order must still be the order given.
        var files: [ValidationTemporaryFile] = []
        for index in 0..<40 {
            let store = "Store\(index)"
            let machines = #"{"\#(store)":{"initial":"a","transitions":{"a":["b"],"b":[]}}}"#
            let lines =
                [T.header(machines: machines), T.register(1, "a", store: store)]
                + (index.isMultiple(of: 2) ? [T.transition(2, "a", "b", store: store)] : [])
            files.append(try ValidationTemporaryFile(Array((lines.joined(separator: "\n") + "\n").utf8)))
        }
        let notATrace = try ValidationTemporaryFile(Array("hello\n".utf8))
        var paths = files.map(\.path)
        paths.insert(notATrace.path, at: 3)
        paths.append(files[0].folder + "/missing.jsonl")
        let coverage = TraceCoverage.measure(files: paths)
        #expect(coverage.traces == 40)
        #expect(coverage.machines.map(\.store) == (0..<40).map { "Store\($0)" })
        #expect(coverage.takenCount == 20)
        #expect(coverage.percent == 50)
        #expect(coverage.failures.map(\.path) == [notATrace.path, files[0].folder + "/missing.jsonl"])
        #expect(coverage.failures.first?.message.contains("not a trace") == true)
    }
}
