/// A `MachineSpec` prepared for checking one event after another: its cases numbered and looked
/// up by their bytes, and its allowed pairs in a set of numbers.
struct CompiledMachine {
    /// The machine as declared.
    let spec: MachineSpec
    /// Case name → local case number.
    private var cases = NameTable()
    /// `from * caseCount + to` for every allowed pair.
    private var allowed: Set<Int> = []

    init(_ spec: MachineSpec) {
        self.spec = spec
        // A case is a key of `transitions`; `cases` gives their order (extra keys come last).
        for name in spec.cases where spec.transitions[name] != nil { _ = cases.intern(name) }
        for name in spec.transitions.keys.sorted() { _ = cases.intern(name) }
        let count = cases.count
        for (source, targets) in spec.transitions {
            guard let from = cases.find(source) else { continue }
            for target in targets {
                if let to = cases.find(target) { allowed.insert(from * count + to) }
            }
        }
    }

    /// The number of `name`, or nil when it is not a case of this machine.
    @inline(__always)
    func caseNumber(_ name: UnsafeRawBufferPointer) -> Int? {
        cases.find(name)
    }

    /// The number of `name`, or nil when it is not a case of this machine.
    func caseNumber(_ name: String) -> Int? {
        cases.find(name)
    }

    /// The name of case number `number`.
    func caseName(_ number: Int) -> String {
        cases.name(number)
    }

    /// Whether one action may go from case `from` to case `to`.
    @inline(__always)
    func allows(from: Int, to: Int) -> Bool {
        allowed.contains(from &* cases.count &+ to)
    }

    /// The cases reachable from `from`, for messages.
    func targets(of from: Int) -> [String] {
        spec.transitions[cases.name(from)] ?? []
    }

    /// Every case, for messages: `idle, loading, loaded, failed`.
    var caseList: String {
        (0..<cases.count).map(cases.name).joined(separator: ", ")
    }
}
