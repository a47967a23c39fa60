import Recorder
@_spi(RewindInternals) internal import RewindSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The transitions a trace took, store by store, with how often each was taken and by which
/// actions, next to each store's declared machine: what `inspector graph` draws.
///
/// Only well-formed `transition` events with `store`, `from` and `to` are counted; lines that are
/// not one JSON object are skipped and counted in `unreadableLines` (`inspector validate` says
/// what is wrong with them).
public struct TransitionTally: Sendable {
    /// One `from → to` pair that the trace took.
    public struct Taken: Sendable, Hashable {
        /// The case before.
        public var from: String
        /// The case after.
        public var to: String
        /// How many transition events went from `from` to `to`.
        public var count: Int
        /// The actions that did, in the order first seen.
        public var actions: [String]

        /// A pair taken `count` times by `actions`.
        public init(from: String, to: String, count: Int, actions: [String]) {
            self.from = from
            self.to = to
            self.count = count
            self.actions = actions
        }
    }

    /// One store's machine and the transitions it took.
    public struct Store: Sendable {
        /// The store's name.
        public var name: String
        /// The store's machine, from the header (or the spec that replaced it); nil when it has none.
        public var machine: MachineSpec?
        /// The pairs taken, in the order first taken.
        public var taken: [Taken]
        /// The cases its `register` and `restore` events set it to, in the order first seen
        /// (with the cases of `taken`, the cases the trace visited: what `TraceCoverage` needs).
        public var registeredCases: [String] = []

        /// How often `from → to` was taken (0 when never).
        public func count(from: String, to: String) -> Int {
            taken.first { $0.from == from && $0.to == to }?.count ?? 0
        }

        /// Whether the machine declares `from → to`; false for a store without a machine.
        public func declares(from: String, to: String) -> Bool {
            machine?.allows(from: from, to: to) ?? false
        }
    }

    /// The trace's header.
    public var header: TraceHeader
    /// The stores with a machine, in the header's order (the spec's machines that the header
    /// lacks after them, by name, then the stores whose register event carries a machine, in the
    /// order first seen); then the stores without a machine that took transitions with `from`
    /// and `to`, in the order first seen. A store's machine is the spec's, else the one its last
    /// register event carries, else the header's.
    public var stores: [Store]
    /// The number of lines after the header that are not one JSON object.
    public var unreadableLines: Int

    /// Counts the transitions of the trace file at `path`: a file, or a pipe or a device read
    /// once as it comes (`TraceInput`). Reading stops at line 1 when it cannot be a header.
    /// - Parameter machines: machines that replace the header's, store by store.
    /// - Throws: `ValidationFileError` when the file cannot be read or is not a trace.
    public static func count(file path: String, machines: [String: MachineSpec] = [:]) throws(ValidationFileError)
        -> TransitionTally
    {
        let input: TraceInput
        do {
            input = try TraceInput.open(path)
        } catch {
            switch error {
            case .system(let code): throw ValidationFileError(path: path, message: TraceValidator.openFailure(code))
            case .directory: throw ValidationFileError(path: path, message: "is a directory, not a trace")
            case .noWriter, .nothingCame:
                let (_, line, message) = error.openError
                throw ValidationFileError(
                    path: path, line: line, message: line == nil ? message : "not a trace: \(message)")
            }
        }
        if let line = input.firstLineIfNotAHeader() { return try count(bytes: line, file: path, machines: machines) }
        var counter = Counter(overrides: machines)
        do {
            try input.forEachChunk(blockSize: 4 << 20, maximumLineLength: LineReader.maximumLineLength) { chunk, _ in
                switch chunk {
                case .overlongLine:
                    // Line 1 too: it is then no header, and `consume` stops.
                    return counter.consume(
                        LineReader.Line(bytes: .empty, isTerminated: false, isOverlong: true))
                case .lines(let bytes):
                    return LineReader.forEachLine(in: bytes) { counter.consume($0) }
                }
            }
        } catch {
            throw ValidationFileError(path: path, message: "cannot read: \(error.reason)")
        }
        return try counter.finish(path: path)
    }

    /// Counts the transitions of a trace held in memory; `file` names it in errors.
    public static func count(
        bytes: some Collection<UInt8>, file: String = "trace.jsonl", machines: [String: MachineSpec] = [:]
    ) throws(ValidationFileError) -> TransitionTally {
        var counter = Counter(overrides: machines)
        ByteView.withBytes(of: bytes) { buffer in
            _ = LineReader.forEachLine(in: buffer) { counter.consume($0) }
        }
        return try counter.finish(path: file)
    }

    /// The counting itself, line by line.
    private struct Counter {
        let overrides: [String: MachineSpec]
        var header: TraceHeader?
        var headerError: TraceHeaderError?
        var lineNumber = 0
        var unreadable = 0
        var storeNames = NameTable()
        var caseNames = NameTable()
        var actionNames = NameTable()
        /// (store, from, to) → index in `taken`.
        var pairs: [Pair: Int] = [:]
        /// The machine each store's last register event carried (nil: it carried none), and the
        /// stores in the order first seen with one.
        var registerMachines: [String: MachineSpec?] = [:]
        var registerMachineOrder: [String] = []
        /// (store, case) of each register or restore event, once each, in the order first seen.
        var registeredCases: [RegisteredCase] = []
        var registeredCaseSet: Set<RegisteredCase> = []
        var taken: [(store: Int, from: Int, to: Int, count: Int, actions: [Int])] = []
        /// The actions of each entry of `taken`, as a set: `contains` on the list was quadratic.
        var actionSets: [Set<Int>] = []

