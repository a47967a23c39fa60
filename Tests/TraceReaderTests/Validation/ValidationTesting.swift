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
    static func problems(_ lines: [String], final: Bool = true, machines: [String: MachineSpec] = [:]) -> [Found] {
        validate(lines, final: final, machines: machines).problems.map(Found.init)
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
