/// The sameness the diff uses, for two `JSONValue`s: the rules of `JSONTextReader.equal`
/// (objects by name in any order, the last of several members with one name counting; numbers
/// by exact decimal value; strings by their bytes, with no Unicode normalization), applied to
/// the values' texts, so that there is one implementation of them. For JSON Patch's `test`.
///
/// Unlike `JSONValue.isEquivalent(to:)`, strings and names are compared by their UTF-8 bytes,
/// not by Swift's canonical equivalence: `"é"` written precomposed and `"e\u{301}"` are
/// different data to every other JSON tool, so a change from one to the other is a change.
enum Equivalence {
    /// Whether `left` and `right` are the same data.
    static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        JSONText(left).isSameData(as: JSONText(right))
    }

    /// A hash for which `equal(a, b)` implies `hash(a) == hash(b)`.
    static func hash(_ value: JSONValue) -> UInt64 {
        JSONText(value).withReader { reader, root in
            var scratch = JSONTextReader.Scratch()
            return reader.hash(root, &scratch)
        }
    }
}
