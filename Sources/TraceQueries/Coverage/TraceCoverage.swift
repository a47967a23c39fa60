import Recorder
import TraceReader

/// Which transitions of each state machine a set of recorded runs exercised, and which they
/// never did: the engine of `inspector coverage`, for an app's own tests too.
///
/// ```swift
/// let coverage = TraceCoverage.measure(files: ["traces/browse.jsonl", "traces/checkout.jsonl"])
/// for machine in coverage.machines {
///     print(machine.store, machine.percent ?? 100, machine.neverTaken.map { "\($0.from) → \($0.to)" })
/// }
/// ```
///
/// Each file is read once, streaming, by `TransitionTally` (the same scan as validation: only
/// the keys it needs are taken from each line, states are skipped), several files at a time on
/// the machine's cores; the tallies are then added up in the order the files were given.
///
/// A machine is identified by its store's name. In each run a store's machine is the one the
/// format gives it (the `machines` passed here, else the `machine` of its last register event,
/// else the header's); when the runs do not agree, coverage is measured against the machine
/// most of them declare (the first given among equals), and `tracesWithAnotherMachine` says how
/// many declared another. Machines are compared as tables: the order of cases or targets does
/// not count.
public struct TraceCoverage: Sendable {
    /// How many runs were counted (the files that could be read as traces).
    public var traces: Int
    /// Each store that has a machine in some run, in the order first seen.
    public var machines: [MachineCoverage]
    /// The stores that took transitions (with `from` and `to`) but have no machine in any run.
    public var storesWithoutMachine: [String]
    /// Lines of the runs that are not one JSON object, skipped (`inspector validate` says why).
    public var unreadableLines: Int
    /// The files that could not be read or are not traces, in the order given.
    public var failures: [ValidationFileError]

    /// Declared transitions over all machines.
    public var declaredCount: Int { machines.reduce(0) { $0 + $1.declared.count } }

    /// Declared transitions taken at least once, over all machines.
    public var takenCount: Int { machines.reduce(0) { $0 + $1.takenCount } }

    /// `takenCount / declaredCount`, from 0 to 100; nil when no machine declares a transition.
    public var percent: Double? {
        declaredCount == 0 ? nil : Double(takenCount) * 100 / Double(declaredCount)
    }

    /// The coverage of the trace files at `paths`, read several at a time.
    /// - Parameter machines: machines that replace the traces', store by store (a spec file's).
    public static func measure(files paths: [String], machines: [String: MachineSpec] = [:]) -> TraceCoverage {
        let results = ParallelFiles.map(paths) { path throws(ValidationFileError) in
            try TransitionTally.count(file: path, machines: machines)
        }
        var tallies: [TransitionTally] = []
        var failures: [ValidationFileError] = []
        for result in results {
            switch result {
            case .success(let tally): tallies.append(tally)
            case .failure(let error): failures.append(error)
            }
        }
        var coverage = TraceCoverage(tallies: tallies)
        coverage.failures = failures
        return coverage
    }

    /// The coverage of runs already counted, one tally per run, in the order given.
    public init(tallies: [TransitionTally]) {
        var order: [String] = []
        var entries: [String: Entry] = [:]
        var withoutMachine: [String] = []
        var unreadable = 0
        for tally in tallies {
            unreadable += tally.unreadableLines
            for store in tally.stores {
                if entries[store.name] == nil {
                    entries[store.name] = Entry()
                    order.append(store.name)
                }
                entries[store.name]!.add(store)
            }
        }
        var machines: [MachineCoverage] = []
        for name in order {
            guard let coverage = entries[name]!.coverage(store: name) else {
                withoutMachine.append(name)
                continue
            }
            machines.append(coverage)
        }
        self.traces = tallies.count
        self.machines = machines
        self.storesWithoutMachine = withoutMachine
        self.unreadableLines = unreadable
        self.failures = []
    }

    /// One store's runs, added up.
    private struct Entry {
        /// The machines the runs declare, by table, with how many runs declare each and the
        /// first spelling seen.
        var candidates: [MachineTable: (machine: MachineSpec, runs: Int, first: Int)] = [:]
        var runs = 0
        var taken: [Pair: MachineCoverage.Transition] = [:]
        var takenOrder: [Pair] = []
        var actionSets: [Pair: Set<String>] = [:]
        var visited: Set<String> = []

        struct Pair: Hashable {
            var from: String
            var to: String
        }

        mutating func add(_ store: TransitionTally.Store) {
            runs += 1
            if let machine = store.machine {
                let table = MachineTable(machine)
                let known = candidates[table]
                candidates[table] = (
                    known?.machine ?? machine, (known?.runs ?? 0) + 1, known?.first ?? candidates.count
                )
            }
            visited.formUnion(store.registeredCases)
            for pair in store.taken {
                visited.insert(pair.from)
                visited.insert(pair.to)
                let key = Pair(from: pair.from, to: pair.to)
                if taken[key] == nil {
                    taken[key] = MachineCoverage.Transition(
                        from: pair.from, to: pair.to, count: 0, traces: 0, actions: [])
                    takenOrder.append(key)
                }
                taken[key]!.count += pair.count
                taken[key]!.traces += 1
                for action in pair.actions where actionSets[key, default: []].insert(action).inserted {
                    taken[key]!.actions.append(action)
                }
            }
        }

        /// The store's coverage, or nil when no run gives it a machine.
        func coverage(store: String) -> MachineCoverage? {
            guard
                let chosen = candidates.values.max(by: { ($0.runs, -$0.first) < ($1.runs, -$1.first) })
            else { return nil }
            let machine = chosen.machine
            var declaredSet: Set<Pair> = []
            let declared = MachineCoverage.declaredPairs(of: machine).map { pair in
                let key = Pair(from: pair.from, to: pair.to)
                declaredSet.insert(key)
                return taken[key]
                    ?? MachineCoverage.Transition(from: pair.from, to: pair.to, count: 0, traces: 0, actions: [])
            }
            let undeclared = takenOrder.filter { !declaredSet.contains($0) }.map { taken[$0]! }
            let unvisited = MachineCoverage.declaredCases(of: machine).filter { !visited.contains($0) }
            let declaring = candidates.values.reduce(0) { $0 + $1.runs }
            return MachineCoverage(
                store: store, machine: machine, declared: declared, undeclared: undeclared, unvisitedCases: unvisited,
                traces: runs, tracesWithAnotherMachine: declaring - chosen.runs)
        }
    }

    /// A machine as a table, for telling whether two runs declare the same one: the order of
    /// cases and of targets, and repeated targets, do not count.
    private struct MachineTable: Hashable {
        var initial: String
        var transitions: [String: Set<String>]

        init(_ machine: MachineSpec) {
            initial = machine.initial
            transitions = machine.transitions.mapValues(Set.init)
        }
    }
}
