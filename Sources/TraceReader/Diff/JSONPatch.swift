/// JSON Patch (RFC 6902): a JSON array of operations that turns one document into another.
///
/// `make` writes `add`, `remove` and `replace` operations with JSON Pointer paths (RFC 6901),
/// in an order where each operation's array indices are right at the moment it applies:
/// applied one after the other by any RFC 6902 implementation, they turn the first value into
/// the second. The comparison is `StateDiff`'s, so a member that only moved, or a number
/// written another way (`1.0` for `1`), needs no operation. Print a patch with
/// `JSONPrinter.compact(_:)`.
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
        if let root = diff.root {
            PatchBuilder.append(root, at: "", to: &operations)
        }
        return .array(operations)
    }

    /// `document` with every operation of `patch` applied in order.
    ///
    /// - Throws: `JSONPatchError` naming the first operation that cannot be applied and why.
    public static func apply(_ patch: JSONValue, to document: JSONValue) throws(JSONPatchError) -> JSONValue {
        guard case .array(let operations) = patch else {
            throw JSONPatchError(
                operation: nil, message: "a JSON Patch is an array of operations, found \(patch.kindName)")
        }
        var result = document
        for (position, operation) in operations.enumerated() {
            try PatchApplier.apply(operation, position: position, to: &result)
        }
        return result
    }
}
