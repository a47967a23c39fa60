import TestSupport
import Testing

@testable import Recorder
@testable import TraceReader

/// shared/TRACE_FORMAT.md, "Rules over time": `within` (`overdue`) and `notAtEnd`
/// (`unresolved`), one small trace per sentence.
@Suite struct RulesOverTimeTests {
    typealias T = ValidationTesting
    typealias Found = ValidationTesting.Found

    /// CatalogStore may stay in loading (loading → loading is allowed).
    private static let machines =
        #"{"CatalogStore":{"initial":"idle","transitions":{"idle":["loading"],"loading":["loading","loaded"],"loaded":["loading"]}}}"#

    private func header(_ rules: String) -> String {
        T.header(machines: Self.machines, rules: "[" + rules + "]")
    }

    private func event(_ seq: Int, _ from: String, _ to: String, at elapsed: Double? = nil) -> String {
        T.transition(seq, from, to, body: #""state":{}"#, elapsed: elapsed)
    }

    private func note(_ seq: Int, at elapsed: Double, store: String? = nil) -> String {
        #"{"type":"note","seq":\#(seq),"elapsed":\#(elapsed)\#(store.map { #","store":"\#($0)""# } ?? "")}"#
    }

    private func register(_ seq: Int, _ caseName: String, at elapsed: Double, store: String = "CatalogStore") -> String
    {
        #"{"type":"register","seq":\#(seq),"elapsed":\#(elapsed),"store":"\#(store)","case":"\#(caseName)","state":{}}"#
    }

    // MARK: within events

    // "if the store's K-th transition after entering still has to equal to the case, that
    // transition is overdue"; "each entry is reported at most once per rule".
    @Test func theKthTransitionThatStaysIsOverdueOncePerEntry() {
        let report = T.validate([
            header(#"{"store":"CatalogStore","case":"loading","within":{"events":2}}"#), T.register(1),
            event(2, "idle", "loading"), event(3, "loading", "loading"), event(4, "loading", "loading"),
            event(5, "loading", "loading"), event(6, "loading", "loaded"), event(7, "loaded", "loading"),
            event(8, "loading", "loading"), event(9, "loading", "loaded"),
        ])
        #expect(report.problems.map(Found.init) == [Found(.overdue, line: 5, seq: 4, store: "CatalogStore")])
        #expect(report.problems.first?.severity == .error)
        #expect(report.problems.first?.message.contains("since seq 2 (line 3)") == true)
    }

    @Test func oneEventIsTheFirstTransitionAfterEntering() {
        let problems = T.problems([
            header(#"{"store":"CatalogStore","case":"loading","within":{"events":1}}"#), T.register(1),
            event(2, "idle", "loading"), event(3, "loading", "loaded"), event(4, "loaded", "loading"),
            event(5, "loading", "loading"),
        ])
        #expect(problems == [Found(.overdue, line: 6, seq: 5, store: "CatalogStore")])
    }

    // "(the event's from, not the store's current case ...)"
    @Test func enteringGoesByTheTransitionsOwnFrom() {
        // The store is in idle; a (discontinuous) loading → loading does not enter loading.
        let notEntered = T.problems([
            header(#"{"store":"CatalogStore","case":"loading","within":{"events":1}}"#), T.register(1),
            event(2, "loading", "loading"), event(3, "loading", "loading"),
        ])
        #expect(notEntered == [Found(.discontinuity, line: 3, seq: 2, store: "CatalogStore")])
        // In loading, a (discontinuous) idle → loading enters it again: the count starts over.
        let again = T.problems([
            header(#"{"store":"CatalogStore","case":"loading","within":{"events":2}}"#), T.register(1),
            event(2, "idle", "loading"), event(3, "loading", "loading"), event(4, "idle", "loading"),
            event(5, "loading", "loading"), event(6, "loading", "loading"),
        ])
        #expect(
            again == [
                Found(.discontinuity, line: 5, seq: 4, store: "CatalogStore"),
                Found(.overdue, line: 7, seq: 6, store: "CatalogStore"),
            ])
    }

    // "an unregistered transition can enter"
    @Test func anUnregisteredTransitionCanEnter() {
        let problems = T.problems([
            header(#"{"store":"CatalogStore","case":"loading","within":{"events":1}}"#), event(1, "idle", "loading"),
            event(2, "loading", "loading"),
        ])
        #expect(
            problems == [
                Found(.unregistered, line: 2, seq: 1, store: "CatalogStore"),
                Found(.overdue, line: 3, seq: 2, store: "CatalogStore"),
            ])
    }

    // "at a register or restore whose case is it" it enters; "at a register or restore whose
    // case is another case" it leaves.
    @Test func registersAndRestoresEnterAndLeave() {
        let entering = T.problems([
            header(#"{"store":"CatalogStore","case":"loading","within":{"events":1}}"#), T.register(1, "loading"),
            event(2, "loading", "loading"), T.restore(3, "loading"), event(4, "loading", "loading"),
        ])
        #expect(
            entering == [
                Found(.overdue, line: 3, seq: 2, store: "CatalogStore"),
                Found(.overdue, line: 5, seq: 4, store: "CatalogStore"),
            ])
        let leaving = T.problems([
            header(#"{"store":"CatalogStore","case":"loading","within":{"events":1}}"#), T.register(1, "loading"),
            T.restore(2, "idle"), event(3, "idle", "loading"), T.register(4, "loaded"), event(5, "loaded", "loading"),
        ])
        #expect(leaving.isEmpty, "\(leaving)")
    }

    // "a case the machine lacks included": a transition to an unknown case leaves.
    @Test func aTransitionToACaseTheMachineLacksLeaves() {
        let problems = T.problems([
            header(#"{"store":"CatalogStore","case":"loading","within":{"events":2}}"#), T.register(1),
            event(2, "idle", "loading"), event(3, "loading", "ghost"), event(4, "ghost", "loading"),
            event(5, "loading", "loading"),
        ])
        #expect(
            problems == [
                Found(.unknownCase, line: 4, seq: 3, store: "CatalogStore"),
                Found(.unknownCase, line: 5, seq: 4, store: "CatalogStore"),
            ])
    }

    // MARK: within seconds

    // "the first event of the trace (any store, any type) whose elapsed is more than T after the
    // entering event's elapsed"; "The problem's store is the rule's store".
    @Test func theFirstEventOfAnyStoreOrTypePastTheTimeIsOverdue() {
        let report = T.validate([
            header(#"{"store":"CatalogStore","case":"loading","within":{"seconds":1}}"#), register(1, "idle", at: 0),
            event(2, "idle", "loading", at: 0.5), note(3, at: 1.4), register(4, "x", at: 1.5, store: "Cart"),
            note(5, at: 1.6, store: "Cart"), note(6, at: 3), event(7, "loading", "loaded", at: 4),
        ])
        #expect(
            report.problems.map(Found.init) == [
                Found(.unchecked, line: 5, seq: 4, store: "Cart"),
                Found(.overdue, line: 6, seq: 5, store: "CatalogStore"),
            ])
    }

    // "(the leaving transition itself can be that event)"
    @Test func theLeavingTransitionCanBeOverdue() {
        let problems = T.problems([
            header(#"{"store":"CatalogStore","case":"loading","within":{"seconds":1}}"#), register(1, "idle", at: 0),
            event(2, "idle", "loading", at: 0.5), event(3, "loading", "loaded", at: 1.6),
            event(4, "loaded", "loading", at: 1.7), event(5, "loading", "loaded", at: 2.6),
        ])
        #expect(problems == [Found(.overdue, line: 4, seq: 3, store: "CatalogStore")])
    }

    // "elapsed − entered > T, computed in IEEE 754 doubles"
    @Test func secondsAreComparedAsDoublesSubtracted() {
        // 0.4 − 0.1 is 0.30000000000000004 in doubles: more than 0.3.
        let over = T.problems([
            header(#"{"store":"CatalogStore","case":"loading","within":{"seconds":0.3}}"#), register(1, "idle", at: 0),
            event(2, "idle", "loading", at: 0.1), note(3, at: 0.4),
        ])
        #expect(over == [Found(.overdue, line: 4, seq: 3, store: "CatalogStore")])
        // 0.9 − 0.2 is 0.7 (while 0.2 + 0.7 is 0.8999999999999999): not more than 0.7.
        let notOver = T.problems([
            header(#"{"store":"CatalogStore","case":"loading","within":{"seconds":0.7}}"#), register(1, "idle", at: 0),
            event(2, "idle", "loading", at: 0.2), note(3, at: 0.9),
        ])
        #expect(notOver.isEmpty)
        // Exactly T later is not more than T.
        let exactly = T.problems([
            header(#"{"store":"CatalogStore","case":"loading","within":{"seconds":1}}"#), register(1, "idle", at: 0),
            event(2, "idle", "loading", at: 1), note(3, at: 2),
        ])
        #expect(exactly.isEmpty)
    }

    // "An entering event without elapsed starts no seconds clock."
    @Test func anEnteringEventWithoutElapsedStartsNoClock() {
        let problems = T.problems([
            header(#"{"store":"CatalogStore","case":"loading","within":{"seconds":1}}"#), register(1, "idle", at: 0),
            event(2, "idle", "loading"), note(3, at: 100),
        ])
        #expect(problems.isEmpty)
    }

    @Test func anEntryIsOverdueOnceWhicheverLimitComesFirst() {
        let problems = T.problems([
            header(#"{"store":"CatalogStore","case":"loading","within":{"events":2,"seconds":1}}"#),
            register(1, "idle", at: 0), event(2, "idle", "loading", at: 0), note(3, at: 2),
            event(4, "loading", "loading", at: 3), event(5, "loading", "loading", at: 4), note(6, at: 9),
        ])
        #expect(problems == [Found(.overdue, line: 4, seq: 3, store: "CatalogStore")])
    }

    // Two rules break at one event: one problem each, in the rules' order.
    @Test func twoRulesAtOneEventAreReportedInTheRulesOrder() {
        let rules =
            #"{"store":"CatalogStore","case":"loading","within":{"seconds":1}},{"store":"Other","case":"on","within":{"seconds":2}},{"store":"CatalogStore","case":"loading","within":{"events":1}}"#
        let other = #"{"Other":{"initial":"on","transitions":{"on":["on"]}}}"#
        let header = T.header(
            machines: String(Self.machines.dropLast()) + "," + String(other.dropFirst()), rules: "[" + rules + "]")
        let problems = T.problems([
            header, register(1, "idle", at: 0), register(2, "on", at: 0, store: "Other"),
            event(3, "idle", "loading", at: 0.5), event(4, "loading", "loading", at: 3),
        ])
        #expect(
            problems == [
                Found(.overdue, line: 5, seq: 4, store: "CatalogStore"),
                Found(.overdue, line: 5, seq: 4, store: "Other"),
                Found(.overdue, line: 5, seq: 4, store: "CatalogStore"),
            ])
    }

    // MARK: Which stores and cases

    // "a rule naming a case that the store's machine lacks never fires"
    @Test func aRuleNamingACaseTheMachineLacksNeverFires() {
        let problems = T.problems([
            header(
                #"{"store":"CatalogStore","case":"sleeping","within":{"events":1}},{"store":"CatalogStore","notAtEnd":["sleeping","idle"]}"#
            ),
            T.register(1, "sleeping"), event(2, "sleeping", "sleeping"), event(3, "sleeping", "sleeping"),
        ])
        #expect(
            problems == [
                Found(.unknownCase, line: 2, seq: 1, store: "CatalogStore"),
                Found(.unknownCase, line: 3, seq: 2, store: "CatalogStore"),
                Found(.unknownCase, line: 4, seq: 3, store: "CatalogStore"),
            ])
    }

    // "rules apply only to stores that have a machine"
    @Test func rulesApplyOnlyToStoresWithAMachine() {
        let problems = T.problems([
            header(#"{"store":"Cart","case":"full","within":{"events":1}},{"store":"Cart","notAtEnd":["full"]}"#),
            register(1, "full", at: 0, store: "Cart"),
            T.transition(2, "full", "full", store: "Cart"), T.transition(3, "full", "full", store: "Cart"),
        ])
        #expect(problems == [Found(.unchecked, line: 2, seq: 1, store: "Cart")])
    }

    // A store whose machine comes from its register event: rules apply to it too.
    @Test func rulesApplyToAMachineFromARegister() {
        let panel = #"{"initial":"off","transitions":{"off":["on"],"on":["on","off"]}}"#
        let problems = T.problems([
            T.header(rules: #"[{"store":"Panel","case":"on","within":{"events":1}}]"#),
            T.registerState(1, "off", store: "Panel", members: #","machine":\#(panel)"#),
            T.transition(2, "off", "on", store: "Panel"), T.transition(3, "on", "on", store: "Panel"),
        ])
        #expect(problems == [Found(.overdue, line: 4, seq: 3, store: "Panel")])
    }

    // MARK: notAtEnd

    // "unresolved (warning) on the line of the store's last register, restore or transition";
    // problems stay in line order.
    @Test func aStoreEndingInAListedCaseIsUnresolvedAtItsLastEvent() {
        let report = T.validate([
            header(#"{"store":"CatalogStore","notAtEnd":["loading","loaded"]}"#), T.register(1),
            event(2, "idle", "loading"), T.register(3, "x", store: "Cart"), note(4, at: 1),
            T.transition(5, "x", "y", store: "Cart"), T.transition(7, "a", "b", store: "Cart"),
        ])
        #expect(
            report.problems.map(Found.init) == [
                Found(.unresolved, line: 3, seq: 2, store: "CatalogStore"),
                Found(.unchecked, line: 4, seq: 3, store: "Cart"),
                Found(.seq, line: 7, seq: 7, store: "Cart"),
            ])
        #expect(report.problems.first?.severity == .warning)
        #expect(report.warnings == 2 && report.errors == 1)
    }

    @Test func aStoreEndingElsewhereIsResolved() {
        let problems = T.problems([
            header(#"{"store":"CatalogStore","notAtEnd":["loading"]}"#), T.register(1), event(2, "idle", "loading"),
            event(3, "loading", "loaded"), T.restore(4, "loading"), T.restore(5, "idle"),
        ])
        #expect(problems.isEmpty)
        let restored = T.problems([
            header(#"{"store":"CatalogStore","notAtEnd":["loading"]}"#), T.register(1), T.restore(2, "loading"),
            note(3, at: 5),
        ])
        #expect(restored == [Found(.unresolved, line: 3, seq: 2, store: "CatalogStore")])
    }

    // The unresolved problem joins its line's problems in the table's order.
    @Test func anUnresolvedProblemTakesItsPlaceAmongItsLinesProblems() {
        let problems = T.problems([
            header(#"{"store":"CatalogStore","notAtEnd":["loaded"]},{"store":"CatalogStore","notAtEnd":["loaded"]}"#),
            T.register(1), T.transition(5, "loading", "loaded", body: #""state":{}"#),
        ])
        #expect(
            problems == [
                Found(.seq, line: 3, seq: 5, store: "CatalogStore"),
                Found(.discontinuity, line: 3, seq: 5, store: "CatalogStore"),
                Found(.unresolved, line: 3, seq: 5, store: "CatalogStore"),
                Found(.unresolved, line: 3, seq: 5, store: "CatalogStore"),
            ])
    }

    @Test func anUnresolvedProblemPastTheListLimitIsCountedNotListed() {
        let lines = [
            header(#"{"store":"CatalogStore","notAtEnd":["loading"]}"#), T.register(1), event(2, "idle", "loading"),
            event(5, "loading", "loading"), event(9, "loading", "loading"),
        ]
        let report = T.validate(lines, strictness: TraceValidator(maximumProblems: 2))
        #expect(
            report.problems.map(Found.init) == [
                Found(.seq, line: 4, seq: 5, store: "CatalogStore"),
                Found(.seq, line: 5, seq: 9, store: "CatalogStore"),
            ])
        #expect(report.omitted == 1 && report.warnings == 1)
        let early = T.validate(
            lines + [T.register(10, nil, store: "Cart")], strictness: TraceValidator(maximumProblems: 1))
        #expect(early.problems.map(Found.init) == [Found(.seq, line: 4, seq: 5, store: "CatalogStore")])
        #expect(early.omitted == 2)
    }

    // MARK: Where the rules come from

    // "A spec that has the key rules replaces the header's (`[]` clears)."
    @Test func aSpecsRulesReplaceTheHeaders() throws {
        let lines = [
            header(#"{"store":"CatalogStore","notAtEnd":["loading"]}"#), T.register(1), event(2, "idle", "loading"),
        ]
        #expect(T.problems(lines) == [Found(.unresolved, line: 3, seq: 2, store: "CatalogStore")])
        let cleared = try SpecFile.contents(of: Array(#"{"machines":{},"rules":[]}"#.utf8), file: "spec.json")
        #expect(cleared.rules == [])
        #expect(T.problems(lines, rules: cleared.rules).isEmpty)
        let kept = try SpecFile.contents(of: Array(#"{"machines":{}}"#.utf8), file: "spec.json")
        #expect(kept.rules == nil)
        #expect(T.problems(lines, rules: kept.rules).count == 1)
        let other = try SpecFile.contents(
            of: Array(
                #"{"machines":{},"rules":[{"store":"CatalogStore","case":"loading","within":{"events":1}}]}"#.utf8),
            file: "spec.json")
        #expect(
            T.problems(lines + [event(3, "loading", "loading")], rules: other.rules) == [
                Found(.overdue, line: 4, seq: 3, store: "CatalogStore")
            ])
    }

    // "a header whose rules are not shaped is not-a-trace"
    @Test(arguments: [
        #"{}"#, #"[1]"#, #"[{"case":"a","within":{"events":1}}]"#, #"[{"store":1,"notAtEnd":[]}]"#,
        #"[{"store":"S"}]"#, #"[{"store":"S","case":"a","within":{"events":1},"notAtEnd":[]}]"#,
        #"[{"store":"S","case":"a","within":{}}]"#, #"[{"store":"S","case":"a","within":{"events":0}}]"#,
        #"[{"store":"S","case":"a","within":{"events":1.5}}]"#, #"[{"store":"S","case":"a","within":{"events":"2"}}]"#,
        #"[{"store":"S","case":"a","within":{"seconds":"2"}}]"#, #"[{"store":"S","case":"a","within":[1]}]"#,
        #"[{"store":"S","within":{"events":1}}]"#, #"[{"store":"S","case":3,"within":{"events":1}}]"#,
        #"[{"store":"S","notAtEnd":"a"}]"#, #"[{"store":"S","notAtEnd":[1]}]"#, "null",
    ])
    func aHeaderWhoseRulesAreNotShapedIsNotATrace(rules: String) {
        let report = T.validate([T.header(rules: rules), T.register(1)])
        #expect(report.problems.map(Found.init) == [Found(.notATrace, line: 1)], "\(rules)")
        #expect(report.problems.first?.message.contains("rules") == true, "\(report.problems.first?.message ?? "")")
    }

    @Test func rulesThatAreShapedAreRead() throws {
        let header = try Array(
            T.header(
                rules:
                    #"[{"store":"S","case":"a","within":{"events":3,"seconds":1.5},"note":"x"},{"store":"S","notAtEnd":[]},{"store":"T","case":"b","within":{"events":99999999999999999999}}]"#
            ).utf8
        ).withUnsafeBytes { try TraceHeader.parse($0) }
        #expect(
            header.rules == [
                TraceRule(store: "S", condition: .within(caseName: "a", events: 3, seconds: 1.5)),
                TraceRule(store: "S", condition: .notAtEnd([])),
                TraceRule(store: "T", condition: .within(caseName: "b", events: Int.max, seconds: nil)),
            ])
    }

    // "a spec whose rules are not shaped is a command-line error ... naming the file and the rule"
    @Test func aSpecWhoseRulesAreNotShapedIsAnError() {
        #expect {
            _ = try SpecFile.contents(
                of: Array(#"{"machines":{},"rules":[{"store":"S","notAtEnd":[]},{"store":"S","within":{}}]}"#.utf8),
                file: "team.spec.json")
        } throws: { error in
            guard let error = error as? ValidationFileError else { return false }
            return error.description.hasPrefix("team.spec.json: ") && error.message.contains(#""rules"[1]"#)
                && error.message.contains(#"{"store":"S","within":{}}"#)
        }
    }
}
