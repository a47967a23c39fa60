/// One difference between two states: a value added, removed or changed at a path.
///
/// In an array, a removed element's path has its index in the old array; an added or changed
/// element's path has its index in the new array. `changed` is a value replaced in place: a
/// number, string or boolean that changed, or a value that became another JSON type; changes
/// inside objects and arrays are listed at the deepest path where they happen.
public enum StateChange: Hashable, Sendable {
    /// `value` appeared at `path`.
    case added(StatePath, JSONValue)
    /// `value` is gone from `path`.
    case removed(StatePath, JSONValue)
    /// The value at `path` was `from` and is now `to`.
    case changed(StatePath, from: JSONValue, to: JSONValue)

    /// Where the change is.
    public var path: StatePath {
        switch self {
        case .added(let path, _), .removed(let path, _), .changed(let path, _, _): path
        }
    }

    /// The value before the change; nil for `added`.
    public var before: JSONValue? {
        switch self {
        case .added: nil
        case .removed(_, let value): value
        case .changed(_, let from, _): from
        }
    }

    /// The value after the change; nil for `removed`.
    public var after: JSONValue? {
        switch self {
        case .added(_, let value): value
        case .removed: nil
        case .changed(_, _, let to): to
        }
    }
}
