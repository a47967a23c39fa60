import TestSupport
import Testing

@testable import TraceReader

/// shared/TRACE_FORMAT.md, "Version 2: patches" and the `bad-patch` kind: one small trace per rule.
@Suite struct VersionTwoTests {
    typealias T = ValidationTesting
    typealias Found = ValidationTesting.Found

    private let header = T.header(version: 2)

    @Test func aVersionTwoTraceOfPatchesThatApplyIsValid() {
        let report = T.validate([
            header, T.registerState(1),
            T.transition(2, "idle", "loading", body: #""patch":[{"op":"replace","path":"/n","value":1}]"#),
            T.transition(
                3, "loading", "loaded",
                body:
                    #""patch":[{"op":"add","path":"/items/-","value":"a"},{"op":"test","path":"/items/0","value":"a"}]"#
            ),
            T.transition(4, "loaded", "loading", body: #""state":{"n":9,"items":[]}"#),
            T.transition(5, "loading", "loaded", body: #""patch":[{"op":"test","path":"/n","value":9}]"#),
        ])
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.events == 5)
    }

    // "a transition carries exactly one of state and patch (both or neither → malformed)"
    @Test func aVersionTwoTransitionCarriesExactlyOneOfStateAndPatch() {
        let report = T.validate([
            header, T.registerState(1),
            T.transition(2, "idle", "loading", body: #""state":{"n":1},"patch":[]"#),
            T.transition(3, "idle", "loading", body: ""),
            T.transition(4, "idle", "loading", body: #""patch":[]"#),
        ])
        #expect(
            report.problems.map(Found.init) == [
                Found(.malformed, line: 3, seq: 2, store: "CatalogStore"),
                Found(.malformed, line: 4, seq: 3, store: "CatalogStore"),
            ])
        #expect(report.problems[0].message.contains("both \"state\" and \"patch\""), "\(report.problems[0].message)")
        #expect(report.problems[1].message.contains("neither"), "\(report.problems[1].message)")
        #expect(report.events == 2)
    }

    // "a patch must be an array of objects each with a string op and string path (else malformed)"
    @Test(arguments: [
        #"{"op":"add","path":"/n","value":1}"#, "[1]", #"[{"path":"/n","value":1}]"#, #"[{"op":"add","value":1}]"#,
        #"[{"op":1,"path":"/n"}]"#, #"[{"op":"add","path":["n"]}]"#, "null", #""add""#,
    ])
    func aPatchThatIsNotAnArrayOfOperationsIsMalformed(patch: String) {
        let problems = T.problems([
            header, T.registerState(1), T.transition(2, "idle", "loading", body: #""patch":\#(patch)"#),
        ])
        #expect(problems == [Found(.malformed, line: 3, seq: 2, store: "CatalogStore")], "\(patch)")
    }

    // "a patch on other events is shape-checked and otherwise ignored"
    @Test func aPatchOnAnotherEventIsShapeCheckedAndOtherwiseIgnored() {
        let problems = T.problems([
            header,
            #"{"type":"register","seq":1,"store":"CatalogStore","case":"idle","state":{"n":0},"patch":[{"op":"remove","path":"/nothing"}]}"#,
            #"{"type":"note","seq":2,"patch":[{"op":"frob","path":"/x"}]}"#,
            #"{"type":"note","seq":3,"patch":{"op":"add"}}"#,
            #"{"type":"restore","seq":4,"store":"CatalogStore","case":"idle","state":{"n":0},"patch":[1]}"#,
            T.transition(5, "idle", "loading", body: #""patch":[{"op":"test","path":"/n","value":0}]"#),
        ])
        #expect(
            problems == [
                Found(.malformed, line: 4, seq: 3), Found(.malformed, line: 5, seq: 4, store: "CatalogStore"),
            ])
    }

    // "in version 1 patch is an unknown key (ignored) and state stays required"
    @Test func inVersionOneAPatchIsAnUnknownKeyAndStateIsRequired() {
        let problems = T.problems([
            T.header(version: 1), T.registerState(1),
            T.transition(2, "idle", "loading", body: #""state":{"n":1},"patch":{"not":"a patch"}"#),
            T.transition(3, "loading", "loaded", body: #""patch":[{"op":"replace","path":"/n","value":2}]"#),
        ])
        #expect(problems == [Found(.malformed, line: 4, seq: 3, store: "CatalogStore")])
    }

    // "bad-patch: the patch does not apply to the store's state before it", for each way.
    @Test(arguments: [
        #"{"op":"remove","path":"/missing"}"#,  // a path that is not there
        #"{"op":"replace","path":"/items/0","value":1}"#,  // an index out of range
        #"{"op":"add","path":"/items/1","value":1}"#,  // past the end (only `-` or 0 may add there)
        #"{"op":"add","path":"/a/b","value":1}"#,  // a parent that is not there
        #"{"op":"test","path":"/n","value":1}"#,  // a failed test
        #"{"op":"frob","path":"/n"}"#,  // an operation the RFC does not define
        #"{"op":"add","path":"/n"}"#,  // a missing value
        #"{"op":"move","path":"/m"}"#,  // a missing from
        #"{"op":"copy","from":"/missing","path":"/m"}"#,
        #"{"op":"replace","path":"n","value":1}"#,  // not a JSON Pointer
        #"{"op":"remove","path":"/items/~2"}"#,  // a bad escape
        #"{"op":"move","from":"/items","path":"/items/0"}"#,  // into itself
        #"{"op":"remove","path":"/items/-"}"#,  // `-` names no element
    ])
    func aPatchThatDoesNotApplyIsABadPatch(operation: String) {
        let report = T.validate([
            header, T.registerState(1),
            T.transition(
                2, "idle", "loading", body: #""patch":[{"op":"replace","path":"/n","value":0},\#(operation)]"#),
        ])
        #expect(
            report.problems.map(Found.init) == [Found(.badPatch, line: 3, seq: 2, store: "CatalogStore")],
            "\(operation)")
        #expect(report.problems.first?.severity == .error)
        #expect(report.problems.first?.message.contains("patch[1]") == true, "\(report.problems.first?.message ?? "")")
        #expect(report.events == 2)
    }

    @Test(arguments: [
        #"{"op":"add","path":"/items/-","value":"a"}"#, #"{"op":"add","path":"/items/0","value":"a"}"#,
        #"{"op":"add","path":"/a~1b","value":1}"#, #"{"op":"add","path":"/~0","value":1}"#,
        #"{"op":"copy","from":"/items","path":"/copy"}"#, #"{"op":"move","from":"/n","path":"/m"}"#,
        #"{"op":"replace","path":"","value":[]}"#, #"{"op":"test","path":"/n","value":0.0}"#,
        #"{"op":"test","path":"","value":{"items":[],"n":0}}"#, #"{"op":"add","path":"/n","value":5,"extra":1}"#,
    ])
    func aPatchThatAppliesIsNoProblem(operation: String) {
        let problems = T.problems([
            header, T.registerState(1), T.transition(2, "idle", "loading", body: #""patch":[\#(operation)]"#),
        ])
        #expect(problems.isEmpty, "\(operation): \(problems)")
    }

    // "After a bad-patch the store's state is unknown until its next event with a state."
    @Test func afterABadPatchLaterPatchesAreNotCheckedUntilAWholeState() {
        let problems = T.problems([
            header, T.registerState(1),
            T.transition(2, "idle", "loading", body: #""patch":[{"op":"remove","path":"/missing"}]"#),
            T.transition(3, "loading", "loaded", body: #""patch":[{"op":"remove","path":"/missing"}]"#),
            T.transition(4, "loaded", "loading", body: #""state":{"n":1}"#),
            T.transition(5, "loading", "loaded", body: #""patch":[{"op":"remove","path":"/missing"}]"#),
        ])
        #expect(
            problems == [
                Found(.badPatch, line: 3, seq: 2, store: "CatalogStore"),
                Found(.badPatch, line: 6, seq: 5, store: "CatalogStore"),
            ])
    }

    @Test func aRegisterOrRestoreMakesTheStateKnownAgain() {
        let problems = T.problems([
            header, T.registerState(1),
            T.transition(2, "idle", "loading", body: #""patch":[{"op":"test","path":"/n","value":7}]"#),
            T.restore(3, "loading"),  // state {"n":0}
            T.transition(4, "loading", "loaded", body: #""patch":[{"op":"test","path":"/n","value":7}]"#),
        ])
        #expect(
            problems == [
                Found(.badPatch, line: 3, seq: 2, store: "CatalogStore"),
                Found(.badPatch, line: 5, seq: 4, store: "CatalogStore"),
            ])
    }

    // "an unregistered store's patches are not checked" (its state was never known)
    @Test func anUnregisteredStoresPatchesAreNotChecked() {
        let problems = T.problems([
            header, T.transition(1, "idle", "loading", body: #""patch":[{"op":"remove","path":"/missing"}]"#),
            T.transition(2, "loading", "loaded", body: #""patch":[{"op":"frob","path":"/missing"}]"#),
        ])
        #expect(problems == [Found(.unregistered, line: 2, seq: 1, store: "CatalogStore")])
    }

    // Decision: a whole `state` makes it known, even a store's without a register.
    @Test func anUnregisteredStoresWholeStateMakesItKnown() {
        let problems = T.problems([
            header, T.transition(1, "idle", "loading", body: #""state":{"n":3}"#),
            T.transition(2, "loading", "loaded", body: #""patch":[{"op":"test","path":"/n","value":4}]"#),
        ])
        #expect(
            problems == [
                Found(.unregistered, line: 2, seq: 1, store: "CatalogStore"),
                Found(.badPatch, line: 3, seq: 2, store: "CatalogStore"),
            ])
    }

    // The state before a patch is the store's own: stores do not share states.
    @Test func eachStoreKeepsItsOwnState() {
        let problems = T.problems([
            header, T.registerState(1), T.registerState(2, nil, store: "Cart"),
            T.transition(3, nil, nil, body: #""patch":[{"op":"add","path":"/items/-","value":"x"}]"#, store: "Cart"),
            T.transition(4, "idle", "loading", body: #""patch":[{"op":"test","path":"/items","value":[]}]"#),
            T.transition(5, nil, nil, body: #""patch":[{"op":"test","path":"/items/0","value":"x"}]"#, store: "Cart"),
        ])
        #expect(problems.isEmpty, "\(problems)")
    }

    // A malformed transition's patch is not applied: the next patch applies to the state before it.
    @Test func aMalformedTransitionsPatchIsNotApplied() {
        let problems = T.problems([
            header, T.registerState(1),
            #"{"type":"transition","seq":2,"store":"CatalogStore","action":"a","from":"idle","to":"loading","patch":[{"op":"replace","path":"/n","value":5}]}"#,
            T.transition(3, "idle", "loading", body: #""patch":[{"op":"test","path":"/n","value":0}]"#),
        ])
        #expect(problems == [Found(.malformed, line: 3, seq: 2, store: "CatalogStore")])
    }

    // Problems of one line in the page's order: the machine's before bad-patch.
    @Test func aBadPatchComesAfterTheMachineProblemsOfItsLine() {
        let problems = T.problems([
            header, T.registerState(1),
            T.transition(2, "loaded", "failed", body: #""patch":[{"op":"remove","path":"/missing"}]"#),
        ])
        #expect(
            problems == [
                Found(.discontinuity, line: 3, seq: 2, store: "CatalogStore"),
                Found(.illegal, line: 3, seq: 2, store: "CatalogStore"),
                Found(.badPatch, line: 3, seq: 2, store: "CatalogStore"),
            ])
    }

    @Test func manyPatchesOnABigStateStayCorrect() {
        var lines = [header, #"{"type":"register","seq":1,"store":"Counter","state":{"values":[]}}"#]
        for seq in 2...400 {
            lines.append(
                T.transition(
                    seq, nil, nil, body: #""patch":[{"op":"add","path":"/values/-","value":\#(seq)}]"#, store: "Counter"
                ))
        }
        lines.append(
            T.transition(
                401, nil, nil, body: #""patch":[{"op":"test","path":"/values/398","value":400}]"#, store: "Counter"))
        lines.append(
            T.transition(
                402, nil, nil, body: #""patch":[{"op":"test","path":"/values/399","value":1}]"#, store: "Counter"))
        #expect(T.problems(lines) == [Found(.badPatch, line: 403, seq: 402, store: "Counter")])
    }
}
