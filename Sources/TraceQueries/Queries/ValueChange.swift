import TraceJSON
import TraceReader

/// One step at which the value at a path changed, as `inspector when` prints it: the event that
/// changed it (its store, action, source and cause), the value before and after, and the
/// differences in the path syntax `diff` prints.
public struct ValueChange: Sendable, Equatable {
    /// The path that was asked about, as the event's state reads it: a name that selects an
    /// array element is an index (`CartStore.lines.2` asked, `CartStore.lines[2]` here).
    public var path: StatePath
    /// The step of the change: the `seq` of the event that made it.
    public var step: Int
    /// The event that made the change, read without its `state` (`event.state` is nil).
    public var event: TraceEvent
    /// The value at `path` before the event; nil when there was none (the store had no event
    /// yet, or its state had nothing at the path).
    public var before: JSONValue?
    /// The value at `path` after the event; nil when there is none any more.
    public var after: JSONValue?

    /// Creates a change.
    public init(path: StatePath, step: Int, event: TraceEvent, before: JSONValue?, after: JSONValue?) {
        self.path = path
        self.step = step
        self.event = event
        self.before = before
        self.after = after
    }

    /// The differences between `before` and `after`, their paths starting with `path`: one
    /// `changed` for a number, string or boolean replaced; `added` or `removed` when the value
    /// appeared or went; for an object or array, each change inside it, as `diff` lists them
    /// (items of arrays whose elements have distinct ids named by id, as
    /// `StateDiff.changes(namingItemsByID:)` names them).
    /// Print each with `StateDiffPrinter.line(_:)`.
    public var changes: [StateChange] {
        switch (before, after) {
        case (nil, nil):
            return []
        case (nil, let value?):
            return [.added(path, value)]
        case (let value?, nil):
            return [.removed(path, value)]
        case (let old?, let new?):
            // Two scalars: one change or none, told without building the diff's texts.
            if let differ = ScalarDifference.differ(old, new) {
                return differ ? [.changed(path, from: old, to: new)] : []
            }
            return StateDiff(from: old, to: new).changes(namingItemsByID: true).map { change in
                let full = StatePath(path.components + change.path.components)
                switch change {
                case .added(_, let value): return .added(full, value)
                case .removed(_, let value): return .removed(full, value)
                case .changed(_, let from, let to): return .changed(full, from: from, to: to)
                }
            }
        }
    }
}
