import TestSupport
import Testing

@testable import Recorder
@testable import TraceReader

/// The "rules that pin the edge cases" of shared/TRACE_FORMAT.md, one small trace each.
@Suite struct EdgeCaseTests {
    typealias T = ValidationTesting
    typealias Found = ValidationTesting.Found

    // "The machines come from the header; --spec FILE replaces them, store by store."
    @Test func specMachinesReplaceTheHeadersStoreByStore() {
        let header =
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{"CatalogStore":{"initial":"idle","transitions":{"idle":["loading"],"loading":[]}},"Cart":{"initial":"empty","transitions":{"empty":["full"],"full":[]}}}}"#
        let lines = [
            header, T.register(1), T.register(2, "empty", store: "Cart"),
            T.transition(3, "idle", "loading"), T.transition(4, "empty", "full", store: "Cart"),
        ]
        #expect(T.problems(lines).isEmpty)
        // The spec forbids idle → loading for CatalogStore; Cart keeps the header's machine.
        let spec = MachineSpec(
            initial: "idle", cases: ["idle", "loading"], transitions: ["idle": [], "loading": ["idle"]])
        #expect(
            T.problems(lines, machines: ["CatalogStore": spec]) == [
                Found(.illegal, line: 4, seq: 3, store: "CatalogStore")
            ])
        // A spec can give a machine to a store that the header has none for.
        let counter = MachineSpec(initial: "zero", cases: ["zero"], transitions: ["zero": []])
        let withCounter = lines + [T.register(5, "one", store: "Counter")]
        #expect(
            T.problems(withCounter, machines: ["Counter": counter]) == [
                Found(.unknownCase, line: 6, seq: 5, store: "Counter")
            ])
    }

    // A `type` is a JSON string: written with escapes, it names the same type (its check with
    // escapes decodes it first, apart from the plain bytes' comparison).
    @Test func aTypeWrittenWithEscapesIsTheTypeItSpells() {
        let plain = [
            T.header(), T.register(1), T.transition(2, "idle", "loading"), T.transition(3, "idle", "loaded"),
            T.restore(4, "loaded"), T.transition(5, "loaded", "loading"),
        ]
        let escaped = plain.enumerated().map { index, line in
            switch index {
            case 1: line.replacingOccurrences(of: #""register""#, with: #""regist\u0065r""#)
            case 2: line.replacingOccurrences(of: #""transition""#, with: #""transit\u0069on""#)
            case 3: line.replacingOccurrences(of: #""transition""#, with: #""\u0074ransition""#)
            case 4: line.replacingOccurrences(of: #""restore""#, with: #""restor\u0065""#)
            default: line
            }
        }
        #expect(escaped != plain)
        #expect(T.problems(plain) == T.problems(escaped))
        #expect(T.problems(plain).map(\.kind) == [.discontinuity, .illegal])
        #expect(T.validate(plain).events == T.validate(escaped).events)
        // Escapes that spell another word: an event of no known type (no store rules apply).
        let other = plain.enumerated().map { index, line in
            index == 3 ? line.replacingOccurrences(of: #""transition""#, with: #""transit\u0069ons""#) : line
        }
        #expect(T.problems(other).isEmpty)
    }

    // Allowed pairs are a bit matrix up to `CompiledMachine.matrixLimit` cases and a set beyond:
    // a chain of cases checks the same either way.
    @Test(arguments: [5, CompiledMachine.matrixLimit, CompiledMachine.matrixLimit + 1])
    func machinesOfAnySizeAllowExactlyTheirTransitions(cases count: Int) {
        let names = (0..<count).map { "c\($0)" }
        var transitions: [String: [String]] = [:]
        for (index, name) in names.enumerated() {
            transitions[name] = index + 1 < count ? [names[index + 1]] : [names[0]]
        }
        let spec = MachineSpec(initial: names[0], cases: names, transitions: transitions)
        let last = names[count - 1]
        let lines = [
            T.header, T.register(1, names[0]), T.transition(2, names[0], names[1]), T.transition(3, names[1], names[0]),
            T.transition(4, names[0], names[1]), T.transition(5, names[1], names[2]), T.transition(6, names[2], last),
            T.transition(7, last, names[0]),
        ]
        let found = T.problems(lines, machines: ["CatalogStore": spec]).filter { $0.kind == .illegal }
        // c1 → c0 and c2 → the last are not in the chain; the last → c0 closes it.
        #expect(
            found == [
                Found(.illegal, line: 4, seq: 3, store: "CatalogStore"),
                Found(.illegal, line: 7, seq: 6, store: "CatalogStore"),
            ])
    }

    // "Machine checks apply only to stores that have a machine."
    @Test func storesWithoutAMachineGetNoMachineChecks() {
        let problems = T.problems([
            T.header, T.register(1, "anything", store: "Cart"), T.transition(2, "nowhere", "elsewhere", store: "Cart"),
            T.transition(3, "x", "x", store: "Cart"),
        ])
        // Only `unchecked` for the case its register carries: no machine judges the transitions.
        #expect(problems == [Found(.unchecked, line: 2, seq: 1, store: "Cart")])
    }

    // "For such a store a register without case, or a transition without from or to, is malformed."
    @Test func aStoreWithAMachineNeedsCaseFromAndTo() {
        let problems = T.problems([
            T.header, T.register(1, nil), T.register(2), T.transition(3, nil, "loading"), T.transition(4, "idle", nil),
            T.transition(5, "idle", "loading"),
        ])
        #expect(
            problems == [
                Found(.malformed, line: 2, seq: 1, store: "CatalogStore"),
                Found(.malformed, line: 4, seq: 3, store: "CatalogStore"),
                Found(.malformed, line: 5, seq: 4, store: "CatalogStore"),
            ])
        let report = T.validate([T.header, T.register(1, nil)])
        #expect(
            report.problems.first?.message.contains(
                #""case" is missing, required because CatalogStore has a state machine"#) == true)
    }

    @Test func aStoreWithoutAMachineNeedsNoCaseFromOrTo() {
        #expect(
            T.problems([T.header, T.register(1, nil, store: "Cart"), T.transition(2, nil, nil, store: "Cart")]).isEmpty)
    }

    // "A transition whose from or to is not a case of the machine gets unknown-case and no other machine check."
    @Test func unknownCaseSuppressesTheOtherMachineChecks() {
        // From "ghost" is neither the current case (idle) nor allowed to go to loaded: only unknown-case.
        let problems = T.problems([T.header, T.register(1), T.transition(2, "ghost", "loaded")])
        #expect(problems == [Found(.unknownCase, line: 3, seq: 2, store: "CatalogStore")])
    }

    // "Otherwise it can get both discontinuity and illegal: each is checked on its own."
    @Test func discontinuityAndIllegalAreCheckedEachOnItsOwn() {
        let both = T.problems([T.header, T.register(1), T.transition(2, "loaded", "failed")])
        #expect(
            both == [
                Found(.discontinuity, line: 3, seq: 2, store: "CatalogStore"),
                Found(.illegal, line: 3, seq: 2, store: "CatalogStore"),
            ])
        let onlyDiscontinuity = T.problems([T.header, T.register(1), T.transition(2, "loaded", "loading")])
        #expect(onlyDiscontinuity == [Found(.discontinuity, line: 3, seq: 2, store: "CatalogStore")])
        let onlyIllegal = T.problems([T.header, T.register(1), T.transition(2, "idle", "loaded")])
        #expect(onlyIllegal == [Found(.illegal, line: 3, seq: 2, store: "CatalogStore")])
    }

    // "After any register or transition, the store's current case is its case or to, whatever was wrong."
    @Test func theCurrentCaseFollowsToAfterAnIllegalTransition() {
        let problems = T.problems([
            T.header, T.register(1), T.transition(2, "idle", "loaded"), T.transition(3, "loaded", "loading"),
        ])
        #expect(problems == [Found(.illegal, line: 3, seq: 2, store: "CatalogStore")])
    }

    @Test func theCurrentCaseFollowsToAfterADiscontinuity() {
        let problems = T.problems([
            T.header, T.register(1), T.transition(2, "failed", "loading"), T.transition(3, "loading", "loaded"),
        ])
        #expect(problems == [Found(.discontinuity, line: 3, seq: 2, store: "CatalogStore")])
    }

    @Test func theCurrentCaseFollowsToEvenWhenItIsUnknown() {
        let problems = T.problems([
            T.header, T.register(1), T.transition(2, "idle", "ghost"), T.transition(3, "ghost", "loading"),
            T.register(4), T.transition(5, "idle", "ghost"), T.transition(6, "idle", "loading"),
        ])
        #expect(
            problems == [
                Found(.unknownCase, line: 3, seq: 2, store: "CatalogStore"),
                Found(.unknownCase, line: 4, seq: 3, store: "CatalogStore"),
                Found(.unknownCase, line: 6, seq: 5, store: "CatalogStore"),
                // The store is in "ghost", not idle.
                Found(.discontinuity, line: 7, seq: 6, store: "CatalogStore"),
            ])
    }

    @Test func theCurrentCaseIsTheRegistersEvenWhenItIsUnknown() {
        let problems = T.problems([T.header, T.register(1, "ghost"), T.transition(2, "idle", "loading")])
        #expect(
            problems == [
                Found(.unknownCase, line: 2, seq: 1, store: "CatalogStore"),
                Found(.discontinuity, line: 3, seq: 2, store: "CatalogStore"),
            ])
    }

    // "A malformed line is not an event. The event after it is not checked for seq: checking
    // resumes from that event's seq."
    @Test func theEventAfterAMalformedLineIsNotCheckedForSeq() {
        let report = T.validate([
            T.header, T.register(1), "{oops", T.transition(7, "idle", "loading"), T.transition(8, "loading", "loaded"),
            T.transition(10, "loaded", "loading"),
        ])
        #expect(
            report.problems.map(Found.init) == [
                Found(.malformed, line: 3),
                Found(.seq, line: 6, seq: 10, store: "CatalogStore"),
            ])
        #expect(report.events == 4)
    }

    @Test func aMalformedEventDoesNotMoveItsStore() {
        // The malformed transition (no "changed") to loading is not an event: the store stays idle.
        let malformed =
            #"{"type":"transition","seq":2,"store":"CatalogStore","action":"a","from":"idle","to":"loading","state":{}}"#
        let problems = T.problems([T.header, T.register(1), malformed, T.transition(3, "idle", "loading")])
        #expect(problems == [Found(.malformed, line: 3, seq: 2, store: "CatalogStore")])
    }

    @Test func aMalformedEventDoesNotRegisterItsStore() {
        let malformed = #"{"type":"register","seq":1,"store":"CatalogStore","case":"idle"}"#
        let problems = T.problems([T.header, malformed, T.transition(2, "idle", "loading")])
        #expect(
            problems == [
                Found(.malformed, line: 2, seq: 1, store: "CatalogStore"),
                Found(.unregistered, line: 3, seq: 2, store: "CatalogStore"),
            ])
    }

    // "An event of an unknown type is still checked for seq."
    @Test func anEventOfAnUnknownTypeIsCheckedForSeqAndCounted() {
        let report = T.validate([
            T.header, T.register(1), #"{"type":"snapshot","seq":3,"store":"Cart","whatever":[1]}"#,
            T.transition(4, "idle", "loading"),
        ])
        // Keys the page does not define are not checked; its problems name its store.
        #expect(report.problems.map(Found.init) == [Found(.seq, line: 3, seq: 3, store: "Cart")])
        #expect(report.events == 3)
    }

    // "The type rules of malformed apply to every event, whatever its type."
    @Test(arguments: [
        #""store":5"#, #""elapsed":"1""#, #""cause":1.5"#, #""step":"3""#, #""trace":7"#, #""stack":[1]"#,
        #""stack":"f""#, #""changed":0"#, #""args":[]"#, #""machine":{"initial":"a","transitions":{}}"#,
        #""machine":"m""#, #""case":null"#, #""from":1"#, #""to":{}"#, #""action":true"#, #""source":[]"#,
    ])
    func theTypeRulesApplyToAnEventOfAnUnknownType(member: String) {
        let report = T.validate([
            T.header, T.register(1), #"{"type":"snapshot","seq":2,\#(member)}"#, T.transition(3, "idle", "loading"),
        ])
        // Malformed, so not an event: the next one is not checked for seq.
        #expect(report.problems.map(\.kind) == [.malformed], "\(member)")
        #expect(report.problems.first?.line == 3)
        #expect(report.events == 2)
    }

    @Test func anEventOfAnUnknownTypeDoesNotTouchStores() {
        let problems = T.problems([
            T.header, T.register(1),
            #"{"type":"transitionish","seq":2,"store":"CatalogStore","from":"idle","to":"loaded"}"#,
            T.transition(3, "idle", "loading"),
        ])
        #expect(problems.isEmpty)
    }

    // "A store that is not in the machines is recorded and diffed like any other."
    @Test func aStoreNotInTheMachinesIsCheckedForEverythingElse() {
        let problems = T.problems([
            T.header, T.register(1, nil, store: "Cart"), T.transition(3, nil, nil, store: "Cart"),
            T.transition(4, nil, nil, store: "Wishlist"),
        ])
        #expect(
            problems == [
                Found(.seq, line: 3, seq: 3, store: "Cart"),
                Found(.unregistered, line: 4, seq: 4, store: "Wishlist"),
            ])
    }

    // "A store that registers again (it was created anew) starts over from the new register event."
    @Test func aStoreThatRegistersAgainStartsOver() {
        let problems = T.problems([
            T.header, T.register(1), T.transition(2, "idle", "loading"), T.register(3, "idle"),
            T.transition(4, "idle", "loading"),
        ])
        #expect(problems.isEmpty)
        let fromOld = T.problems([
            T.header, T.register(1), T.transition(2, "idle", "loading"), T.register(3, "idle"),
            T.transition(4, "loading", "loaded"),
        ])
        #expect(fromOld == [Found(.discontinuity, line: 5, seq: 4, store: "CatalogStore")])
    }

    // "An empty line (only \n) anywhere after the header is skipped"; readers accept \r\n.
    @Test func emptyLinesAreSkippedButCounted() {
        let report = T.validate([T.header, "", T.register(1), "", "", T.transition(2, "idle", "loaded")])
        #expect(report.problems.map(Found.init) == [Found(.illegal, line: 6, seq: 2, store: "CatalogStore")])
        #expect(report.events == 2)
    }

    @Test func crlfLineEndsAreAccepted() {
        let text = [T.header, T.register(1), "", T.transition(2, "idle", "loaded")].joined(separator: "\r\n") + "\r\n"
        let report = TraceValidator().validate(bytes: Array(text.utf8))
        #expect(report.problems.map(Found.init) == [Found(.illegal, line: 4, seq: 2, store: "CatalogStore")])
        #expect(report.events == 2)
    }

    // "Readers ignore keys they do not know." Duplicate keys: the last one wins.
    @Test func unknownKeysAreIgnoredAndTheLastDuplicateWins() {
        let unknown =
            #"{"type":"register","future":{"a":[1,{"b":null}]},"seq":1,"store":"CatalogStore","case":"idle","state":{},"x":1e400}"#
        #expect(T.problems([T.header, unknown]).isEmpty)
        let duplicate =
            #"{"type":"register","seq":"one","seq":1,"store":"CatalogStore","case":"loading","case":"idle","state":{}}"#
        #expect(T.problems([T.header, duplicate, T.transition(2, "idle", "loading")]).isEmpty)
    }

    @Test func keysMayComeInAnyOrderAndBeEscaped() {
        let line =
            #"{"state":{"s":"}\""},"to":"loading","changed":false,"from":"idle","action":"go","st\u006fre":"CatalogStore","seq":2,"type":"transition"}"#
        #expect(T.problems([T.header, T.register(1), line]).isEmpty)
    }

    @Test func stringsWithEscapesAreComparedByTheirText() {
        let header =
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{"Café \"Store\"":{"initial":"a/b","transitions":{"a/b":["é"],"é":[]}}}}"#
        let register = #"{"type":"register","seq":1,"store":"Caf\u00e9 \"Store\"","case":"a\/b","state":null}"#
        let transition =
            #"{"type":"transition","seq":2,"store":"Café \"Store\"","action":"x","from":"a/b","to":"\u00e9","changed":true,"state":null}"#
        let back =
            #"{"type":"transition","seq":3,"store":"Café \"Store\"","action":"x","from":"é","to":"a/b","changed":true,"state":null}"#
        #expect(
            T.problems([header, register, transition, back]) == [
                Found(.illegal, line: 4, seq: 3, store: "Café \"Store\"")
            ])
    }

    @Test func invalidUTF8InAStateIsMalformed() {
        var bytes = Array((T.header + "\n" + T.register(1) + "\n").utf8)
        bytes += Array(
            #"{"type":"transition","seq":2,"store":"CatalogStore","action":"a","from":"idle","to":"loading","changed":true,"state":""#
                .utf8)
        bytes += [0xFF, 0x22, 0x7D, 0x0A]
        let report = TraceValidator().validate(bytes: bytes)
        #expect(report.problems.map(Found.init) == [Found(.malformed, line: 3)])
        #expect(report.problems.first?.message.contains("UTF-8") == true)
    }
}
