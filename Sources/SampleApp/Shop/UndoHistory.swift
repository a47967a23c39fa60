/// Undo as a stack of whole values, as in the WWDC talk on value types: each entry is a complete
/// earlier value, and undoing puts it back. There is no list of small inverse steps to keep in
/// sync with the model.
struct UndoHistory<Value: Equatable> {
    /// How many values are kept; the oldest go first.
    let limit: Int
    private var values: [Value] = []

    init(limit: Int = 50) {
        self.limit = max(1, limit)
    }

    /// Whether there is something to undo.
    var canUndo: Bool { !values.isEmpty }

    /// Remembers `previous`, the value before a change.
    mutating func record(_ previous: Value) {
        values.append(previous)
        if values.count > limit { values.removeFirst(values.count - limit) }
    }

    /// The value to go back to, removed from the history; nil when there is none.
    mutating func popLast() -> Value? {
        values.popLast()
    }
}
