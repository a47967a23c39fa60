import Foundation
import Recorder
import TestSupport
import Testing
import TraceQueries
import TraceReader

@testable import SampleApp

/// Recorded sessions of the shop, run again on today's code (`ShopReplay`, `TraceReplay`).
@Suite struct ShopReplayTests {
    /// The sessions that must replay exactly. A session recorded with `sample-app --trace FILE`
    /// becomes a test by adding its path here.
    static let sessions = [
        "traces/happy-path.jsonl",
        "traces/flaky-network.jsonl",
        "traces/undo.jsonl",
        "traces/invalid/double-refresh.jsonl",
        "traces/invalid/quit-while-paying.jsonl",
        "traces/invalid/crash.jsonl",
    ]

    static func path(_ relative: String) -> String {
        packageRoot.appendingPathComponent(relative).path
    }

    @Test(arguments: sessions)
    func theCommittedSessionReplaysExactly(session: String) throws {
        let outcome = try ShopReplay.run(.file(Self.path(session)))
        #expect(outcome.isExact, "\(outcome.report())")
        #expect(outcome.sentActions > 0)
        let trace = try TraceFile(path: Self.path(session))
        #expect(outcome.agreeingEvents == trace.eventCount)
    }

    /// Every scenario's committed trace is in `sessions`, so a new scenario is replayed too.
    @Test func everyScenarioTraceIsReplayed() {
        for scenario in Scenario.all {
            #expect(Self.sessions.contains(scenario.tracePath), "\(scenario.tracePath) is not replayed")
        }
    }

    /// The planted bug: a catalog that answers with another price for the mug. The replay must
    /// stop at the catalog's answer (step 6, `CatalogStore.didLoad`), with compare's report.
    @Test func aCatalogThatAnswersDifferentlyIsCaughtAtItsAnswer() throws {
        var products = FakeCatalogService.standardProducts
        products[1].price = Money(cents: 9_99)
        let outcome = try ShopReplay.run(.file(Self.path("traces/happy-path.jsonl")), products: products)
        let difference = try #require(outcome.difference, "the planted bug went unseen")
        #expect(difference.position == 6)
        #expect(difference.fields == ["state"])
        #expect(difference.first.event?.seq == 6)
        #expect(difference.first.event?.store == "CatalogStore")
        #expect(difference.first.event?.action == "didLoad")
        #expect(difference.second.event?.action == "didLoad")
        let report = outcome.report()
        #expect(
            report.hasPrefix(
                "\(Self.path("traces/happy-path.jsonl")): the replay diverges at step 6 (CatalogStore.didLoad)"))
        #expect(report.contains("differ at event 6: state"))
        #expect(report.contains("1250"))
        #expect(report.contains("999"))
        #expect(report.contains("causes in the replay: seq 6 CatalogStore.didLoad (the action that started it)"))
    }

    /// A card with a lower limit declines what the recording paid: the payment's answer
    /// diverges, and the report names the action on both sides.
    @Test func aCardThatDeclinesIsCaughtAtThePaymentsAnswer() throws {
        var configuration = ShopConfiguration()
        configuration.cardLimit = Money(cents: 10_00)
        let trace = try TraceFile(path: Self.path("traces/happy-path.jsonl"))
        let outcome = try ShopReplay.run(.file(trace.path), configuration: configuration)
        let difference = try #require(outcome.difference)
        let paid = try #require(
            (0..<trace.eventCount).compactMap { trace.event(at: $0) }.first { $0.action == "didPay" })
        #expect(difference.first.event?.seq == paid.seq)
        #expect(difference.first.event?.action == "didPay")
        #expect(difference.second.event?.action == "didFail")
        #expect(difference.fields.contains("action"))
    }

    /// A version 2 trace (patches) of a session replays as its version 1 trace does.
    @Test func aVersion2TraceReplays() throws {
        let trace = try TraceFile(path: Self.path("traces/undo.jsonl"))
        var bytes: [UInt8] = []
        let summary = try TraceConverter(trace: trace, version: 2, patchesPerWholeState: 3).write { bytes += $0 }
        #expect(summary.version == 2)
        let outcome = try ShopReplay.run(.bytes(bytes, name: "undo-v2.jsonl"))
        #expect(outcome.isExact, "\(outcome.report())")
    }

    /// A session with time travel in it: its restores are replayed as restores.
    @Test func restoresReplayAsRestores() throws {
        let sink = MemorySink()
        let shop = Shop(recorder: try Shop.recorder(sink: sink))
        shop.launch()
        shop.run(.wait(ticks: nil))
        shop.run(.add(sku: "MUG", quantity: 2))
        let earlier = try TraceFile(bytes: sink.data, name: "earlier.jsonl")
        shop.run(.add(sku: "HAT", quantity: 1))
        try shop.restorer.restore(from: earlier, atStep: earlier.lastStep)
        shop.didRestore()
        shop.run(.add(sku: "SHIRT", quantity: 1))
        #expect(sink.text.contains("\"type\":\"restore\""))
        let outcome = try ShopReplay.run(.bytes(sink.data, name: "time-travel.jsonl"))
        #expect(outcome.isExact, "\(outcome.report())")
        #expect(outcome.restores == 4)
    }

    /// A session recorded with an argument redacted cannot send it again: the replay stops
    /// there, naming the line, the action and how to supply the value.
    @Test func aRedactedArgumentStopsTheReplayWithItsLine() throws {
        let text = try String(contentsOfFile: Self.path("traces/happy-path.jsonl"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(lines.firstIndex { $0.contains("\"action\":\"add\"") })
        lines[index] = lines[index].replacingOccurrences(of: "\"sku\":\"SHIRT\"", with: "\"sku\":\"<redacted>\"")
        let outcome = Result { try ShopReplay.run(.bytes(Array(lines.joined(separator: "\n").utf8), name: "r.jsonl")) }
        #expect(throws: TraceReplayError.self) { try outcome.get() }
        guard case .failure(let error as TraceReplayError) = outcome else { return }
        #expect(error.kind == .redactedValue)
        #expect(error.line == index + 1)
        #expect(error.description.contains("'sku' of CartStore.add"))
        #expect(error.description.contains("\"CartStore.add.sku\""))
    }

    /// `sample-app replay --check`: the report, and the exit status of each outcome.
    @Test func theReplayCommandChecksASession() throws {
        let exact = runApp(["replay", "--check", Self.path("traces/undo.jsonl")])
        #expect(exact.status == 0, "\(exact.errors)")
        #expect(exact.output.contains("the session replays exactly: 23 events"))
        let folder = try TemporaryFolder()
        let changed = folder.path("changed.jsonl")
        let text = try String(contentsOfFile: Self.path("traces/happy-path.jsonl"), encoding: .utf8)
        try text.replacingOccurrences(of: "\"cents\":1250", with: "\"cents\":1300")
            .write(toFile: changed, atomically: true, encoding: .utf8)
        let diverged = runApp(["replay", "--check", changed])
        #expect(diverged.status == 1)
        #expect(diverged.output.contains("the replay diverges at step 6 (CatalogStore.didLoad)"), "\(diverged.output)")
        let ignored = runApp(["replay", "--check", changed, "--ignore", "CatalogStore.loaded.products[*].price"])
        #expect(ignored.status == 0, "\(ignored.output)")  // only the catalog's states were edited
        #expect(ignored.output.contains("replays exactly"))
        let bad = runApp(["replay", "--check", changed, "--ignore", "["])
        #expect(bad.status == 2)
        #expect(bad.errors.contains("changed.jsonl: ignoring '['"), "\(bad.errors)")
    }
}
