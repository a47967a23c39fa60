/// The changes a `ValueDiff` holds, one at a time, in document order, each with its path and
/// its values still in the two texts: what `StateDiff.changes` makes `StateChange`s of, and what
/// `StateDiffPrinter` prints as paths without making them.
package struct ChangeWalk {
    let old: JSONTextReader
    let new: JSONTextReader
    /// Whether elements of arrays whose elements all have distinct ids are named by id
    /// (`[id: "MUG"]`, see `ElementIDs`) rather than by position.
    var namesItemsByID = false
    /// Working memory.
    var scratch = JSONTextReader.Scratch()

    package init(old: JSONTextReader, new: JSONTextReader, namesItemsByID: Bool = false) {
        self.old = old
        self.new = new
        self.namesItemsByID = namesItemsByID
    }

    /// One change; values of `removed` and the `from` of `changed` are in the old text, the rest
    /// in the new one.
    package struct Change {
        package enum Kind {
            case changed(from: TextValue, to: TextValue)
            case added(TextValue)
            case removed(TextValue)
        }

        package var path: StatePath
        package var kind: Kind
    }

    /// Calls `body` with each change of `diff`, whose values sit at `path`.
    package mutating func forEach(_ diff: ValueDiff, at path: StatePath, _ body: (Change) -> Void) {
        switch diff {
        case .replaced(let from, let to):
            body(Change(path: path, kind: .changed(from: from, to: to)))
        case .object(let entries):
            for entry in entries {
                switch entry {
                case .unchanged:
                    break
                case .removed(let name, let value):
                    body(Change(path: path.appending(.key(old.string(at: name, &scratch))), kind: .removed(value)))
                case .added(let name, let value):
                    body(Change(path: path.appending(.key(new.string(at: name, &scratch))), kind: .added(value)))
                case .changed(let name, let inner):
                    forEach(inner, at: path.appending(.key(new.string(at: name, &scratch))), body)
                }
            }
        case .array(let entries, let oldArray, let newArray):
            let ids = namesItemsByID ? ElementIDs(entries, oldArray, in: old, newArray, in: new, &scratch) : nil
            for entry in entries {
                switch entry {
                case .unchanged:
                    break
                case .removed(let index, let value):
                    body(Change(path: path.appending(ids?.removed(index) ?? .index(index)), kind: .removed(value)))
                case .added(let index, let value):
                    body(Change(path: path.appending(ids?.added(index) ?? .index(index)), kind: .added(value)))
                case .changed(let oldIndex, let index, let inner):
                    forEach(inner, at: path.appending(ids?.changed(old: oldIndex, new: index) ?? .index(index)), body)
                }
            }
        }
    }
}
