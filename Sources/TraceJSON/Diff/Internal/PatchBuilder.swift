/// The JSON Patch operations of a `ValueDiff`, one at a time: `add`, `remove` and `replace`,
/// with JSON Pointer paths, values still in the new text.
///
/// Array operations run from the first element on, each index counted in the array as the
/// operations before it left it (equal to the element's index in the new array for `add` and
/// changes), so applying them in order is right. In an object, removals come first: a tool that
/// matches names by Unicode equivalence (as Swift does) then never confuses a removed `"é"` with
/// an added `"e\u{301}"`.
struct PatchBuilder {
    let old: JSONTextReader
    let new: JSONTextReader
    /// Working memory (the memberwise initializer's default).
    var scratch = JSONTextReader.Scratch()

    /// One operation: `op`, `path`, and the `value` (in the new text) of `add` and `replace`.
    struct Operation {
        var name: String
        var pointer: String
        var value: TextValue?
    }

    /// Calls `body` with each operation that turns the value at `pointer` into its new value.
    mutating func forEach(_ diff: ValueDiff, at pointer: String, _ body: (Operation) -> Void) {
        switch diff {
        case .replaced(_, let new):
            body(Operation(name: "replace", pointer: pointer, value: new))
        case .object(let entries):
            for case .removed(let name, _) in entries {
                body(Operation(name: "remove", pointer: child(pointer, old.string(at: name, &scratch)), value: nil))
            }
            for entry in entries {
                switch entry {
                case .unchanged, .removed:
                    break
                case .added(let name, let value):
                    body(Operation(name: "add", pointer: child(pointer, new.string(at: name, &scratch)), value: value))
                case .changed(let name, let inner):
                    forEach(inner, at: child(pointer, new.string(at: name, &scratch)), body)
                }
            }
        case .array(let entries, _, _):
            var current = 0
            for entry in entries {
                switch entry {
                case .unchanged(_, _, let count, _):
                    current += count
                case .removed:
                    body(Operation(name: "remove", pointer: pointer + "/" + String(current), value: nil))
                case .added(_, let value):
                    body(Operation(name: "add", pointer: pointer + "/" + String(current), value: value))
                    current += 1
                case .changed(_, _, let inner):
                    forEach(inner, at: pointer + "/" + String(current), body)
                    current += 1
                }
            }
        }
    }

    private func child(_ pointer: String, _ name: String) -> String {
        pointer + "/" + JSONPointer.escape(name)
    }
}
