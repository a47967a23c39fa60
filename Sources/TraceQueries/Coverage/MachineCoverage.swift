import Recorder

/// How much of one store's state machine a set of recorded runs exercised: each declared
/// transition with how often it was taken, the transitions taken that the machine does not
/// declare, and the cases no run visited. One element of `TraceCoverage.machines`.
public struct MachineCoverage: Sendable, Equatable {
    /// One `from → to` pair, with what the runs did with it.
    public struct Transition: Sendable, Equatable {
        /// The case before.
        public var from: String
        /// The case after.
        public var to: String
        /// How many transition events, over all the runs, went from `from` to `to`.
        public var count: Int
        /// How many runs (trace files) took it at least once.
        public var traces: Int
        /// The actions that took it, in the order first seen.
        public var actions: [String]

        /// A pair taken `count` times in `traces` runs by `actions`.
        public init(from: String, to: String, count: Int, traces: Int, actions: [String]) {
            self.from = from
            self.to = to
            self.count = count
            self.traces = traces
            self.actions = actions
        }
    }

    /// The store's name, which identifies the machine.
    public var store: String
    /// The machine the coverage is measured against (see `TraceCoverage` for which one).
    public var machine: MachineSpec
    /// Every transition the machine declares, in declaration order, taken or not (`count` 0).
    public var declared: [Transition]
    /// The transitions taken that the machine does not declare (illegal ones, and those to or
    /// from a case the machine lacks), in the order first taken.
    public var undeclared: [Transition]
    /// The machine's cases that no run visited (no register or restore set the store to it, no
    /// transition left or entered it), in declaration order.
    public var unvisitedCases: [String]
    /// How many runs have this store: a machine for it, or a transition of it.
    public var traces: Int
    /// How many of those runs declare another machine for the store than `machine`.
    public var tracesWithAnotherMachine: Int

    /// Creates the coverage of one machine from its parts.
    public init(
        store: String, machine: MachineSpec, declared: [Transition], undeclared: [Transition],
        unvisitedCases: [String], traces: Int, tracesWithAnotherMachine: Int = 0
    ) {
        self.store = store
        self.machine = machine
        self.declared = declared
        self.undeclared = undeclared
        self.unvisitedCases = unvisitedCases
        self.traces = traces
        self.tracesWithAnotherMachine = tracesWithAnotherMachine
    }

    /// The declared transitions taken at least once.
    public var takenCount: Int { declared.reduce(0) { $0 + ($1.count > 0 ? 1 : 0) } }

    /// The declared transitions never taken, in declaration order.
    public var neverTaken: [Transition] { declared.filter { $0.count == 0 } }

    /// Declared transitions taken / declared transitions, from 0 to 100; nil for a machine that
    /// declares no transition (every case final), which has nothing to cover.
    public var percent: Double? {
        declared.isEmpty ? nil : Double(takenCount) * 100 / Double(declared.count)
    }

    /// The machine's cases in declaration order: those `cases` lists that have a row in
    /// `transitions`, then any other row, by name (a spec built by hand may list fewer).
    static func declaredCases(of machine: MachineSpec) -> [String] {
        let listed = Set(machine.cases)
        var seen: Set<String> = []
        let ordered = machine.cases.filter { machine.transitions[$0] != nil && seen.insert($0).inserted }
        return ordered + machine.transitions.keys.filter { !listed.contains($0) }.sorted()
    }

    /// The machine's declared `from → to` pairs, in declaration order, each once.
    static func declaredPairs(of machine: MachineSpec) -> [(from: String, to: String)] {
        var pairs: [(from: String, to: String)] = []
        for source in declaredCases(of: machine) {
            var seen: Set<String> = []
            for target in machine.transitions[source] ?? [] where seen.insert(target).inserted {
                pairs.append((source, target))
            }
        }
        return pairs
    }
}
