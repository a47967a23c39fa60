import TraceJSON

/// Whether a version 2 `patch` can change the value at a path of its store's state, read from
/// the patch's operations alone (their `op`, `path` and `from`), so that `ValueHistory` rebuilds
/// a state only at the events that may change the value it follows.
///
/// An operation may change the value at path P when its `path` (or a `move`'s `from`, which it
/// removes) is P, a prefix of P, or under P; or when it inserts into or removes from an array
/// that holds P further along (`add`, `remove`, `move` and `copy` shift the elements after the
/// index they name, and `add` at `-` appends one). A `test` changes nothing, nor does a `copy`'s
/// `from`. An operation that cannot be read (no `op`, a pointer that is not one) may change
/// anything: the rebuild then reports it. A path that names an element by id (`lines[id: "MUG"]`)
/// may be changed by any operation inside that array (or a prefix of it): a pointer names
/// elements by position only, and which position holds the item is not known without the state.
enum PatchTouch {
    /// Whether some operation of `operations` may change the value at `path` (the path inside
    /// the store's state, without the store's name).
    static func mayChange(_ path: ArraySlice<StatePath.Component>, operations: [JSONValue]) -> Bool {
        operations.contains { mayChange(path, operation: $0) }
    }

    private static func mayChange(_ path: ArraySlice<StatePath.Component>, operation: JSONValue) -> Bool {
        guard case .object(let members) = operation, let name = members["op"]?.stringValue,
            let pointer = members["path"]?.stringValue
        else { return true }
        switch name {
        case "test":
            return false
        case "add", "remove", "replace", "move", "copy":
            guard touches(pointer, path, shifts: name != "replace") else { break }
            return true
        default:
            return true  // not an operation: the patch does not apply
        }
        if name == "move" {
            guard let from = members["from"]?.stringValue else { return true }
            return touches(from, path, shifts: true)
        }
        return false
    }

    /// Whether a change at `pointer` may change the value at `path`: one is a prefix of the
    /// other, or (`shifts`) the pointer names an element of an array that `path` goes through,
    /// at or before the element `path` takes.
    private static func touches(_ pointer: String, _ path: ArraySlice<StatePath.Component>, shifts: Bool) -> Bool {
        guard let tokens = try? JSONPointer.tokens(pointer) else { return true }
        let path = Array(path)
        // A pointer names elements by position: past an element named by id, which the pointer
        // may or may not reach, assume it does.
        let comparable = path.firstIndex { if case .id = $0 { true } else { false } } ?? path.count
        if comparable < tokens.count, (0..<comparable).allSatisfy({ matches(tokens[$0], path[$0]) }) { return true }
        guard let differ = (0..<min(tokens.count, path.count)).first(where: { !matches(tokens[$0], path[$0]) }) else {
            return true  // equal up to the shorter: one is a prefix of the other
        }
        // An insertion or removal at index `last` of an array that the path goes through moves
        // the elements from `last` on; `-` appends past the end.
        guard shifts, differ == tokens.count - 1 else { return false }
        let last = tokens[differ]
        if last == "-" { return true }
        guard let at = JSONPointer.arrayIndex(last) else { return false }
        switch path[differ] {
        case .index(let index): return index >= at
        case .key(let name): return JSONPointer.arrayIndex(name).map { $0 >= at } ?? false
        case .id: return true
        }
    }

    /// Whether the pointer token `token` names what `component` names.
    private static func matches(_ token: String, _ component: StatePath.Component) -> Bool {
        switch component {
        case .key(let name): name.utf8.elementsEqual(token.utf8)
        case .index(let index): token == String(index)
        case .id: false
        }
    }
}
