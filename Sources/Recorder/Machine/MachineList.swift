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
/// A name listed twice is written once, with its first machine, and reported through the
/// recorder's `onError` (`RecordingFailure.Kind.duplicateMachine`): a header that named one
/// store twice would be a trace no reader accepts.
public struct MachineList: ExpressibleByDictionaryLiteral, Sendable {
    /// The machines by store name, in the order given, duplicates included.
    public private(set) var entries: [(name: String, machine: MachineSpec)] = []

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
        entries.append((name, MachineSpec(type)))
    }

    /// Adds a machine given by its parts (for instance, read from a spec file).
    public mutating func append(_ machine: MachineSpec, as name: String) {
        entries.append((name, machine))
    }

    /// The first machine of each name, in order, and the names given more than once.
    func firstOfEachName() -> (machines: [(name: String, machine: MachineSpec)], repeated: [String]) {
        var machines: [(name: String, machine: MachineSpec)] = []
        var repeated: [String] = []
        for entry in entries {
            if !machines.contains(where: { $0.name == entry.name }) {
                machines.append(entry)
            } else if !repeated.contains(entry.name) {
                repeated.append(entry.name)
            }
        }
        return (machines, repeated)
    }
}
