import Recorder
@_spi(RewindInternals) internal import RewindSupport

/// A `MachineSpec` prepared for checking one event after another: its cases numbered and looked
/// up by their bytes, and its allowed pairs in a bit matrix (a set of numbers for a machine too
/// large for one).
///
/// The tables are in one immutable object (`Tables`), so that reading a machine out of an array
/// for a lookup retains one reference, not each of its tables: the validator looks up two or
/// three cases per transition.
struct CompiledMachine {
    /// The lookup tables of a machine, built once and never changed.
    private final class Tables: Sendable {
        /// Case name → local case number.
        let cases: NameTable
        /// Bit `from * caseCount + to` is set for every allowed pair; used up to `matrixLimit` cases.
        let allowedBits: [UInt64]
        /// `from * caseCount + to` for every allowed pair, for machines of more cases.
        let allowed: Set<Int>

        init(cases: NameTable, allowedBits: [UInt64], allowed: Set<Int>) {
            self.cases = cases
            self.allowedBits = allowedBits
            self.allowed = allowed
        }
    }

    /// The machine as declared.
    let spec: MachineSpec
    private let tables: Tables
    /// Beyond this many cases the matrix (cases² bits, 2 MiB at the limit) gives way to the set.
    static let matrixLimit = 4096

    /// A machine without cases, standing for one not built yet (`MachineTable.addFixed(written:in:store:)`).
    static let unbuilt = CompiledMachine(MachineSpec(initial: "", cases: [], transitions: [:]))

    init(_ spec: MachineSpec) {
        self.spec = spec
        // A case is a key of `transitions`; `cases` gives their order (extra keys come last).
        var cases = NameTable()
        for name in spec.cases where spec.transitions[name] != nil { _ = cases.intern(name) }
        for name in spec.transitions.keys.sorted() { _ = cases.intern(name) }
        let count = cases.count
        let usesMatrix = count <= Self.matrixLimit
        var allowedBits: [UInt64] = []
        var allowed: Set<Int> = []
        if usesMatrix { allowedBits = Array(repeating: 0, count: (count * count + 63) / 64) }
        for (source, targets) in spec.transitions {
            guard let from = cases.find(source) else { continue }
            for target in targets {
                guard let to = cases.find(target) else { continue }
                let pair = from * count + to
                if usesMatrix { allowedBits[pair >> 6] |= 1 << UInt64(pair & 63) } else { allowed.insert(pair) }
            }
        }
        tables = Tables(cases: cases, allowedBits: allowedBits, allowed: allowed)
    }

    private var cases: NameTable { tables.cases }

    /// The number of `name`, or nil when it is not a case of this machine.
    @inline(__always)
    func caseNumber(_ name: ByteView) -> Int? {
        tables.cases.find(name)
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
        let tables = tables
        let pair = from &* tables.cases.count &+ to
        guard tables.allowedBits.isEmpty else {
            return tables.allowedBits[pair &>> 6] & (1 &<< UInt64(pair & 63)) != 0
        }
        return tables.allowed.contains(pair)
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
