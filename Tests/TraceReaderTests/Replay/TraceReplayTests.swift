import Recorder
import Testing
import TraceJSON
import TraceQueries

/// A counter, as an app's `Store` subclass with command methods.
private struct Count: Codable, Equatable, Sendable {
    var value = 0
    var stamp = 0
}

private final class Counter: Store<Count>, @unchecked Sendable {
    // @unchecked: adds nothing to Store.
    init(recorder: TraceRecorder?) {
        super.init(initialState: Count(), recorder: recorder)
    }

    func add(_ amount: Int, stamp: Int = 0) {
        send(args: ["amount": amount]) {
            $0.value += amount
            $0.stamp = stamp
        }
    }

    func reset() {
        send { $0.value = 0 }
    }

    func logIn(password: String) {
        send(args: ["password": password]) { $0.value = password.count }
    }
}

/// A store that follows the counter: its actions have a `cause`.
private final class Follower: Store<Int>, @unchecked Sendable {
    // @unchecked: adds nothing to Store.
    init(recorder: TraceRecorder?) {
        super.init(initialState: 0, name: "Follower", recorder: recorder)
    }

    func follow(_ value: Int) {
        send { $0 = value }
    }

    func ignore(_ value: Int) {
        send { _ in }
    }
}

/// A reducer's actions, `Codable` as Swift synthesizes it, recorded with `record(action:state:)`.
private enum TallyAction: Codable, Equatable {
    case add(amount: Int)
    case addBoth(Int, times: Int)
    case reset
}

private final class Tally: @unchecked Sendable {
    // @unchecked: used from one test's thread only.
    private(set) var total = 0
    let recording: StoreRecording<Int>

    init(recorder: TraceRecorder?) {
        recording = StoreRecording(name: "Tally", initialState: 0, recorder: recorder)
    }

    func send(_ action: TallyAction) {
        switch action {
        case .add(let amount): total += amount
        case .addBoth(let amount, let times): total += amount * times
        case .reset: total = 0
        }
        recording.record(action: action, state: total)
    }
}

/// A trace recorded in memory by `body`.
private func record(redactedKeys: Redaction = [], _ body: (TraceRecorder) throws -> Void) throws -> [UInt8] {
    let sink = MemorySink()
    try body(try TraceRecorder(sink: sink, app: "Test", redactedKeys: redactedKeys))
    return sink.data
}

/// The counter's table: `calls` counts what was sent.
private func counterTable(_ counter: Counter, calls: Calls) -> ReplayTable {
    var table = ReplayTable()
    table.on("Counter", "add") { args in
        calls.count += 1
        counter.add(try args.int("amount"))
    }
    table.on("Counter", "reset") { _ in
        calls.count += 1
        counter.reset()
    }
    return table
}

private final class Calls: @unchecked Sendable {
    // @unchecked: used from one test's thread only.
    var count = 0
}

