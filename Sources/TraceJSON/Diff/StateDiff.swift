/// The structural difference between two states (or two app states), computed once and
/// rendered as a change list (`changes`), as folded text (`StateDiffPrinter`) or as a JSON
/// Patch (`JSONPatch`); all three are read from the same comparison, so they agree.
///
/// What counts as a change:
/// - objects are compared member by member, by name: the order of members does not count, so
///   a member that moved is not a change; when a name appears twice, its last member counts;
/// - numbers are compared by their exact decimal value, however they are written: `1` and
///   `1.0`, `0` and `-0`, `1e400` and `10e399` are equal; `12345678901234567890` and
///   `12345678901234567891` are not (nothing is rounded through `Double`);
/// - strings are compared by their UTF-8 bytes, so `"é"` precomposed and `"e\u{301}"` differ,
///   as they do for every other JSON tool; a lone surrogate escape is itself (`"\ud800"` and
///   `"\udbff"` differ, and neither is U+FFFD; see `JSONParser`);
/// - arrays are aligned with Myers' diff, so one element inserted into a list of 10,000 is one
///   insertion. Where elements were removed and inserted at the same place, the ones that
///   share the most (for objects, members with equal values) are paired and compared in depth,
///   so an element whose one field changed is that field's change, and in `[B, C] → [C′]` `B`
///   is removed and `C` changed. An array whose alignment needs more than about a thousand
///   removals plus insertions (a list shuffled or rebuilt) is compared element by element by
///   position instead, which keeps any diff fast.
///
/// The comparison walks the two states' texts (`JSONText`), never a `JSONValue` tree: values
/// are compared by their bytes first and their hashes next, and walked into only where they
/// differ. Diffing two states from a trace through `init(from:to:)` with `JSONText`s
/// (`TraceFile.appStateText(atStep:store:)`) takes memory for the two texts and about 16 bytes
/// per element of the arrays it aligns; the `JSONValue` initializers print their values first.
///
/// An app state is an object from store name to that store's state (TRACE_FORMAT.md, "The app
/// state at step N"), so its paths start with the store's name: `CatalogStore.loaded._0[3].title`.
public struct StateDiff: Sendable {
    /// The two texts compared.
    let beforeText: JSONText
    let afterText: JSONText
    /// The comparison; nil when the states are the same data.
    package let root: ValueDiff?

    /// Compares two states given as texts, such as two app states read from a trace.
    public init(from before: JSONText, to after: JSONText) {
        beforeText = before
        afterText = after
        root = before.withReader { old, oldRoot in
            after.withReader { new, newRoot in
                var differ = Differ(old: old, new: new)
                return differ.diff(oldRoot, newRoot)
            }
        }
    }

    /// Compares two states.
    public init(from before: JSONValue, to after: JSONValue) {
        self.init(from: JSONText(before), to: JSONText(after))
    }

    /// Compares two app states: objects from store name to state.
    public init(from before: JSONObject, to after: JSONObject) {
        self.init(from: .object(before), to: .object(after))
    }

    /// The first state (parsed from its text when asked for).
    public var before: JSONValue { beforeText.value }

    /// The second state (parsed from its text when asked for).
    public var after: JSONValue { afterText.value }

    /// Whether the two states are the same data.
    public var isEmpty: Bool {
        root == nil
    }

    /// Calls `body` with readers of the two texts.
    package func withReaders<Result>(_ body: (_ old: JSONTextReader, _ new: JSONTextReader) -> Result) -> Result {
        beforeText.withReader { old, _ in afterText.withReader { new, _ in body(old, new) } }
    }

    /// Every change, in document order (the second state's member order, each removed member
    /// after the member that preceded it in the first); empty when the states are the same.
    /// Each change holds its values as `JSONValue`s: for states with very large changed parts,
    /// `StateDiffPrinter` prints the same list without making them.
    public var changes: [StateChange] {
        changes(namingItemsByID: false)
    }

    /// `changes`, with the elements of arrays whose elements are all objects with distinct ids
    /// (each an `id` member that is a string or an integer, `StatePath.ItemID`) named by id when
    /// `namingItemsByID` is on: `CartStore.lines[id: "MUG"].quantity: 1 → 2` rather than
    /// `CartStore.lines[3].quantity`, whichever position the item has, in both arrays. A removed
    /// element is named by its id in the old array, an added one by its id in the new one; an
    /// element whose own `id` changed is named by its position in the new array. Arrays with an
    /// element without an id, or two elements with one id, keep positions.
    public func changes(namingItemsByID: Bool) -> [StateChange] {
        guard let root else { return [] }
        return withReaders { old, new in
            var changes: [StateChange] = []
            var walk = ChangeWalk(old: old, new: new, namesItemsByID: namingItemsByID)
            walk.forEach(root, at: StatePath()) { change in
                switch change.kind {
                case .changed(let from, let to):
                    changes.append(.changed(change.path, from: old.jsonValue(from), to: new.jsonValue(to)))
                case .added(let value):
                    changes.append(.added(change.path, new.jsonValue(value)))
                case .removed(let value):
                    changes.append(.removed(change.path, old.jsonValue(value)))
                }
            }
            return changes
        }
    }

    /// The changes that turn `before` into `after`: `StateDiff(from:to:).changes`.
    public static func changes(from before: JSONValue, to after: JSONValue) -> [StateChange] {
        StateDiff(from: before, to: after).changes
    }

    /// The changes that turn one app state into another.
    public static func changes(from before: JSONObject, to after: JSONObject) -> [StateChange] {
        StateDiff(from: before, to: after).changes
    }
}
