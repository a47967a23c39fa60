/// The rules over time that a ``StateMachine`` type declares (its ``StateMachine/deadlines`` and
/// ``StateMachine/mustNotEndIn``), by case name in the order of `Case.allCases`: what the trace
/// header's `rules` says of a store pinned with `TraceRecorder(machines:)`.
struct MachineRules: Sendable {
    /// A deadline per case, for `within` rules.
    var deadlines: [(caseName: String, deadline: Deadline)] = []
    /// The cases a run must not end in, for one `notAtEnd` rule.
    var notAtEnd: [String] = []

    /// No rules (a machine given by its parts).
    init() {}

    /// The rules `type` declares, in the order of `cases`: the names of its cases in
    /// `allCases` order (``MachineSpec/cases``, which has walked `allCases` already).
    init<Machine: StateMachine>(_ type: Machine.Type, cases: [String]) {
        let deadlines = Machine.deadlines
        let notAtEnd = Machine.mustNotEndIn
        guard !deadlines.isEmpty || !notAtEnd.isEmpty else { return }
        for name in cases {
            guard let value = Machine.Case(rawValue: name) else { continue }
            if let deadline = deadlines[value] { self.deadlines.append((name, deadline)) }
            if notAtEnd.contains(value) { self.notAtEnd.append(name) }
        }
    }

    var isEmpty: Bool { deadlines.isEmpty && notAtEnd.isEmpty }

    /// Appends the rules about `store` as members of a `rules` array (shared/TRACE_FORMAT.md,
    /// "Rules over time"), each after a comma when `separated` (set once one is written). A
    /// limit the format cannot hold (`transitions` below 1, `seconds` not finite) is left out,
    /// and a deadline left with no limit is not written: a header with such a rule would be a
    /// trace no reader opens. Returns whether something was left out.
    func appendJSON(store: String, to out: JSONOutput, separated: inout Bool) -> Bool {
        var leftOut = false
        func open() {
            out.append(separated ? ",{\"store\":" : "{\"store\":")
            out.appendRareString(store)
            separated = true
        }
        for (caseName, deadline) in deadlines {
            let events = deadline.transitions.flatMap { $0 >= 1 ? Int64($0) : nil }
            let seconds = deadline.seconds.flatMap { $0.isFinite ? $0 : nil }
            if (events == nil) != (deadline.transitions == nil) || (seconds == nil) != (deadline.seconds == nil) {
                leftOut = true
            }
            guard events != nil || seconds != nil else { continue }
            open()
            out.append(",\"case\":")
            out.appendRareString(caseName)
            out.append(",\"within\":{")
            if let events {
                out.append("\"events\":")
                out.append(events)
            }
            if let seconds {
                out.append(events == nil ? "\"seconds\":" : ",\"seconds\":")
                out.append(seconds)
            }
            out.append("}}")
        }
        if !notAtEnd.isEmpty {
            open()
            out.append(",\"notAtEnd\":[")
            for (index, caseName) in notAtEnd.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.appendRareString(caseName)
            }
            out.append("]}")
        }
        return leftOut
    }
}
