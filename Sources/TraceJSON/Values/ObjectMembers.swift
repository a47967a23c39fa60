/// The members of a `JSONObject` as printing, the diff and JSON Patch see them: matched by the
/// exact UTF-8 bytes of their names, the last of several with the same name counting ("the last
/// member wins", see `JSONObject`); an earlier member with that name is hidden.
///
/// `JSONObject` looks names up with Swift's `==`, which is Unicode canonical equivalence:
/// `"é"` precomposed, `"e\u{301}"` and even `"K"` and the Kelvin sign U+212A match. Every other
/// JSON tool tells them apart, so a patch must too. When every name is ASCII the two agree and
/// `JSONObject`'s own lookup is used; otherwise the names are indexed by their bytes.
package struct ObjectMembers {
    let object: JSONObject
    private let byBytes: [ExactName: Int]?

    package init(_ object: JSONObject) {
        self.object = object
        if object.keys.allSatisfy(ObjectMembers.isASCII) {
            byBytes = nil
        } else {
            var index = [ExactName: Int](minimumCapacity: object.count)
            for (position, key) in object.keys.enumerated() {
                index[ExactName(key)] = position
            }
            byBytes = index
        }
    }

    /// The position of the last member named exactly `key`.
    func position(of key: String) -> Int? {
        if let byBytes { return byBytes[ExactName(key)] }
        guard ObjectMembers.isASCII(key) else { return nil }
        return object.lastPosition(of: key)
    }

    /// The value of the last member named exactly `key`.
    package subscript(key: String) -> JSONValue? {
        position(of: key).map { object[$0].value }
    }

    /// Whether the member at `position` is the last one with its name.
    func isVisible(_ position: Int) -> Bool {
        self.position(of: object.keys[position]) == position
    }

    /// The positions of the members that count, in order.
    var visiblePositions: [Int] {
        object.indices.filter(isVisible)
    }

    static func isASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 }
    }
}
