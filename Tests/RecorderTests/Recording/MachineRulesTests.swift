import Recorder
import Synchronization
import TestSupport
import Testing
import TraceReader

/// Rules over time declared beside a machine (`deadlines`, `mustNotEndIn`) reach the trace
/// header of a pinned store exactly as declared, and `inspector validate` checks them.
@Suite struct MachineRulesTests {
    /// A door: it must open within 2 of its transitions and close within 1 and half a second,
    /// and a run must not end with it open or closing.
    enum Door: String, CaseIterable, StateMachine, Codable, Sendable {
        case closed, opening, open, closing

        static let initialCase = Door.closed
        var currentCase: Door { self }
        static func transitions(from source: Door) -> [Door] {
            switch source {
            case .closed: [.opening]
            case .opening: [.opening, .open]
            case .open: [.closing]
            case .closing: [.closed]
            }
        }
        static var deadlines: [Door: Deadline] {
            [.closing: .within(transitions: 1, seconds: 0.5), .opening: .within(transitions: 2)]
        }
        static var mustNotEndIn: Set<Door> { [.closing, .open] }
    }

    /// A machine whose deadlines the format cannot hold.
    enum Lamp: String, CaseIterable, StateMachine, Codable, Sendable {
        case off, warming, on

        static let initialCase = Lamp.off
        var currentCase: Lamp { self }
        static func transitions(from source: Lamp) -> [Lamp] {
            switch source {
            case .off: [.warming]
            case .warming: [.on]
            case .on: [.off]
            }
        }
        static var deadlines: [Lamp: Deadline] {
            [.warming: .within(transitions: 0), .on: .within(transitions: -1, seconds: 2.25)]
        }
    }

    /// The rules the validator reads from the header of a trace recorded with `machines`.
    static func headerRules(_ machines: MachineList, onError: (@Sendable (RecordingFailure) -> Void)? = nil) throws
        -> (rules: [TraceRule], header: String)
    {
        let sink = MemorySink()
        _ = try TraceRecorder(sink: sink, machines: machines, onError: onError)
        return (try TraceFile(bytes: sink.data).header.rules, sink.lines[0])
    }

    @Test func theHeaderHoldsExactlyThePinnedMachinesRulesInCaseOrder() throws {
        let (rules, _) = try Self.headerRules(["Front": Door.self, "Counter": CatalogState.self, "Back": Door.self])
        // Each pinned name gets its type's rules, in the order of `allCases`; a machine that
        // declares none (CatalogState) gets none.
        let door: (String) -> [TraceRule] = { store in
            [
                TraceRule(store: store, condition: .within(caseName: "opening", events: 2, seconds: nil)),
                TraceRule(store: store, condition: .within(caseName: "closing", events: 1, seconds: 0.5)),
                TraceRule(store: store, condition: .notAtEnd(["open", "closing"])),
            ]
        }
        #expect(rules == door("Front") + door("Back"))
    }

    @Test func aDeclarationReadsBackIdenticallyFromTheHeaderAndFromASpecFile() throws {
        let (rules, header) = try Self.headerRules(["Door": Door.self])
        let declared = Door.deadlines
        for rule in rules {
            switch rule.condition {
            case .within(let caseName, let events, let seconds):
                let deadline = try #require(Door(rawValue: caseName).flatMap { declared[$0] })
                #expect(events == deadline.transitions && seconds == deadline.seconds)
            case .notAtEnd(let cases):
                #expect(Set(cases.compactMap(Door.init(rawValue:))) == Door.mustNotEndIn)
                #expect(cases.count == Door.mustNotEndIn.count)
            }
        }
        #expect(rules.count == declared.count + 1)
        // The header's `rules` member, as a spec file gives it, reads back as the same rules.
        let start = try #require(header.range(of: #","rules":"#)).upperBound
        let spec = #"{"machines":{},"rules":"# + header[start...]
        #expect(try SpecFile.contents(of: Array(spec.utf8), file: "spec.json").rules == rules)
    }

    @Test func aHeaderWithoutRulesHasNoRulesMember() throws {
        let (rules, header) = try Self.headerRules(["CatalogStore": CatalogState.self])
        #expect(rules.isEmpty)
        #expect(!header.contains("rules"))
        #expect(try !Self.headerRules([:]).header.contains("rules"))
    }

    @Test func rulesBrokenInARecordedRunAreReportedWhereTheFormatSays() throws {
        let sink = MemorySink()
        let recorder = try TraceRecorder(sink: sink, machines: ["Door": Door.self])
        let door = Store(initialState: Door.closed, name: "Door", recorder: recorder)
        door.send("open") { $0 = .opening }  // line 3, seq 2: enters opening
        door.send("nudge") { $0 = .opening }  // line 4, seq 3: its 1st transition in opening
        door.send("nudge") { $0 = .opening }  // line 5, seq 4: the 2nd keeps it there: overdue
        door.send("opened") { $0 = .open }  // line 6, seq 5: the store's last event, in `open`
        let report = TraceValidator().validate(bytes: sink.data)
        #expect(report.problems.map(\.kind) == [.overdue, .unresolved])
        #expect(report.problems.map(\.line) == [5, 6])
        #expect(report.problems.map(\.seq) == [4, 5])
        #expect(report.problems.allSatisfy { $0.store == "Door" })
    }

    @Test func anUnpinnedStoreWithRulesIsReportedOnceAndItsRulesAreNotWritten() throws {
        let sink = MemorySink()
        let failures = Mutex<[RecordingFailure.Kind]>([])
        let recorder = try TraceRecorder(
            sink: sink, machines: ["Door": Door.self],
            onError: { failure in failures.withLock { $0.append(failure.kind) } })
        let pinned = Store(initialState: Door.closed, name: "Door", recorder: recorder)
        let plain = Store(initialState: CatalogState.idle, name: "Catalog", recorder: recorder)
        #expect(failures.withLock { $0 }.isEmpty)
        let first = Store(initialState: Door.closed, name: "Door-2", recorder: recorder)
        let second = Store(initialState: Door.closed, name: "Door-3", recorder: recorder)
        #expect(failures.withLock { $0 } == [.rulesNotPinned])
        #expect(try TraceFile(bytes: sink.data).header.rules.allSatisfy { $0.store == "Door" })
        _ = (pinned, plain, first, second)
    }

    @Test func aDeadlineTheFormatCannotHoldIsLeftOutAndReported() throws {
        let failures = Mutex<[RecordingFailure.Kind]>([])
        let (rules, _) = try Self.headerRules(
            ["Lamp": Lamp.self], onError: { failure in failures.withLock { $0.append(failure.kind) } })
        // `warming` has no limit left, so no rule; `on` keeps its seconds. The trace still opens.
        #expect(rules == [TraceRule(store: "Lamp", condition: .within(caseName: "on", events: nil, seconds: 2.25))])
        #expect(failures.withLock { $0 } == [.invalidDeadline])
    }
}