@Suite struct TraceReplayTests {
    @Test func aSessionOfCommandsReplaysExactly() throws {
        let trace = try record { recorder in
            let counter = Counter(recorder: recorder)
            counter.add(2)
            counter.add(3)
            counter.reset()
        }
        let calls = Calls()
        let outcome = try TraceReplay(.bytes(trace, name: "t.jsonl")).run { recorder in
            counterTable(Counter(recorder: recorder), calls: calls)
        }
        #expect(outcome.isExact, "\(outcome.report())")
        #expect(calls.count == 3)
        #expect(outcome.sentActions == 3)
        #expect(
            outcome.report() == "t.jsonl: the session replays exactly: 4 events, 3 actions sent again, 0 restores\n")
    }

    @Test func anActionWithoutAnEntryIsAnErrorNamingItBeforeAnythingIsSent() throws {
        let trace = try record { recorder in
            let counter = Counter(recorder: recorder)
            counter.add(2)
            counter.logIn(password: "x")
            counter.logIn(password: "y")
        }
        let calls = Calls()
        let error = #expect(throws: TraceReplayError.self) {
            try TraceReplay(.bytes(trace, name: "t.jsonl")).run { recorder in
                counterTable(Counter(recorder: recorder), calls: calls)
            }
        }
        #expect(error?.kind == .missingActions)
        #expect(error?.line == 4)
        #expect(
            error?.description.contains(
                "t.jsonl:4: the replay table has no entry for Counter.logIn (line 4, and 1 more)") == true)
        #expect(calls.count == 0)
    }

    @Test func aCausedActionIsNotSentAgainAndHappensByItself() throws {
        var subscriptions: [Subscription] = []
        let trace = try record { recorder in
            let counter = Counter(recorder: recorder)
            let mirror = Follower(recorder: recorder)
            subscriptions.append(counter.subscribe { if $0.value > 0 { mirror.follow($0.value) } })
            counter.add(4)
        }
        #expect(String(decoding: trace, as: UTF8.self).contains("\"cause\":"))
        let sentToMirror = Calls()
        let outcome = try TraceReplay(.bytes(trace, name: "t.jsonl")).run { recorder in
            let counter = Counter(recorder: recorder)
            let mirror = Follower(recorder: recorder)
            subscriptions.append(counter.subscribe { if $0.value > 0 { mirror.follow($0.value) } })
            var table = counterTable(counter, calls: Calls())
            table.on("Follower", "follow") { _ in sentToMirror.count += 1 }
            return table
        }
        #expect(outcome.isExact, "\(outcome.report())")
        #expect(sentToMirror.count == 0)
    }

    /// The recording's reaction, then a replay whose store reacts differently, or not at all.
    private func replayReaction(_ react: (@Sendable (Follower, Int) -> Void)?) throws -> ReplayOutcome {
        var subscriptions: [Subscription] = []
        let trace = try record { recorder in
            let counter = Counter(recorder: recorder)
            let mirror = Follower(recorder: recorder)
            subscriptions.append(counter.subscribe { if $0.value > 0 { mirror.follow($0.value) } })
            counter.add(4)
            counter.add(1)
        }
        return try TraceReplay(.bytes(trace, name: "t.jsonl")).run { recorder in
            let counter = Counter(recorder: recorder)
            let mirror = Follower(recorder: recorder)
            if let react { subscriptions.append(counter.subscribe { if $0.value > 0 { react(mirror, $0.value) } }) }
            return counterTable(counter, calls: Calls())
        }
    }

    @Test func aMissingCausedActionIsADivergence() throws {
        let outcome = try replayReaction(nil)
        let difference = try #require(outcome.difference)
        // register, register, add, follow (caused by the add): the replay has the next add there.
        #expect(difference.first.event?.action == "follow")
        #expect(difference.second.event?.action == "add")
        #expect(outcome.report().contains("the replay diverges at step 4 (Follower.follow)"))
    }

    @Test func aDifferentCausedActionIsADivergence() throws {
        let outcome = try replayReaction { mirror, value in mirror.ignore(value) }
        let difference = try #require(outcome.difference)
        #expect(difference.first.event?.action == "follow")
        #expect(difference.second.event?.action == "ignore")
        #expect(difference.fields.contains("action"))
    }

    @Test func aCodableReducerActionDecodesByItself() throws {
        let trace = try record { recorder in
            let tally = Tally(recorder: recorder)
            tally.send(.add(amount: 2))
            tally.send(.addBoth(3, times: 2))
            tally.send(.reset)
            tally.send(.add(amount: 5))
        }
        var received: [TallyAction] = []
        let outcome = try TraceReplay(.bytes(trace, name: "t.jsonl")).run { recorder in
            let tally = Tally(recorder: recorder)
            var table = ReplayTable()
            table.onEvery("Tally", as: TallyAction.self) { action in
                received.append(action)
                tally.send(action)
            }
            return table
        }
        #expect(outcome.isExact, "\(outcome.report())")
        #expect(received == [.add(amount: 2), .addBoth(3, times: 2), .reset, .add(amount: 5)])
    }

    @Test func ignoredPathsLeaveGeneratedValuesOut() throws {
        let trace = try record { recorder in
            Counter(recorder: recorder).add(1, stamp: 1_700_000_000)
        }
        func replay(ignoring: [String]) throws -> ReplayOutcome {
            try TraceReplay(.bytes(trace, name: "t.jsonl"), ignoring: ignoring).run { recorder in
                let counter = Counter(recorder: recorder)
                var table = ReplayTable()
                table.on("Counter", "add") { args in counter.add(try args.int("amount"), stamp: 1_800_000_000) }
                return table
            }
        }
        let strict = try replay(ignoring: [])
        #expect(strict.difference?.fields == ["state"])
        #expect(strict.report().contains("stamp"))
        #expect(try replay(ignoring: ["Counter.stamp"]).isExact)
        let error = #expect(throws: TraceReplayError.self) { try replay(ignoring: ["Counter.["]) }
        #expect(error?.kind == .badIgnorePath)
    }

    @Test func aRedactedArgumentIsSuppliedByTheAppOrStopsTheReplay() throws {
        let trace = try record(redactedKeys: ["password"]) { recorder in
            let counter = Counter(recorder: recorder)
            counter.add(1)
            counter.logIn(password: "hunter2")
        }
        #expect(String(decoding: trace, as: UTF8.self).contains("\"password\":\"<redacted>\""))
        func replay(_ values: [String: JSONValue]) throws -> ReplayOutcome {
            try TraceReplay(.bytes(trace, name: "t.jsonl"), redactedValues: values, redactedKeys: ["password"]).run {
                recorder in
                let counter = Counter(recorder: recorder)
                var table = counterTable(counter, calls: Calls())
                table.on("Counter", "logIn") { args in counter.logIn(password: try args.string("password")) }
                return table
            }
        }
        let error = #expect(throws: TraceReplayError.self) { try replay([:]) }
        #expect(error?.kind == .redactedValue)
        #expect(error?.line == 4)
        #expect(error?.description.contains("\"Counter.logIn.password\"") == true)
        #expect(try replay(["Counter.logIn.password": .string("hunter2")]).isExact)
        // A wrong value is sent, and the state it makes is the divergence.
        #expect(try replay(["Counter.logIn.password": .string("hunter")]).difference?.fields == ["state"])
    }

    @Test func aCallThatThrowsStopsTheReplayAtItsLine() throws {
        struct Refused: Error {}
        let trace = try record { recorder in
            let counter = Counter(recorder: recorder)
            counter.add(1)
            counter.reset()
        }
        let error = #expect(throws: TraceReplayError.self) {
            try TraceReplay(.bytes(trace, name: "t.jsonl")).run { recorder in
                let counter = Counter(recorder: recorder)
                var table = counterTable(counter, calls: Calls())
                table.on("Counter", "reset") { _ in throw Refused() }
                return table
            }
        }
        #expect(error?.kind == .actionFailed)
        #expect(error?.line == 4)
        #expect(error?.description.contains("Counter.reset (step 3) threw") == true)
    }

    @Test func aDivergenceBeforeAStopIsTheOutcome() throws {
        struct Refused: Error {}
        let trace = try record { recorder in
            let counter = Counter(recorder: recorder)
            counter.add(1)
            counter.reset()
        }
        let outcome = try TraceReplay(.bytes(trace, name: "t.jsonl")).run { recorder in
            let counter = Counter(recorder: recorder)
            var table = ReplayTable()
            table.on("Counter", "add") { _ in counter.add(7) }
            table.on("Counter", "reset") { _ in throw Refused() }
            return table
        }
        #expect(outcome.difference?.first.event?.action == "add")
    }

    @Test func aMissingOrMistypedArgumentIsAnErrorNamingIt() throws {
        let trace = try record { recorder in Counter(recorder: recorder).add(1) }
        for (key, expected) in [("amount ", "has no argument 'amount '"), ("amount", "not a string")] {
            let error = #expect(throws: TraceReplayError.self) {
                try TraceReplay(.bytes(trace, name: "t.jsonl")).run { recorder in
                    let counter = Counter(recorder: recorder)
                    var table = ReplayTable()
                    table.on("Counter", "add") { args in counter.add(Int(try args.string(key)) ?? 0) }
                    return table
                }
            }
            #expect(error?.kind == .badArgument)
            #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
        }
    }

    @Test func aRestoreWithoutAWayToRestoreIsAnErrorBeforeAnythingIsSent() throws {
        let text = """
            {"type":"header","format":"rewind-trace","version":1,"machines":{}}
            {"type":"register","seq":1,"store":"Counter","state":{"value":0,"stamp":0}}
            {"type":"transition","seq":2,"store":"Counter","action":"add","changed":true,"state":{"value":1,"stamp":0},"args":{"amount":1}}
            {"type":"restore","seq":3,"store":"Counter","state":{"value":0,"stamp":0},"step":1}

            """
        let calls = Calls()
        let error = #expect(throws: TraceReplayError.self) {
            try TraceReplay(.bytes(Array(text.utf8), name: "t.jsonl")).run { recorder in
                counterTable(Counter(recorder: recorder), calls: calls)
            }
        }
        #expect(error?.kind == .missingRestore)
        #expect(error?.line == 4)
        #expect(calls.count == 0)
    }

    @Test func aTraceThatCannotBeReadIsAnError() throws {
        let error = #expect(throws: TraceReplayError.self) {
            try TraceReplay(trace: "/nonexistent/t.jsonl").run { _ in ReplayTable() }
        }
        #expect(error?.kind == .unreadableTrace)
        #expect(error?.path == "/nonexistent/t.jsonl")
    }

    @Test func aSetupOrARestoreThatThrowsIsAnError() throws {
        struct Broken: Error {}
        let text = """
            {"type":"header","format":"rewind-trace","version":1,"machines":{}}
            {"type":"register","seq":1,"store":"Counter","state":{"value":0,"stamp":0}}
            {"type":"restore","seq":2,"store":"Counter","state":{"value":0,"stamp":0},"step":1}

            """
        let replay = try TraceReplay(.bytes(Array(text.utf8), name: "t.jsonl"))
        let setup = #expect(throws: TraceReplayError.self) { try replay.run { _ in throw Broken() } }
        #expect(setup?.kind == .setupFailed)
        #expect(setup?.description.contains("Broken") == true)
        let restore = #expect(throws: TraceReplayError.self) {
            try replay.run { recorder in
                _ = Counter(recorder: recorder)
                var table = ReplayTable()
                table.onRestore { _ in throw Broken() }
                return table
            }
        }
        #expect(restore?.kind == .restoreFailed)
        #expect(restore?.line == 3)
        #expect(restore?.description.contains("restoring Counter to step 2 threw") == true)
    }
}
