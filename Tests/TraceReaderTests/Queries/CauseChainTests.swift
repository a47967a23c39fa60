import Foundation
import TestSupport
import Testing

@testable import TraceQueries
@testable import TraceReader

@Suite struct CauseChainTests {
    typealias F = QueryFixtures

    @Test func followsTheCausesOfARecordedReactionBackToItsStart() throws {
        let trace = try TraceFile(bytes: try F.recordedLoop(rounds: 3))
        // Seq 3 PingStore.recalculate starts it; then 4 Pong, 5 Ping, 6 Pong, 7 Ping, 8 Pong.
        let chain = try #require(CauseChain(of: 8, in: trace))
        #expect(chain.events.map(\.seq) == [8, 7, 6, 5, 4, 3])
        #expect(
            chain.events.map(\.store) == ["PongStore", "PingStore", "PongStore", "PingStore", "PongStore", "PingStore"])
        #expect(chain.events.allSatisfy { $0.source?.hasPrefix("TraceReaderTests/QueryFixtures.swift:") == true })
        #expect(chain.end == .origin)
    }

    @Test func anEventWithoutCauseIsItsOwnOrigin() throws {
        let trace = try TraceFile(bytes: try F.recordedLoop(rounds: 1))
        let chain = try #require(CauseChain(of: 3, in: trace))
        #expect(chain.events.map(\.seq) == [3])
        #expect(chain.end == .origin)
        #expect(CauseChain(of: 99, in: trace) == nil)
        #expect(CauseChain(of: 0, in: trace) == nil)
    }

    @Test func aCauseMissingFromTheTraceEndsTheChain() throws {
        let trace = try F.open([
            F.header, F.register(1, "S", state: "0"),
            F.transition(2, "S", "a", state: "1", cause: 1),
            F.transition(3, "S", "b", state: "2", cause: 40),
        ])
        let chain = try #require(CauseChain(of: 3, in: trace))
        #expect(chain.events.map(\.seq) == [3])
        #expect(chain.end == .missingCause(seq: 40))
    }

    @Test(arguments: [
        // Itself.
        ([F.transition(2, "S", "a", state: "1", cause: 2)], 2, [2], 2),
        // Forward, and back again.
        (
            [F.transition(2, "S", "a", state: "1", cause: 3), F.transition(3, "T", "b", state: "1", cause: 2)], 3,
            [3, 2], 3
        ),
        // A longer circle.
        (
            [
                F.transition(2, "S", "a", state: "1", cause: 4), F.transition(3, "S", "b", state: "1", cause: 2),
                F.transition(4, "S", "c", state: "1", cause: 3),
            ], 4, [4, 3, 2], 4
        ),
    ])
    func aCircleOfCausesIsFoundAndStops(events: [String], seq: Int, chainSeqs: [Int], backTo: Int) throws {
        let trace = try F.open([F.header, F.register(1, "S", state: "0")] + events)
        let chain = try #require(CauseChain(of: seq, in: trace))
        #expect(chain.events.map(\.seq) == chainSeqs)
        #expect(chain.end == .cycle(seq: backTo))
    }

    /// The walk keeps no set of the seqs it passed, yet stops where a set would: on random
    /// damaged causes (forward, backward, to itself, missing), each chain and its end are those
    /// of the walk that remembers every seq.
    @Test func theWalkStopsWhereASetOfSeenSeqsWould() throws {
        var random = SeededGenerator(seed: 5)
        let folder = try TemporaryFolder()
        for round in 0..<300 {
            let count = Int.random(in: 1...12, using: &random)
            var causes: [Int: Int] = [:]
            var lines = [F.header, F.register(1, "S", state: "0")]
            for seq in 2...(count + 1) {
                let cause = Int.random(in: 0...(count + 3), using: &random)
                causes[seq] = cause
                lines.append(F.transition(seq, "S", "a", state: "1", cause: cause == 0 ? nil : cause))
            }
            // In memory, and from a file (its lines read a window at a time).
            let path = folder.path("t\(round).jsonl")
            try String(decoding: F.bytes(lines), as: UTF8.self).write(toFile: path, atomically: false, encoding: .utf8)
            for trace in [try F.open(lines), try TraceFile(path: path)] {
                for start in 1...(count + 1) {
                    // The walk that remembers every seq.
                    var expected: [Int] = []
                    var seen: Set<Int> = []
                    var wanted = start
                    var end: CauseChain.End
                    while true {
                        guard wanted >= 1 && wanted <= count + 1 else {
                            end = .missingCause(seq: wanted)
                            break
                        }
                        expected.append(wanted)
                        seen.insert(wanted)
                        guard let cause = causes[wanted], cause != 0 else {
                            end = .origin
                            break
                        }
                        if seen.contains(cause) {
                            end = .cycle(seq: cause)
                            break
                        }
                        wanted = cause
                    }
                    var walked: [Int] = []
                    let found = CauseChain.walk(from: start, in: trace) { walked.append($0.seq) }
                    #expect(walked == expected && found == end, "round \(round), from \(start)")
                }
            }
        }
    }

    /// Lines read through a window of the file: a long chain read backward gives every event,
    /// and a file cut short after it was opened ends the chain where its lines went missing.
    @Test func aLongChainIsReadFromTheFileThroughAWindow() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("chain.jsonl")
        let lines =
            [F.header, F.register(1, "S", state: "0")]
            + (2...3000).map {
                F.transition($0, "S", "a", state: "\"\(String(repeating: "x", count: 500))\"", cause: $0 - 1)
            }
        try String(decoding: F.bytes(lines), as: UTF8.self).write(toFile: path, atomically: false, encoding: .utf8)
        let trace = try TraceFile(path: path)
        var seqs: [Int] = []
        #expect(CauseChain.walk(from: 3000, in: trace) { seqs.append($0.seq) } == .origin)
        #expect(seqs == Array((1...3000).reversed()))
        try String(decoding: F.bytes(Array(lines.prefix(1001))), as: UTF8.self).write(
            toFile: path, atomically: false, encoding: .utf8)
        seqs = []
        let end = CauseChain.walk(from: 2000, in: trace) { seqs.append($0.seq) }
        #expect(end == nil && seqs.isEmpty)
        seqs = []
        #expect(CauseChain.walk(from: 1000, in: trace) { seqs.append($0.seq) } == .origin)
        #expect(seqs == Array((1...1000).reversed()))
    }
}
