/// A string that is equal to another only when their UTF-8 bytes are: a member name as every
/// JSON tool compares names (RFC 8259 and RFC 6901), not by Swift's Unicode canonical
/// equivalence, for which `"é"` precomposed and `"e\u{301}"` are the same.
struct ExactName: Hashable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    static func == (left: ExactName, right: ExactName) -> Bool {
        sameBytes(left.text, right.text)
    }

    func hash(into hasher: inout Hasher) {
        ExactName.combineBytes(text, into: &hasher)
    }

    /// Whether two strings have the same UTF-8 bytes.
    static func sameBytes(_ left: String, _ right: String) -> Bool {
        guard left.utf8.count == right.utf8.count else { return false }
        if let result = left.utf8.withContiguousStorageIfAvailable({ leftBytes in
            right.utf8.withContiguousStorageIfAvailable { rightBytes in leftBytes.elementsEqual(rightBytes) }
        }), let result {
            return result
        }
        return left.utf8.elementsEqual(right.utf8)
    }

    /// Feeds the UTF-8 bytes of `string` to `hasher`.
    static func combineBytes(_ string: String, into hasher: inout Hasher) {
        hasher.combine(string.utf8.count)
        if string.utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
            for byte in string.utf8 { hasher.combine(byte) }
        }
    }
}