        package struct Pair: Hashable {
            var store: Int
            var from: Int
            var to: Int
        }

        struct RegisteredCase: Hashable {
            var store: Int
            var caseName: Int
        }

        init(overrides: [String: MachineSpec]) {
            self.overrides = overrides
        }

        mutating func consume(_ line: LineReader.Line) -> Bool {
            lineNumber += 1
            if lineNumber == 1 {
                guard !line.isOverlong else {
                    headerError = TraceHeaderError("line 1 is longer than 1 GiB; it is not a trace header")
                    return false
                }
                do throws(TraceHeaderError) {
                    header = try TraceHeader.parse(line.bytes)
                } catch {
                    headerError = error
                    return false
                }
                return true
            }
            if line.isOverlong {
                unreadable += 1
                return true
            }
            guard !LineReader.isEmpty(line.bytes) else { return true }
            let fields: EventFields
            do {
                fields = try EventScanner.scan(line.bytes)
            } catch {
                unreadable += 1
                return true
            }
            guard let type = fields.type else { return true }
            let eventType = EventLineCheck.eventType(type, in: line.bytes)
            if eventType == .register, let store = fields.store {
                noteMachine(of: EventFields.string(store, in: line.bytes), fields, line.bytes)
            }
            if eventType == .register || eventType == .restore, let store = fields.store, let caseName = fields.caseName
            {
                let entry = RegisteredCase(
                    store: intern(&storeNames, store, line.bytes), caseName: intern(&caseNames, caseName, line.bytes))
                if registeredCaseSet.insert(entry).inserted { registeredCases.append(entry) }
            }
            guard eventType == .transition, let store = fields.store, let from = fields.from, let to = fields.to
            else { return true }
            let pair = Pair(
                store: intern(&storeNames, store, line.bytes), from: intern(&caseNames, from, line.bytes),
                to: intern(&caseNames, to, line.bytes))
            let action = fields.action.map { intern(&actionNames, $0, line.bytes) }
            if let index = pairs[pair] {
                taken[index].count += 1
                if let action, actionSets[index].insert(action).inserted { taken[index].actions.append(action) }
            } else {
                pairs[pair] = taken.count
                taken.append((pair.store, pair.from, pair.to, 1, action.map { [$0] } ?? []))
                actionSets.append(action.map { [$0] } ?? [])
            }
            return true
        }

        /// Keeps the machine a register event carries (or that it carries none).
        private mutating func noteMachine(of store: String, _ fields: EventFields, _ line: ByteView) {
            guard case .success(let machine)? = EventLineCheck.machine(in: fields, line: line) else {
                if registerMachines[store] != nil { registerMachines[store] = .some(nil) }
                return
            }
            if registerMachines[store] == nil { registerMachineOrder.append(store) }
            registerMachines[store] = .some(machine)
        }

        private func intern(_ table: inout NameTable, _ text: EventFields.Text, _ line: ByteView) -> Int {
            text.hasEscapes
                ? table.intern(EventFields.string(text, in: line))
                : table.intern(line[text.range])
        }

        func finish(path: String) throws(ValidationFileError) -> TransitionTally {
            if let headerError {
                throw ValidationFileError(path: path, line: 1, message: "not a trace: \(headerError.message)")
            }
            guard let header else {
                throw ValidationFileError(
                    path: path, line: 1,
                    message: "not a trace: the file is empty; a Rewind trace starts with its header line")
            }
            var machines = header.machines
            for case (let store, let machine?) in registerMachines { machines[store] = machine }
            for (store, spec) in overrides { machines[store] = spec }
            var order = header.machineOrder
            order += overrides.keys.filter { header.machines[$0] == nil }.sorted()
            order += registerMachineOrder.filter { header.machines[$0] == nil && overrides[$0] == nil }
            order = order.filter { machines[$0] != nil }
            var stores = order.map { Store(name: $0, machine: machines[$0], taken: []) }
            var index: [String: Int] = [:]
            for (position, store) in stores.enumerated() { index[store.name] = position }
            for entry in taken {
                let name = storeNames.name(entry.store)
                let position: Int
                if let known = index[name] {
                    position = known
                } else {
                    position = stores.count
                    index[name] = position
                    stores.append(Store(name: name, machine: nil, taken: []))
                }
                stores[position].taken.append(
                    Taken(
                        from: caseNames.name(entry.from), to: caseNames.name(entry.to), count: entry.count,
                        actions: entry.actions.map(actionNames.name)))
            }
            // Only for the stores listed: a store without a machine that took no transition is not.
            for entry in registeredCases {
                if let position = index[storeNames.name(entry.store)] {
                    stores[position].registeredCases.append(caseNames.name(entry.caseName))
                }
            }
            return TransitionTally(header: header, stores: stores, unreadableLines: unreadable)
        }
    }
}
