/// How one JSON value became another that is not the same data: the tree every form of a diff
/// (the change list, the folded text, the JSON Patch) is rendered from, so they always agree.
///
/// Only changed branches are expanded; unchanged parts are kept by reference (values are
/// copy-on-write), so a diff of two large states that differ in a few places stays small.
indirect enum ValueDiff: Sendable {
    /// Replaced as a whole: a scalar that changed, or a value of another JSON type.
    case replaced(JSONValue, JSONValue)
    /// Two objects whose members differ.
    case object([ObjectEntry])
    /// Two arrays whose elements differ, aligned.
    case array(ArrayDiff)
}

/// One member of two objects being compared, in display order: the new object's order, with
/// each removed member placed after the member that preceded it in the old object.
enum ObjectEntry: Sendable {
    case unchanged(key: String, value: JSONValue)
    case removed(key: String, value: JSONValue)
    case added(key: String, value: JSONValue)
    case changed(key: String, ValueDiff)
}

/// Two arrays aligned element by element.
struct ArrayDiff: Sendable {
    /// The old array, for the values of unchanged runs.
    var old: [JSONValue]
    /// The new array.
    var new: [JSONValue]
    /// In order: applying them from the start, removed elements taken from the old array and
    /// added ones from the new, turns `old` into `new`.
    var entries: [ArrayEntry]
}

/// One step of an array alignment.
enum ArrayEntry: Sendable {
    /// `count` elements that are the same data, at `old` in the old array and `new` in the new.
    case unchanged(old: Int, new: Int, count: Int)
    /// The old element at `old` is gone.
    case removed(old: Int)
    /// The new element at `new` is new.
    case added(new: Int)
    /// The old element at `old` became the new element at `new`, as `diff` says.
    case changed(old: Int, new: Int, ValueDiff)
}
