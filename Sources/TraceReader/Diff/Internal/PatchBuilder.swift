/// Writes the JSON Patch operations of a `ValueDiff`.
enum PatchBuilder {
    /// Appends the operations that turn the value at `pointer` into its new value. Array
    /// operations run from the first element on, each index counted in the array as the
    /// operations before it left it (equal to the element's index in the new array for `add`
    /// and changes), so applying them in order is right.
    static func append(_ diff: ValueDiff, at pointer: String, to operations: inout [JSONValue]) {
        switch diff {
        case .replaced(_, let new):
            operations.append(operation("replace", pointer, new))
        case .object(let entries):
            // Removals first: a tool that matches names by Unicode equivalence (as Swift does)
            // then never confuses a removed "é" with an added "e\u{301}".
            for case .removed(let key, _) in entries {
                operations.append(operation("remove", pointer + "/" + JSONPointer.escape(key), nil))
            }
            for entry in entries {
                switch entry {
                case .unchanged, .removed:
                    break
                case .added(let key, let value):
                    operations.append(operation("add", pointer + "/" + JSONPointer.escape(key), value))
                case .changed(let key, let inner):
                    append(inner, at: pointer + "/" + JSONPointer.escape(key), to: &operations)
                }
            }
        case .array(let arrays):
            var current = 0
            for entry in arrays.entries {
                switch entry {
                case .unchanged(_, _, let count):
                    current += count
                case .removed:
                    operations.append(operation("remove", pointer + "/" + String(current), nil))
                case .added(let new):
                    operations.append(operation("add", pointer + "/" + String(current), arrays.new[new]))
                    current += 1
                case .changed(_, _, let inner):
                    append(inner, at: pointer + "/" + String(current), to: &operations)
                    current += 1
                }
            }
        }
    }

    private static func operation(_ name: String, _ path: String, _ value: JSONValue?) -> JSONValue {
        var object: JSONObject = ["op": .string(name), "path": .string(path)]
        if let value { object.append(key: "value", value: value) }
        return .object(object)
    }
}
