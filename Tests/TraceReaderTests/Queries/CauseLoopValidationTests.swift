import Foundation
import Testing

@testable import TraceReader

/// The `cause-loop` warning of `TraceValidator`: stores that react to each other in a loop.
@Suite struct CauseLoopValidationTests {
    typealias F = QueryFixtures

    @Test func aLoopBetweenTwoRecordedStoresIsOneWarningWithItsCycle() throws {
        let bytes = try F.recordedLoop(rounds: 12)
        let report = TraceValidator().validate(bytes: bytes)
        #expect(report.problems.count == 1)
        let problem = try #require(report.problems.first)
        #expect(problem.kind == .causeLoop)
        #expect(problem.severity == .warning)
        // Seq 3 starts the chain; PingStore.recalculate is at 3, 5, 7, …: its 9th time is seq 19, line 20.
        #expect(problem.seq == 19)
        #expect(problem.line == 20)
        #expect(problem.store == "PingStore")
        #expect(
            problem.message.hasPrefix(
                "cause loop: PingStore.recalculate → PongStore.refresh → PingStore.recalculate … repeated 12 times (seq 3 → 4 → … → 26)"
            ), "\(problem.message)")
        #expect(report.warnings == 1 && report.errors == 0)
        #expect(report.passes())
        #expect(!report.passes(strict: true))
    }

    @Test(arguments: [(5, 6), (8, 9), (11, 12), (12, nil), (40, nil)] as [(Int, Int?)])
    func theThresholdIsTheMostTimesAChainMayPassThroughOneAction(depth: Int, reportedAtOccurrence: Int?) throws {
        let bytes = try F.recordedLoop(rounds: 12)
        let report = TraceValidator(maximumCauseDepth: depth).validate(bytes: bytes)
        // PingStore.recalculate's n-th occurrence in the chain is seq 3 + 2 (n − 1).
        #expect(report.problems.map(\.seq) == (reportedAtOccurrence.map { [3 + 2 * ($0 - 1)] } ?? []))
        #expect(report.problems.allSatisfy { $0.message.contains("repeated 12 times") })
    }

    @Test func chainsWithoutLoopsAndTracesWithoutCausesHaveNoWarning() throws {
        var lines = [F.header, F.register(1, "A", state: "0"), F.register(2, "B", state: "0")]
        // Many short chains: A.x caused by B.y, each started anew.
        for round in 0..<50 {
            let seq = 3 + round * 2
            lines.append(F.transition(seq, "B", "y", state: "\(round)"))
            lines.append(F.transition(seq + 1, "A", "x", state: "\(round)", cause: seq))
        }
        #expect(TraceValidator(maximumCauseDepth: 1).validate(bytes: F.bytes(lines)).problems.isEmpty)
        let noCauses = lines.map { $0.replacingOccurrences(of: #","cause":"#, with: #","note":"#) }
        #expect(TraceValidator(maximumCauseDepth: 1).validate(bytes: F.bytes(noCauses)).problems.isEmpty)
    }

    @Test func causesThatPointForwardOrAtThemselvesStartNewChains() throws {
        var lines = [F.header, F.register(1, "A", state: "0")]
        for seq in 2..<40 {
            lines.append(F.transition(seq, "A", "x", state: "\(seq)", cause: seq % 2 == 0 ? seq : seq + 1))
        }
        let report = TraceValidator(maximumCauseDepth: 1).validate(bytes: F.bytes(lines))
        #expect(report.problems.isEmpty, "\(report.problems)")
    }

    @Test func aSelfLoopAndTwoSeparateLoopsAreEachReportedOnce() throws {
        var lines = [F.header, F.register(1, "A", state: "0"), F.register(2, "B", state: "0")]
        var seq = 3
        // A.tick caused by the previous A.tick, 5 times.
        lines.append(F.transition(seq, "A", "tick", state: "0"))
        for _ in 0..<4 {
            seq += 1
            lines.append(F.transition(seq, "A", "tick", state: "\(seq)", cause: seq - 1))
        }
        // Another chain, started anew: B.a → B.b → B.a …, 6 times each.
        seq += 1
        lines.append(F.transition(seq, "B", "a", state: "0"))
        for index in 1..<12 {
            seq += 1
            lines.append(F.transition(seq, "B", index % 2 == 0 ? "a" : "b", state: "\(seq)", cause: seq - 1))
        }
        let report = TraceValidator(maximumCauseDepth: 3).validate(bytes: F.bytes(lines))
        #expect(report.problems.map(\.kind) == [.causeLoop, .causeLoop])
        #expect(report.problems.map(\.seq) == [6, 14])
        #expect(
            report.problems[0].message.hasPrefix("cause loop: A.tick → A.tick … repeated 5 times (seq 3 → 4 → … → 7)"),
            "\(report.problems[0].message)")
        #expect(
            report.problems[1].message.hasPrefix("cause loop: B.a → B.b → B.a … repeated 6 times (seq 8 → 9 → … → 19)"),
            "\(report.problems[1].message)")
    }

    @Test func aLongRunawayLoopIsFoundWithBoundedMemoryAndAgreesOnEveryCore() throws {
        // 100,000 events in one chain: beyond the ring, so old links are forgotten as it goes.
        var text = F.header + "\n" + F.register(1, "A", state: "0") + "\n" + F.register(2, "B", state: "0") + "\n"
        text += F.transition(3, "A", "x", state: "0") + "\n"
        for seq in 4..<100_003 {
            text +=
                F.transition(seq, seq % 2 == 0 ? "B" : "A", seq % 2 == 0 ? "y" : "x", state: "1", cause: seq - 1) + "\n"
        }
        let bytes = Array(text.utf8)
        let sequential = TraceValidator().validate(bytes: bytes)
        #expect(sequential.problems.map(\.kind) == [.causeLoop])
        #expect(
            sequential.problems.first?.message.contains("(seq 3 → 4 → … → 100002)") == true, "\(sequential.problems)")

        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rewind-cause-loop-\(UUID().uuidString).jsonl")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var parallel = TraceValidator()
        parallel.parallelism = 3
        parallel.parallelThreshold = 0
        parallel.blockSize = 4096
        var fromFile = try parallel.validate(file: url.path)
        fromFile.file = sequential.file
        #expect(fromFile == sequential)
    }
}
