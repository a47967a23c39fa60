import Foundation

@testable import Recorder
@testable import TraceReader

/// Recalculates whenever the other store changes: one half of a loop.
final class PingStore: Store<Int>, @unchecked Sendable {
    func recalculate() { send { $0 += 1 } }
}

/// Refreshes whenever `PingStore` changes: the other half.
final class PongStore: Store<Int>, @unchecked Sendable {
    func refresh() { send { $0 += 1 } }
}

/// Traces for the query tests: recorded through the real recorder, or written line by line.
enum QueryFixtures {
    /// Two stores that react to each other's changes, recorded: `PingStore.recalculate` (no cause),
    /// then `PongStore.refresh` caused by it, `PingStore.recalculate` caused by that, … until each
    /// has run `rounds` times. Seqs 1 and 2 are the register events, then the chain from seq 3.
    static func recordedLoop(rounds: Int) throws -> [UInt8] {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink, app: "Loop")
        let ping = PingStore(initialState: 0, recorder: recorder)
        let pong = PongStore(initialState: 0, recorder: recorder)
        let pingWatchesPong = pong.subscribe { count in
            if count > 0 && count < rounds { ping.recalculate() }
        }
        let pongWatchesPing = ping.subscribe { count in
            if count > 0 { pong.refresh() }
        }
        ping.recalculate()
        withExtendedLifetime((pingWatchesPong, pongWatchesPing)) {}
        return sink.data
    }

    /// A header without machines.
    static let header = #"{"type":"header","format":"rewind-trace","version":1,"machines":{}}"#

    /// A register line.
    static func register(_ seq: Int, _ store: String, state: String, elapsed: Double? = nil) -> String {
        let time = elapsed.map { #","elapsed":\#($0)"# } ?? ""
        return #"{"type":"register","seq":\#(seq)\#(time),"store":"\#(store)","state":\#(state)}"#
    }

    /// A transition line; `extra` is added members, such as `,"cause":3`.
    static func transition(
        _ seq: Int, _ store: String, _ action: String, state: String, changed: Bool = true,
        source: String? = nil, cause: Int? = nil, elapsed: Double? = nil
    ) -> String {
        var members = #""type":"transition","seq":\#(seq)"#
        if let elapsed { members += #","elapsed":\#(elapsed)"# }
        members += #","store":"\#(store)","action":"\#(action)","changed":\#(changed),"state":\#(state)"#
        if let source { members += #","source":"\#(source)""# }
        if let cause { members += #","cause":\#(cause)"# }
        return "{" + members + "}"
    }

    /// The trace of `lines` (the header first), each ending in `\n`.
    static func bytes(_ lines: [String]) -> [UInt8] {
        Array(lines.map { $0 + "\n" }.joined().utf8)
    }

    /// Opens `lines` from memory.
    static func open(_ lines: [String]) throws -> TraceFile {
        try TraceFile(bytes: bytes(lines))
    }
}
