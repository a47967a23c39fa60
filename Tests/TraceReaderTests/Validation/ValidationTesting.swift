import TestSupport
import Testing

@testable import Recorder
@testable import TraceReader

/// Small traces written as string literals, and what the validator says of them, for the tests
/// of shared/TRACE_FORMAT.md's validity rules.
enum ValidationTesting {
    /// A header with one machine: CatalogStore idle → loading → loaded | failed → loading.
    static let header =
        #"{"type":"header","format":"rewind-trace","version":1,"app":"Shop","machines":{"CatalogStore":{"initial":"idle","transitions":{"idle":["loading"],"loading":["loaded","failed"],"loaded":["loading"],"failed":["loading"]}}}}"#

    /// The machine of `header`, as JSON.
    static let catalogMachine =
        #"{"initial":"idle","transitions":{"idle":["loading"],"loading":["loaded","failed"],"loaded":["loading"],"failed":["loading"]}}"#

    /// A header of `version` with CatalogStore's machine (unless `machines` says otherwise) and
    /// `rules`, a JSON array, when given.
    static func header(version: Int = 1, machines: String? = nil, rules: String? = nil) -> String {
        let machinesText = machines ?? #"{"CatalogStore":\#(catalogMachine)}"#
        let rulesMember = rules.map { #","rules":\#($0)"# } ?? ""
        return
            #"{"type":"header","format":"rewind-trace","version":\#(version),"machines":\#(machinesText)\#(rulesMember)}"#
    }

    /// A problem as the tests compare it: kind, line, seq and store.
    struct Found: Equatable, CustomStringConvertible {
        var kind: ProblemKind
        var line: Int
        var seq: Int?
        var store: String?

        init(_ kind: ProblemKind, line: Int, seq: Int? = nil, store: String? = nil) {
            self.kind = kind
            self.line = line
            self.seq = seq
            self.store = store
        }

        init(_ problem: Problem) {
            self.init(problem.kind, line: problem.line, seq: problem.seq, store: problem.store)
        }

        var description: String { "\(kind) line \(line) seq \(seq.map(String.init) ?? "-") store \(store ?? "-")" }
    }

    /// The report on `lines` joined with `\n` (and a final `\n` unless `final` is false).
    static func validate(
        _ lines: [String], final: Bool = true, machines: [String: MachineSpec] = [:],
        strictness validator: TraceValidator? = nil
    ) -> ValidationReport {
        let text = lines.joined(separator: "\n") + (final ? "\n" : "")
        return (validator ?? TraceValidator(machines: machines)).validate(bytes: Array(text.utf8), file: "test.jsonl")
    }

    /// The problems of `lines`, as compared by the tests.
    static func problems(
        _ lines: [String], final: Bool = true, machines: [String: MachineSpec] = [:], rules: [TraceRule]? = nil
    ) -> [Found] {
        let validator = TraceValidator(machines: machines, rules: rules)
        return validate(lines, final: final, strictness: validator).problems.map(Found.init)
    }

    /// A restore event (CatalogStore by default), with `members` (`,"step":3`) after its state.
    static func restore(
        _ seq: Int, _ caseName: String? = "idle", store: String = "CatalogStore", elapsed: Double = 1.0,
        members: String = ""
    ) -> String {
        let caseMember = caseName.map { #","case":"\#($0)""# } ?? ""
        return
            #"{"type":"restore","seq":\#(seq),"elapsed":\#(elapsed),"store":"\#(store)"\#(caseMember),"state":{"n":0}\#(members)}"#
    }

    /// A register event whose state is `{"n":0,"items":[]}` (for patches), with `members`
    /// (`,"machine":{...}`) before its state.
    static func registerState(
        _ seq: Int, _ caseName: String? = "idle", store: String = "CatalogStore", members: String = ""
    ) -> String {
        let caseMember = caseName.map { #","case":"\#($0)""# } ?? ""
        return
            #"{"type":"register","seq":\#(seq),"elapsed":0.0,"store":"\#(store)"\#(caseMember)\#(members),"state":{"n":0,"items":[]}}"#
    }

    /// A transition (CatalogStore by default) that carries `body`: `"patch":[...]`, `"state":...`,
    /// both or neither, and `elapsed` when given.
    static func transition(
        _ seq: Int, _ from: String?, _ to: String?, body: String, store: String = "CatalogStore",
        elapsed: Double? = nil
    ) -> String {
        var cases = ""
        if let from { cases += #","from":"\#(from)""# }
        if let to { cases += #","to":"\#(to)""# }
        let elapsedMember = elapsed.map { #","elapsed":\#($0)"# } ?? ""
        let bodyMember = body.isEmpty ? "" : "," + body
        return
            #"{"type":"transition","seq":\#(seq)\#(elapsedMember),"store":"\#(store)","action":"act"\#(cases),"changed":true\#(bodyMember)}"#
    }

    /// A register event of CatalogStore.
    static func register(_ seq: Int, _ caseName: String? = "idle", store: String = "CatalogStore") -> String {
        let caseMember = caseName.map { #","case":"\#($0)""# } ?? ""
        return
            #"{"type":"register","seq":\#(seq),"elapsed":0.0,"store":"\#(store)"\#(caseMember),"state":{"\#(caseName ?? "x")":{}}}"#
    }

    /// A transition event of CatalogStore.
    static func transition(
        _ seq: Int, _ from: String?, _ to: String?, action: String = "act", store: String = "CatalogStore"
    ) -> String {
        var cases = ""
        if let from { cases += #","from":"\#(from)""# }
        if let to { cases += #","to":"\#(to)""# }
        return
            #"{"type":"transition","seq":\#(seq),"elapsed":0.5,"store":"\#(store)","action":"\#(action)"\#(cases),"changed":true,"state":{"\#(to ?? "x")":{}},"source":"CatalogStore.swift:31"}"#
    }
}
