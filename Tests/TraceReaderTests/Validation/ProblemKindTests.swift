import TestSupport
import Testing

@testable import TraceReader

/// One small trace per problem kind of shared/TRACE_FORMAT.md, checking kind, line, seq and store.
@Suite struct ProblemKindTests {
    typealias T = ValidationTesting
    typealias Found = ValidationTesting.Found

    @Test func aValidTraceHasNoProblems() {
        let report = T.validate([
            T.header, T.register(1), T.transition(2, "idle", "loading"), T.transition(3, "loading", "loaded"),
            T.transition(4, "loaded", "loading"), T.transition(5, "loading", "failed"),
        ])
        #expect(report.problems.isEmpty)
        #expect(report.events == 5)
        #expect(report.errors == 0 && report.warnings == 0)
        #expect(report.passes(strict: true))
    }

    // MARK: not-a-trace

    @Test(arguments: [
        ("", "the file is empty"),
        ("\n", "line 1 is empty"),
        ("not json\n", "line 1 is not JSON"),
        ("[1,2]\n", "it is a JSON array"),
        (#"{"type":"register","seq":1}"# + "\n", #""type" is "register", expected "header""#),
        (
            #"{"type":"header","format":"other","version":1,"machines":{}}"# + "\n",
            #""format" is "other", expected "rewind-trace""#
        ),
        (
            #"{"type":"header","format":"rewind-trace","version":3,"machines":{}}"# + "\n",
            "unknown trace version 3; this inspector reads versions 1 and 2"
        ),
        (
            #"{"type":"header","format":"rewind-trace","version":0,"machines":{}}"# + "\n",
            "unknown trace version 0; this inspector reads versions 1 and 2"
        ),
        (
            #"{"type":"header","format":"rewind-trace","version":99999999999999999999,"machines":{}}"# + "\n",
            "unknown trace version 99999999999999999999"
        ),
        (
            #"{"type":"header","format":"rewind-trace","version":"1","machines":{}}"# + "\n",
            #""version" is "1", expected the integer 1"#
        ),
        (#"{"type":"header","format":"rewind-trace","version":1}"# + "\n", #"it has no "machines""#),
        (
            #"{"type":"header","format":"rewind-trace","version":1,"machines":[]}"# + "\n",
            "expected an object mapping each store name"
        ),
        (
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{"S":{"initial":"idle","transitions":{"busy":[]}}}}"#
                + "\n",
            #"machine "S": initial case "idle" is not a key of "transitions""#
        ),
        (
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{"S":{"initial":"a","transitions":{"a":["b"]}}}}"#
                + "\n",
            #"the transitions of "a" list "b", which is not a key of "transitions"; add "b": [] if it is a final case"#
        ),
        (
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{"S":{"initial":"a","transitions":{"a":[1]}}}}"#
                + "\n",
            "expected case names (strings)"
        ),
        (
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{"S":{"initial":"a"}}}"# + "\n",
            #"machine "S" has no "transitions""#
        ),
    ])
    func notATrace(text: String, message: String) {
        // Garbage after a bad header is not looked at: nothing else is checked.
        let report = TraceValidator().validate(
            bytes: Array((text + (text.isEmpty ? "" : "garbage\n")).utf8), file: "x.jsonl")
        #expect(report.problems.map(Found.init) == [Found(.notATrace, line: 1)])
        #expect(report.problems.first?.severity == .fatal)
        #expect(report.problems.first?.message.contains(message) == true, "\(report.problems.first?.message ?? "")")
        #expect(report.isFatal)
        #expect(report.events == 0)
        #expect(report.errors == 1)
    }

    @Test func aHeaderWithoutMachinesOfItsOwnIsFine() {
        let header = #"{"type":"header","format":"rewind-trace","version":1,"machines":{}}"#
        #expect(T.problems([header, T.register(1, nil, store: "S"), T.transition(2, nil, nil, store: "S")]).isEmpty)
    }

    // MARK: malformed

    @Test func aLineThatIsNotJSONIsMalformed() {
        let report = T.validate([
            T.header, T.register(1), "{\"type\":\"transition\",", T.transition(3, "idle", "loading"),
        ])
        #expect(report.problems.map(Found.init) == [Found(.malformed, line: 3)])
        #expect(report.problems[0].message.contains("not valid JSON: column 22"), "\(report.problems[0].message)")
        #expect(report.events == 2)
    }

    @Test(arguments: ["[1,2,3]", "42", "\"text\"", "null", "   "])
    func aLineThatIsNotAnObjectIsMalformed(line: String) {
        #expect(T.problems([T.header, T.register(1), line]) == [Found(.malformed, line: 3)])
    }

    @Test func anEventWithoutTypeOrSeqIsMalformed() {
        let problems = T.problems([
            T.header, #"{"seq":1,"store":"CatalogStore","state":{}}"#,
            #"{"type":"register","store":"CatalogStore","case":"idle","state":{}}"#,
        ])
        // The store is named whenever the line has a string `store`, even without a `type`.
        #expect(
            problems == [
                Found(.malformed, line: 2, seq: 1, store: "CatalogStore"),
                Found(.malformed, line: 3, store: "CatalogStore"),
            ])
    }

    @Test(arguments: [
        (#"{"type":"register","seq":1,"case":"idle","state":{}}"#, "\"store\" is missing"),
        (#"{"type":"register","seq":1,"store":"CatalogStore","case":"idle"}"#, "\"state\" is missing"),
        (
            #"{"type":"transition","seq":1,"store":"CatalogStore","from":"idle","to":"loading","changed":true,"state":{}}"#,
            "\"action\" is missing"
        ),
        (
            #"{"type":"transition","seq":1,"store":"CatalogStore","action":"a","from":"idle","to":"loading","state":{}}"#,
            "\"changed\" is missing"
        ),
    ])
    func anEventWithoutARequiredKeyIsMalformed(line: String, message: String) {
        let report = T.validate([T.header, line])
        #expect(report.problems.map(\.kind) == [.malformed])
        #expect(report.problems.first?.line == 2)
        #expect(report.problems.first?.seq == 1)
        #expect(report.problems.first?.message.contains(message) == true, "\(report.problems.first?.message ?? "")")
    }

    @Test(arguments: [
        (#""seq":"2""#, "seq"), (#""seq":2.0"#, "seq"), (#""seq":1e0"#, "seq"), (#""seq":99999999999999999999"#, "seq"),
        (#""cause":"1""#, "cause"), (#""elapsed":"0.1""#, "elapsed"), (#""store":5"#, "store"),
        (#""action":null"#, "action"),
        (#""from":["idle"]"#, "from"), (#""to":{}"#, "to"), (#""changed":"true""#, "changed"),
        (#""source":31"#, "source"),
        (#""args":[1]"#, "args"), (#""type":7"#, "type"), (#""case":"idle""#, ""),
    ])
    func aKeyOfTheWrongTypeIsMalformed(member: String, key: String) {
        // Each member comes last, so it replaces the well-typed one before it (the last one wins).
        let line = String(T.transition(2, "idle", "loading").dropLast()) + "," + member + "}"
        let problems = T.problems([T.header, T.register(1), line])
        if key.isEmpty {
            // `case` has the right type: a transition with an extra key of the page is fine.
            #expect(problems.isEmpty)
        } else {
            #expect(problems.map(\.kind) == [.malformed], "\(member)")
            #expect(problems.first?.line == 3)
            let report = T.validate([T.header, T.register(1), line])
            #expect(
                report.problems.first?.message.contains("\"\(key)\" is ") == true,
                "\(report.problems.first?.message ?? "")")
        }
    }

    // The message names the key with the wrong type and the type it must have.
    @Test(arguments: [
        (#""store":7"#, #""store" is 7, expected a string"#),
        (#""seq":"7""#, #""seq" is "7", expected an integer"#),
        (
            #""seq":99999999999999999999"#,
            #""seq" is 99999999999999999999, expected an integer between -2^63 and 2^63-1"#
        ),
        (#""cause":-99999999999999999999"#, #""cause" is -99999999999999999999, expected an integer between"#),
        (#""elapsed":true"#, #""elapsed" is true, expected a number"#),
        (#""source":12"#, #""source" is 12, expected a string"#),
        (#""stack":[1]"#, #""stack" is an array, expected an array of strings"#),
        (#""changed":1"#, #""changed" is 1, expected a boolean"#),
    ])
    func aWrongTypeIsNamedWithTheTypeExpected(member: String, message: String) {
        let line = String(T.transition(2, "idle", "loading").dropLast()) + "," + member + "}"
        let report = T.validate([T.header, T.register(1), line])
        #expect(report.problems.first?.message.contains(message) == true, "\(report.problems.first?.message ?? "")")
    }

    // The keys of the version 2 page have their types on a transition too.
    @Test(arguments: [
        #""stack":["f",2]"#, #""stack":{}"#, #""step":1.5"#, #""trace":["t"]"#, #""machine":5"#,
        #""machine":{"initial":"a"}"#,
    ])
    func theNewKeysHaveTheirTypes(member: String) {
        let line = String(T.transition(2, "idle", "loading").dropLast()) + "," + member + "}"
        #expect(
            T.problems([T.header, T.register(1), line]) == [Found(.malformed, line: 3, seq: 2, store: "CatalogStore")])
    }

    @Test func aMalformedEventNamesItsSeqAndStoreWhenTheyCanBeRead() {
        let problems = T.problems([
            T.header, #"{"type":"transition","seq":1,"store":"CatalogStore","action":"a","changed":1,"state":{}}"#,
        ])
        #expect(problems == [Found(.malformed, line: 2, seq: 1, store: "CatalogStore")])
    }

    // MARK: truncated

    @Test func aTornLastLineIsTruncated() {
        let report = T.validate([T.header, T.register(1), #"{"type":"transition","seq":2,"sto"#], final: false)
        #expect(report.problems.map(Found.init) == [Found(.truncated, line: 3)])
        #expect(report.problems.first?.severity == .warning)
        #expect(report.warnings == 1 && report.errors == 0)
        #expect(report.passes() && !report.passes(strict: true))
        #expect(report.events == 1)
    }

    @Test func aCompleteLastObjectWithoutNewlineIsAnEvent() {
        let report = T.validate([T.header, T.register(1), T.transition(2, "idle", "loading")], final: false)
        #expect(report.problems.isEmpty)
        #expect(report.events == 2)
    }

    @Test func aCompleteLastEventWithoutNewlineIsStillChecked() {
        let report = T.validate([T.header, T.register(1), T.transition(2, "idle", "loaded")], final: false)
        #expect(report.problems.map(Found.init) == [Found(.illegal, line: 3, seq: 2, store: "CatalogStore")])
    }

    @Test func aTornLineWithANewlineIsMalformedNotTruncated() {
        let problems = T.problems([T.header, T.register(1), #"{"type":"transition","seq":2,"sto"#])
        #expect(problems == [Found(.malformed, line: 3)])
    }

    // MARK: seq

    @Test func aGapARepeatAndAStepBackAreSeqProblems() {
        let problems = T.problems([
            T.header, T.register(1), T.transition(3, "idle", "loading"), T.transition(3, "loading", "loaded"),
            T.transition(2, "loaded", "loading"), T.transition(3, "loading", "loaded"),
        ])
        #expect(
            problems == [
                Found(.seq, line: 3, seq: 3, store: "CatalogStore"),
                Found(.seq, line: 4, seq: 3, store: "CatalogStore"),
                Found(.seq, line: 5, seq: 2, store: "CatalogStore"),
            ])
    }

    // After the largest seq no seq can follow: the next one would be 2^63, which wraps.
    @Test func aSeqAfterTheLargestIsASeqProblem() {
        let report = T.validate([
            T.header, T.register(9_223_372_036_854_775_806), T.transition(9_223_372_036_854_775_807, "idle", "loading"),
            T.transition(-9_223_372_036_854_775_808, "loading", "loaded"),
            T.transition(-9_223_372_036_854_775_807, "loaded", "loading"),
        ])
        #expect(
            report.problems.map(Found.init) == [
                Found(.seq, line: 2, seq: 9_223_372_036_854_775_806, store: "CatalogStore"),
                Found(.seq, line: 4, seq: -9_223_372_036_854_775_808, store: "CatalogStore"),
            ])
        #expect(report.problems[1].message.contains("expected 9223372036854775808"), "\(report.problems[1].message)")
        let gap = T.validate([T.header, T.register(1), T.transition(Int.max, "idle", "loading")])
        #expect(gap.problems.first?.message.contains("9223372036854775805 events are missing") == true)
        let wide = T.validate([T.header, T.register(-5), T.transition(Int.max, "idle", "loading")])
        #expect(wide.problems.last?.message.contains("9223372036854775811 events are missing") == true)
    }

    @Test func theFirstEventMustHaveSeqOne() {
        let report = T.validate([T.header, T.register(0), T.transition(1, "idle", "loading")])
        #expect(report.problems.map(Found.init) == [Found(.seq, line: 2, seq: 0, store: "CatalogStore")])
        #expect(report.problems[0].message == "the first event has seq 0, expected 1")
    }

    @Test func seqMessagesSayWhatWasExpected() {
        let report = T.validate([T.header, T.register(1), T.transition(4, "idle", "loading")])
        #expect(report.problems.first?.message == "seq 4 follows seq 1 (expected 2): 2 events are missing")
    }

    // MARK: unregistered

    @Test func aTransitionOfAStoreThatNeverRegisteredIsUnregistered() {
        // loaded → failed is not allowed, but an unregistered transition gets no machine check.
        let problems = T.problems([T.header, T.transition(1, "loaded", "failed")])
        #expect(problems == [Found(.unregistered, line: 2, seq: 1, store: "CatalogStore")])
    }

    @Test func anUnregisteredStoreIsFollowedFromItsTo() {
        let problems = T.problems([
            T.header, T.transition(1, "loaded", "failed"), T.transition(2, "failed", "loading"),
            T.transition(3, "idle", "loading"),
        ])
        #expect(
            problems == [
                Found(.unregistered, line: 2, seq: 1, store: "CatalogStore"),
                // failed → loading moved it on: it is in loading, not idle.
                Found(.discontinuity, line: 4, seq: 3, store: "CatalogStore"),
            ])
    }

    @Test func onlyTheFirstTransitionIsUnregistered() {
        let problems = T.problems([
            T.header, T.transition(1, nil, nil, store: "Cart"), T.transition(2, nil, nil, store: "Cart"),
        ])
        #expect(problems == [Found(.unregistered, line: 2, seq: 1, store: "Cart")])
    }

    // MARK: unknown-case

    @Test func aRegisterWithACaseNotOfTheMachineIsUnknownCase() {
        let report = T.validate([T.header, T.register(1, "sleeping")])
        #expect(report.problems.map(Found.init) == [Found(.unknownCase, line: 2, seq: 1, store: "CatalogStore")])
        #expect(report.problems[0].message.contains(#""sleeping""#))
        #expect(report.problems[0].message.contains("idle, loading, loaded, failed"))
    }

    @Test func aTransitionFromOrToACaseNotOfTheMachineIsUnknownCase() {
        let problems = T.problems([
            T.header, T.register(1), T.transition(2, "idle", "waiting"), T.register(3),
            T.transition(4, "resting", "loading"),
        ])
        #expect(
            problems == [
                Found(.unknownCase, line: 3, seq: 2, store: "CatalogStore"),
                Found(.unknownCase, line: 5, seq: 4, store: "CatalogStore"),
            ])
    }

    // MARK: discontinuity

    @Test func aTransitionNotFromTheCurrentCaseIsADiscontinuity() {
        let report = T.validate([
            T.header, T.register(1), T.transition(2, "idle", "loading"), T.transition(3, "loaded", "loading"),
        ])
        #expect(report.problems.map(Found.init) == [Found(.discontinuity, line: 4, seq: 3, store: "CatalogStore")])
        #expect(
            report.problems[0].message.contains(
                "CatalogStore is in loading since seq 2 (line 3), so the transition should start from loading"),
            "\(report.problems[0].message)")
    }

    @Test func theCurrentCaseStartsAtTheRegistersCase() {
        let problems = T.problems([T.header, T.register(1, "loaded"), T.transition(2, "idle", "loading")])
        #expect(problems == [Found(.discontinuity, line: 3, seq: 2, store: "CatalogStore")])
    }

    // MARK: illegal

    @Test func aTransitionTheMachineDoesNotAllowIsIllegal() {
        let lines = [
            T.header, T.register(1), T.transition(2, "idle", "loading", action: "toLoading"),
            T.transition(3, "loading", "loading", action: "toLoading"),
        ]
        let report = T.validate(lines)
        #expect(report.problems.map(Found.init) == [Found(.illegal, line: 4, seq: 3, store: "CatalogStore")])
        #expect(
            report.problems[0].message.hasPrefix(
                "illegal transition loading → loading by toLoading in CatalogStore (seq 3, from CatalogStore.swift:31)")
        )
        #expect(report.problems[0].message.contains("from loading it may go to loaded, failed"))
    }

    @Test func anIllegalTransitionCarriesItsSourceAndStackAndSaysWhatToDo() {
        let illegal =
            #"{"type":"transition","seq":3,"elapsed":0.5,"store":"CatalogStore","action":"toLoading","from":"loading","to":"loading","changed":true,"state":{"loading":{}},"source":"App/Shop.swift:96","stack":["CatalogStore.toLoading() (CatalogStore.swift:34)","Shop.perform(_:) (Shop.swift:96)"]}"#
        let report = T.validate([
            T.header, T.register(1), T.transition(2, "idle", "loading", action: "toLoading"), illegal,
        ])
        #expect(report.problems.map(\.kind) == [.illegal])
        #expect(report.problems[0].source == "App/Shop.swift:96")
        #expect(
            report.problems[0].stack == [
                "CatalogStore.toLoading() (CatalogStore.swift:34)", "Shop.perform(_:) (Shop.swift:96)",
            ])
        #expect(
            report.problems[0].message.hasSuffix(
                "send toLoading only when CatalogStore may go to loading (its call stack, where recorded, shows the code that sent it), or, if loading → loading is meant, add loading to the transitions of loading in CatalogStore's machine"
            ))
        // A problem that is not about a transition's action has neither.
        let malformed = T.validate([T.header, "[1]"])
        #expect(malformed.problems.first?.source == nil && malformed.problems.first?.stack == [])
    }

    @Test func aSelfTransitionIsIllegalUnlessListed() {
        let header =
            #"{"type":"header","format":"rewind-trace","version":1,"machines":{"CatalogStore":{"initial":"idle","transitions":{"idle":["idle"]}}}}"#
        #expect(T.problems([header, T.register(1), T.transition(2, "idle", "idle")]).isEmpty)
    }
}
