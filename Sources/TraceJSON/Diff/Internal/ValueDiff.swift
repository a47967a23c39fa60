/// How one JSON value became another that is not the same data: the tree every form of a diff
/// (the change list, the folded text, the JSON Patch) is rendered from, so they always agree.
///
/// Only changed branches are expanded; values are positions in the two texts, never copies, and
/// runs of unchanged members or elements are one entry each, so a diff of two large states that
/// differ in a few places stays small.
package indirect enum ValueDiff: Sendable {
    /// Replaced as a whole: a scalar that changed, or a value of another JSON type.
    case replaced(old: TextValue, new: TextValue)
    /// Two objects whose members differ.
    case object([ObjectEntry])
    /// Two arrays whose elements differ, aligned; the arrays themselves, in the old text and in
    /// the new one (to name their elements by id, see `ElementIDs`).
    case array([ArrayEntry], old: TextValue, new: TextValue)
}

/// Members of two objects being compared, in display order: the new object's order, with each
/// removed member placed after the member that preceded it in the old object. Names are the
/// offsets of their opening quotes: in the old text for `removed`, in the new one otherwise.
package enum ObjectEntry: Sendable {
    /// `count` members in a row that are the same in both; the first one's name and value.
    case unchanged(name: Int, value: TextValue, count: Int)
    /// A member of the old object that is gone.
    case removed(name: Int, value: TextValue)
    /// A member of the new object that is new.
    case added(name: Int, value: TextValue)
    /// A member whose value changed, as the diff says.
    case changed(name: Int, ValueDiff)
}

/// One step of an array alignment. In order, applying them from the start (removed elements
/// taken from the old array, added ones from the new) turns the old array into the new one.
package enum ArrayEntry: Sendable {
    /// `count` elements that are the same data, from `old` in the old array and `new` in the new;
    /// the first of them, in the new text.
    case unchanged(old: Int, new: Int, count: Int, first: TextValue)
    /// The old element at `old` is gone.
    case removed(old: Int, value: TextValue)
    /// The new element at `new` is new.
    case added(new: Int, value: TextValue)
    /// The old element at `old` became the new element at `new`, as the diff says.
    case changed(old: Int, new: Int, ValueDiff)
}
