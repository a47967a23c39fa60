/// The structural difference between two states (or two app states), computed once and
/// rendered as a change list (`changes`), as folded text (`StateDiffPrinter`) or as a JSON
/// Patch (`JSONPatch.make(_:)`); all three are read from the same comparison, so they agree.
///
/// What counts as a change:
/// - objects are compared member by member, by name: the order of members does not count, so
///   a member that moved is not a change; when a name appears twice, its last value counts;
/// - numbers are compared by their exact decimal value, however they are written: `1` and
///   `1.0`, `0` and `-0`, `1e400` and `10e399` are equal; `12345678901234567890` and
///   `12345678901234567891` are not (nothing is rounded through `Double`);
/// - strings are compared by their UTF-8 bytes, so `"é"` precomposed and `"e\u{301}"` differ,
///   as they do for every other JSON tool;
/// - arrays are aligned with Myers' diff, so one element inserted into a list of 10,000 is one
///   insertion. Where elements were removed and inserted at the same place, the ones that
///   share the most (for objects, members with equal values) are paired and compared in depth,
///   so an element whose one field changed is that field's change, and in `[B, C] → [C′]` `B`
///   is removed and `C` changed. An array whose alignment needs more than about a thousand
///   removals plus insertions (a list shuffled or rebuilt) is compared element by element by
///   position instead, which keeps any diff fast.
///
/// An app state is an object from store name to that store's state (TRACE_FORMAT.md, "The app
/// state at step N"), so its paths start with the store's name: `CatalogStore.loaded._0[3].title`.
public struct StateDiff: Sendable {
    /// The first state.
    public let before: JSONValue
    /// The second state.
    public let after: JSONValue
    /// The comparison; nil when the states are the same data.
    let root: ValueDiff?

    /// Compares two states.
    public init(from before: JSONValue, to after: JSONValue) {
        self.before = before
        self.after = after
        root = Differ.diff(before, after)
    }

    /// Compares two app states: objects from store name to state.
    public init(from before: JSONObject, to after: JSONObject) {
        self.init(from: .object(before), to: .object(after))
    }

    /// Whether the two states are the same data.
    public var isEmpty: Bool {
        root == nil
    }

    /// Every change, in document order (the second state's member order, each removed member
    /// after the member that preceded it in the first); empty when the states are the same.
    public var changes: [StateChange] {
        var changes: [StateChange] = []
        if let root { StateDiff.collect(root, at: StatePath(), into: &changes) }
        return changes
    }

    /// The changes that turn `before` into `after`: `StateDiff(from:to:).changes`.
    public static func changes(from before: JSONValue, to after: JSONValue) -> [StateChange] {
        StateDiff(from: before, to: after).changes
    }

    /// The changes that turn one app state into another.
    public static func changes(from before: JSONObject, to after: JSONObject) -> [StateChange] {
        StateDiff(from: before, to: after).changes
    }

    private static func collect(_ diff: ValueDiff, at path: StatePath, into changes: inout [StateChange]) {
        switch diff {
        case .replaced(let old, let new):
            changes.append(.changed(path, from: old, to: new))
        case .object(let entries):
            for entry in entries {
                switch entry {
                case .unchanged:
                    break
                case .removed(let key, let value):
                    changes.append(.removed(path.appending(.key(key)), value))
                case .added(let key, let value):
                    changes.append(.added(path.appending(.key(key)), value))
                case .changed(let key, let inner):
                    collect(inner, at: path.appending(.key(key)), into: &changes)
                }
            }
        case .array(let arrays):
            for entry in arrays.entries {
                switch entry {
                case .unchanged:
                    break
                case .removed(let old):
                    changes.append(.removed(path.appending(.index(old)), arrays.old[old]))
                case .added(let new):
                    changes.append(.added(path.appending(.index(new)), arrays.new[new]))
                case .changed(_, let new, let inner):
                    collect(inner, at: path.appending(.index(new)), into: &changes)
                }
            }
        }
    }
}
