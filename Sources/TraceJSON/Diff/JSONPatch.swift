/// JSON Patch (RFC 6902): a JSON array of operations that turns one document into another.
///
/// `make` writes `add`, `remove` and `replace` operations with JSON Pointer paths (RFC 6901),
/// in an order where each operation's array indices are right at the moment it applies:
/// applied one after the other by any RFC 6902 implementation, they turn the first value into
/// the second. The comparison is `StateDiff`'s, so a member that only moved, or a number
/// written another way (`1.0` for `1`), needs no operation. Print a patch with
/// `JSONPrinter.compact(_:)`, or write it straight from the states with `text(_:terminalSafe:)`
/// or `write(_:terminalSafe:to:)`, which make no tree of its values.
///
/// `apply` implements all six operations (`add`, `remove`, `replace`, `move`, `copy`, `test`),
/// strictly: a path that does not exist, an index out of range or with a leading zero, a
/// malformed pointer, a missing member of an operation or a failed `test` is an error, and the
/// document is left as it was.
public enum JSONPatch {
    /// The patch that turns `before` into `after`: `[]` when they are the same data.
    public static func make(from before: JSONValue, to after: JSONValue) -> JSONValue {
        make(StateDiff(from: before, to: after))
    }

    /// The patch that turns `diff.before` into `diff.after`.
    public static func make(_ diff: StateDiff) -> JSONValue {
        var operations: [JSONValue] = []
        forEachOperation(of: diff) { operation, new in
            var object: JSONObject = ["op": .string(operation.name), "path": .string(operation.pointer)]
            if let value = operation.value { object.append(key: "value", value: new.jsonValue(value)) }
            operations.append(.object(object))
        }
        return .array(operations)
    }

    /// The patch that turns `diff.before` into `diff.after`, as compact JSON text: what
    /// `JSONPrinter.compact(make(diff))` prints, written from the states' texts without making
    /// the patch's values (an added list of a million items is copied, not built).
    public static func text(_ diff: StateDiff, terminalSafe: Bool = false) -> String {
        var formatter = JSONFormatter(layout: .compact, terminalSafe: terminalSafe)
        write(diff, into: &formatter)
        return formatter.text
    }

    /// `text(_:terminalSafe:)` handed to `output` in pieces of about 64 KB as it is written, so
    /// that a patch of any size takes little memory.
    public static func write(
        _ diff: StateDiff, terminalSafe: Bool = false, to output: (UnsafeRawBufferPointer) -> Void
    ) {
        withoutActuallyEscaping(output) { output in
            var formatter = JSONFormatter(layout: .compact, terminalSafe: terminalSafe, sink: output)
            write(diff, into: &formatter)
            formatter.finish()
        }
    }

    private static func write(_ diff: StateDiff, into formatter: inout JSONFormatter) {
        formatter.openArray()
        var scratch = JSONTextReader.Scratch()
        forEachOperation(of: diff) { operation, new in
            formatter.openObject()
            formatter.name("op")
            formatter.string(operation.name)
            formatter.name("path")
            formatter.string(operation.pointer)
            if let value = operation.value {
                formatter.name("value")
                formatter.write(value, in: new, &scratch)
            }
            formatter.closeObject()
        }
        formatter.closeArray()
    }

    /// Calls `body` with each operation of the patch and a reader of the new text.
    private static func forEachOperation(
        of diff: StateDiff, _ body: (PatchBuilder.Operation, _ new: JSONTextReader) -> Void
    ) {
        guard let root = diff.root else { return }
        diff.withReaders { old, new in
            var builder = PatchBuilder(old: old, new: new)
            builder.forEach(root, at: "") { body($0, new) }
        }
    }

    /// `document` with every operation of `patch` applied in order.
    ///
    /// The result obeys the limits of a parsed document: an operation that would nest it deeper
    /// than `JSONParser.maximumDepth` (1,024) levels, or a copy that would make it hold more than
    /// 16,777,216 values beyond those `document` and the patch's own values spell out (arrays,
    /// objects and scalars each count one; a copy of the document into itself doubles it), is an
    /// error, found without building it. (A trace's states, rebuilt by the reader, are
    /// held to 1,023 levels: a `state` on an event line is one level below the event's object.)
    ///
    /// - Throws: `JSONPatchError` naming the first operation that cannot be applied and why.
    public static func apply(_ patch: JSONValue, to document: JSONValue) throws(JSONPatchError) -> JSONValue {
        guard case .array(let operations) = patch else {
            throw JSONPatchError(
                operation: nil, message: "a JSON Patch is an array of operations, found \(patch.kindName)")
        }
        var result = document
        var size = RebuiltStateSize(of: document, depthLimit: JSONParser.maximumDepth)
        try apply(operations, to: &result, size: &size)
        return result
    }

    /// Applies `operations` in order to `document` in place, `size` kept as its size. On an
    /// error, throw both away: they may be partly changed.
    package static func apply(_ operations: [JSONValue], to document: inout JSONValue, size: inout RebuiltStateSize)
        throws(JSONPatchError)
    {
        size.startPatch()
        defer { size.endPatch() }
        var position = 0
        while position < operations.count {
            // A run of insertions into or removals from one array is applied in one pass.
            let applied = PatchApplier.applyArrayRun(operations, from: position, to: &document, size: &size)
            if applied > 0 {
                position += applied
                continue
            }
            try PatchApplier.apply(operations[position], position: position, to: &document, size: &size)
            position += 1
        }
    }
}
