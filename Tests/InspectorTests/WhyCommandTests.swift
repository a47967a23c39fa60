import Foundation
import Recorder
import Testing

@testable import Inspector

/// Two stores that react to each other, recorded through the Recorder: `LoopPing.recalculate`,
/// then `LoopPong.refresh` caused by it, and so on, `rounds` times each.
final class LoopPing: Store<Int>, @unchecked Sendable {
    func recalculate() { send { $0 += 1 } }
}

final class LoopPong: Store<Int>, @unchecked Sendable {
    func refresh() { send { $0 += 1 } }
}

func recordLoop(rounds: Int, to path: String) throws {
    let recorder = try TraceRecorder(path: path, app: "Loop")
    let ping = LoopPing(initialState: 0, recorder: recorder)
    let pong = LoopPong(initialState: 0, recorder: recorder)
    let first = pong.subscribe { count in if count > 0 && count < rounds { ping.recalculate() } }
    let second = ping.subscribe { count in if count > 0 { pong.refresh() } }
    ping.recalculate()
    withExtendedLifetime((first, second)) {}
}

@Suite struct WhyCommandTests {
    @Test func printsTheChainBackToTheActionThatStartedIt() throws {
        let file = try QueryTraceFile([QueryTraceFile.header])
        try FileManager.default.removeItem(atPath: file.path)
        try recordLoop(rounds: 3, to: file.path)
        let result = inspector(["why", file.path, "7"])
        #expect(result.status == 0)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines[0].hasPrefix("       7"))
        #expect(lines[1...4].allSatisfy { $0.hasPrefix("← ") })
        #expect(lines[1].contains("LoopPong") && lines[1].contains("refresh") && lines[1].contains("cause 5"))
        #expect(lines[4].contains("LoopPing") && lines[4].contains("recalculate") && !lines[4].contains("cause"))
        #expect(lines[5] == "seq 7: 4 causes; seq 3 (LoopPing.recalculate) started the chain")
    }

    @Test func jsonGivesTheChainAndHowItEnds() throws {
        let file = try QueryTraceFile([QueryTraceFile.header])
        try FileManager.default.removeItem(atPath: file.path)
        try recordLoop(rounds: 3, to: file.path)
        let result = inspector(["why", file.path, "7", "--format", "json"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let chain = try #require(object["chain"] as? [[String: Any]])
        #expect(chain.map { $0["seq"] as? Int } == [7, 6, 5, 4, 3])
        #expect(chain.map { $0["cause"] as? Int } == [6, 5, 4, 3, nil])
        #expect(chain.last?["store"] as? String == "LoopPing" && chain.last?["action"] as? String == "recalculate")
        #expect(object["end"] as? String == "origin" && object["endCause"] == nil)

        let broken = try QueryTraceFile([
            QueryTraceFile.header,
            #"{"type":"register","seq":1,"store":"S","state":0}"#,
            #"{"type":"transition","seq":2,"store":"S","action":"a","changed":true,"state":1,"cause":9}"#,
        ])
        let missing = inspector(["why", broken.path, "2", "--format", "json"])
        #expect(missing.status == 1)
        let end = try #require(try JSONSerialization.jsonObject(with: Data(missing.out.utf8)) as? [String: Any])
        #expect(end["end"] as? String == "missing-cause" && end["endCause"] as? Int == 9)
        #expect(missing.err.contains("names cause 9"))
    }

    @Test func aBrokenChainIsSaidSoAndExitsOne() throws {
        let file = try QueryTraceFile([
            QueryTraceFile.header,
            #"{"type":"register","seq":1,"store":"S","state":0}"#,
            #"{"type":"transition","seq":2,"store":"S","action":"a","changed":true,"state":1,"cause":3}"#,
            #"{"type":"transition","seq":3,"store":"S","action":"b","changed":true,"state":2,"cause":2}"#,
            #"{"type":"transition","seq":4,"store":"S","action":"c","changed":true,"state":3,"cause":9}"#,
        ])
        let cycle = inspector(["why", file.path, "3"])
        #expect(cycle.status == 1)
        #expect(cycle.out.split(separator: "\n").count == 2)
        #expect(
            cycle.err.contains("\(file.path):3: seq 2 names cause 3, which is already in the chain"), "\(cycle.err)")
        let missing = inspector(["why", file.path, "4"])
        #expect(missing.status == 1)
        #expect(missing.err.contains("\(file.path):5: seq 4 names cause 9, but no event of the trace has that seq"))
    }

    @Test(arguments: [
        (["why"], "missing TRACE"), (["why", "TRACE"], "missing SEQ"),
        (["why", "TRACE", "x"], "SEQ must be a whole number"), (["why", "TRACE", "99"], "no event of"),
    ])
    func badCommandLinesExitTwo(arguments: [String], message: String) throws {
        let file = try QueryTraceFile.cart()
        let result = inspector(arguments.map { $0 == "TRACE" ? file.path : $0 })
        #expect(result.status == 2)
        #expect(result.err.contains(message), "\(result.err)")
    }
}
