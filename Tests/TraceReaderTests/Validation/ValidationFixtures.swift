import Recorder
import TestSupport
import Testing

/// Stores recorded by the validation tests through the real `TraceRecorder`, and a seeded random
/// generator for the mutation tests. Nested, so that their names cannot clash with other tests'.
enum ValidationFixtures {
    /// A door: closed ⇄ open, closed ⇄ locked.
    enum Door: StateMachine, Equatable, Codable, Sendable {
        case closed
        case open(visitors: Int)
        case locked(code: String)

        enum Case: String, CaseIterable { case closed, open, locked }

        static let initialCase = Case.closed

        var currentCase: Case {
            switch self {
            case .closed: .closed
            case .open: .open
            case .locked: .locked
            }
        }

        static func transitions(from source: Case) -> [Case] {
            switch source {
            case .closed: [.open, .locked]
            case .open, .locked: [.closed]
            }
        }
    }

    final class DoorStore: Store<Door>, @unchecked Sendable {
        init(name: String, recorder: TraceRecorder) {
            super.init(initialState: .closed, name: name, recorder: recorder)
        }

        func open(_ visitors: Int) { send(args: ["visitors": visitors]) { $0 = .open(visitors: visitors) } }
        func close() { send { $0 = .closed } }
        func lock() { send(args: ["code": "1234"]) { $0 = .locked(code: "1234") } }
    }

    struct Tally: Equatable, Codable, Sendable {
        var count = 0
        var note = "a \"quoted\" note\twith\u{1B}[31m escapes"
    }

    /// Recorded traces of 12 actions (seeds 0 to 24) for the mutation tests, recorded once per
    /// test process: recording symbolicates each illegal transition's call stack, which costs
    /// hundreds of milliseconds in this large debug test binary, and 600 mutations start from
    /// these. The mutations, not the originals, make the variety.
    static let mutationOriginals: [[UInt8]] = (0..<25).compactMap { seed in
        try? recordedTrace(seed: UInt64(seed), actions: 12)
    }

    /// The original of the mutation with `seed`.
    static func mutationOriginal(seed: UInt64) throws -> [UInt8] {
        let originals = mutationOriginals
        try #require(originals.count == 25, "the mutation tests' traces could not be recorded")
        return originals[Int(seed % UInt64(originals.count))]
    }

    /// A trace recorded by the real recorder: two doors (some of their actions illegal), a
    /// tally store without a machine, and a door that reacts to the other (a `cause`).
    ///
    /// Recorded on a thread of its own, so that every recording has the same call stacks
    /// whichever test asks: the recorder symbolicates an illegal transition's stack once per
    /// distinct stack (about a second of CPU in this large debug test binary), and remembers it.
    static func recordedTrace(seed: UInt64, actions: Int = 40) throws -> [UInt8] {
        try onOwnThread { try record(seed: seed, actions: actions) }
    }

    private static func record(seed: UInt64, actions: Int) throws -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        let sink = MemorySink()
        let recorder = try TraceRecorder(
            sink: sink, app: "Doors", machines: ["Front": Door.self, "Back": Door.self], onError: { _ in })
        let front = DoorStore(name: "Front", recorder: recorder)
        let back = DoorStore(name: "Back", recorder: recorder)
        let tally = Store<Tally>(initialState: Tally(), name: "Tally", recorder: recorder)
        let subscription = front.subscribe { state in
            if case .locked = state { back.close() }
        }
        for _ in 0..<actions {
            let door = Bool.random(using: &random) ? front : back
            switch Int.random(in: 0..<4, using: &random) {
            case 0: door.open(Int.random(in: 1...5, using: &random))
            case 1: door.close()
            case 2: door.lock()
            default: tally.send("count", args: ["by": 1]) { $0.count += 1 }
            }
        }
        _ = subscription
        return sink.data
    }
}
