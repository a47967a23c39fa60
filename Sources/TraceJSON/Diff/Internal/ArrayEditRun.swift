/// A run of JSON Patch operations that insert into or remove from one array, applied in one
/// pass (`PatchApplier.applyArrayRun`).
///
/// One by one, each insertion or removal moves every element after it: 200,000 × `add /arr/0`
/// in one patch (9.9 MB) took 14 s to validate, quadratic in the patch's size. A run instead
/// takes the array out of the document once and edits it as a gap buffer: the elements before
/// the edit point in order, those after it in reverse, so that an edit costs only the distance
/// from the previous one (nothing for a chain at one place, at the front or at the end), and the
/// array is joined again once, after the run. The result, the size kept (`RebuiltStateSize`) and
/// every error are those of applying the operations one by one: the run stops before the first
/// operation that is not an edit of the same array or would not apply, and that operation is
/// left to `PatchApplier.apply`, which applies it or names what is wrong with it.
extension PatchApplier {
    /// One operation of a run: insert `value` at `index` (nil: at the end, `-`), or remove the
    /// element at `index` when `value` is nil.
    private struct Edit {
        var parent: [String]
        var index: Int?
        var value: JSONValue?

        /// `operation` read as an edit of an array's elements: an `add` whose path ends with an
        /// index or `-`, or a `remove` whose path ends with an index; nil for anything else.
        init?(_ operation: JSONValue) {
            guard case .object(let members) = operation, let name = members["op"]?.stringValue,
                let pointer = members["path"]?.stringValue, let tokens = try? JSONPointer.tokens(pointer),
                let last = tokens.last
            else { return nil }
            parent = Array(tokens.dropLast())
            switch name {
            case "add":
                guard let value = members["value"] else { return nil }
                self.value = value
                if last == "-" {
                    index = nil
                } else {
                    guard let index = JSONPointer.arrayIndex(last) else { return nil }
                    self.index = index
                }
            case "remove":
                guard let index = JSONPointer.arrayIndex(last) else { return nil }
                self.index = index
                value = nil
            default:
                return nil
            }
        }

        func hasParent(_ other: [String]) -> Bool {
            parent.count == other.count && zip(parent, other).allSatisfy { ExactName.sameBytes($0, $1) }
        }
    }

    /// Applies the operations of `operations` from `start` on that edit one array, up to the
    /// first that does not or would not apply; how many it applied. 0 when the operations at
    /// `start` and after it are not two edits of one array in the document: apply them one by one.
    static func applyArrayRun(
        _ operations: [JSONValue], from start: Int, to document: inout JSONValue, size: inout RebuiltStateSize
    ) -> Int {
        guard start + 1 < operations.count, let first = Edit(operations[start]),
            let second = Edit(operations[start + 1]), second.hasParent(first.parent),
            case .array? = lookUp(first.parent[...], in: document)
        else { return 0 }
        var applied = 0
        withArray(at: first.parent[...], in: &document) { elements in
            var buffer = GapBuffer(elements)
            elements = []
            for position in start..<operations.count {
                guard let edit = position == start ? first : Edit(operations[position]),
                    edit.hasParent(first.parent)
                else { break }
                if let value = edit.value {
                    let index = edit.index ?? buffer.count
                    guard index <= buffer.count else { break }
                    do throws(RebuiltStateSize.Excess) {
                        try size.place(value, replacing: nil, pathLength: first.parent.count + 1, fromState: false)
                    } catch {
                        break
                    }
                    buffer.insert(value, at: index)
                } else {
                    guard let index = edit.index, index < buffer.count else { break }
                    size.remove(buffer.remove(at: index))
                }
                applied += 1
            }
            elements = buffer.joined()
        }
        return applied
    }

    /// Runs `body` on the array at `path` (which is there), taken out of its parents so that
    /// it is changed in place.
    private static func withArray(
        at path: ArraySlice<String>, in value: inout JSONValue, _ body: (inout [JSONValue]) -> Void
    ) {
        guard let token = path.first else {
            if var elements = takeArray(&value) {
                body(&elements)
                value = .array(elements)
            }
            return
        }
        if var object = takeObject(&value) {
            if var child = ObjectMembers(object)[token] {
                set(.null, forKey: token, in: &object)
                withArray(at: path.dropFirst(), in: &child, body)
                set(child, forKey: token, in: &object)
            }
            value = .object(object)
        } else if var elements = takeArray(&value) {
            if let index = JSONPointer.arrayIndex(token), index < elements.count {
                var child = elements[index]
                elements[index] = .null
                withArray(at: path.dropFirst(), in: &child, body)
                elements[index] = child
            }
            value = .array(elements)
        }
    }

    /// An array being edited: `front` is its elements before the gap in order, `back` those
    /// after it in reverse, so that editing at the gap is appending or removing the last.
    private struct GapBuffer {
        private var front: [JSONValue]
        private var back: [JSONValue] = []

        init(_ elements: [JSONValue]) { front = elements }

        var count: Int { front.count + back.count }

        mutating func insert(_ value: JSONValue, at index: Int) {
            moveGap(to: index)
            front.append(value)
        }

        mutating func remove(at index: Int) -> JSONValue {
            moveGap(to: index)
            return back.removeLast()
        }

        /// The elements in order, the buffer emptied.
        mutating func joined() -> [JSONValue] {
            var elements = front
            front = []
            elements.reserveCapacity(elements.count + back.count)
            elements.append(contentsOf: back.reversed())
            back = []
            return elements
        }

        private mutating func moveGap(to index: Int) {
            while front.count > index { back.append(front.removeLast()) }
            while front.count < index { front.append(back.removeLast()) }
        }
    }
}
