/// State machines to write into a trace header, each under a store's name: an optional pin.
///
/// A recorder does not need it. Every store whose state is a ``StateMachine`` writes its own
/// machine in its `register` event (shared/TRACE_FORMAT.md, register's `machine`), so a store
/// brings its table whatever it is named (`Store(name: "Editor-1")`, two instances of one store
/// class): no list of names has to match. A machine listed here is also written in the header,
/// where a reader that predates register machines finds it, and the recorder checks that a store
/// registering under a listed name has that very machine (`RecordingFailure.Kind.machineMismatch`
/// otherwise; the store's own machine is what the register event carries).
///
/// Write it as a literal, or build it at run time (a `KeyValuePairs` literal cannot be built at
/// run time, which is why this is its own type):
///
/// ```swift
/// let pins: MachineList = ["CatalogStore": CatalogState.self]
/// var built = MachineList()
/// for (name, type) in features { built.append(type, as: name) }
/// ```
///
/// The rules over time that a listed type declares (``StateMachine/deadlines``,
/// ``StateMachine/mustNotEndIn``) are written in the header's `rules` under the listed name. This
/// list is the only way rules reach a trace: a rule names its store, and the header is written
/// before any store registers.
///
/// A name listed twice is written once, with its first machine, and reported through the
/// recorder's `onError` (`RecordingFailure.Kind.duplicateMachine`): a header that named one
/// store twice would be a trace no reader accepts.
public struct MachineList: ExpressibleByDictionaryLiteral, Sendable {
    /// The machines by store name, in the order given, duplicates included.
    public private(set) var entries: [(name: String, machine: MachineSpec)] = []
    /// The rules over time each entry's type declares, by index in `entries`.
    private var rules: [MachineRules] = []

    /// An empty list.
    public init() {}

    /// The machines of a literal, in its order.
    public init(dictionaryLiteral elements: (String, any StateMachine.Type)...) {
        for (name, type) in elements { append(type, as: name) }
    }

    /// The machines of `pairs`, in their order.
    public init(_ pairs: [(String, any StateMachine.Type)]) {
        for (name, type) in pairs { append(type, as: name) }
    }

    /// Adds the machine that `type` declares, under the store name `name`.
    public mutating func append(_ type: any StateMachine.Type, as name: String) {
        let machine = MachineSpec(type)
        entries.append((name, machine))
        rules.append(MachineRules(type, cases: machine.cases))
    }

    /// Adds a machine given by its parts (for instance, read from a spec file), with no rules.
    public mutating func append(_ machine: MachineSpec, as name: String) {
        entries.append((name, machine))
        rules.append(MachineRules())
    }

    /// The first machine of each name with its rules, in order, and the names given more than once.
    func firstOfEachName() -> (machines: [PinnedMachine], repeated: [String]) {
        var machines: [PinnedMachine] = []
        var repeated: [String] = []
        for (entry, rules) in zip(entries, rules) {
            if !machines.contains(where: { $0.name == entry.name }) {
                machines.append((entry.name, entry.machine, rules))
            } else if !repeated.contains(entry.name) {
                repeated.append(entry.name)
            }
        }
        return (machines, repeated)
    }
}

/// A machine written in the header under a store's name, with the rules its type declares.
typealias PinnedMachine = (name: String, machine: MachineSpec, rules: MachineRules)
