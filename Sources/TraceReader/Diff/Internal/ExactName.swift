/// A string that is equal to another only when their UTF-8 bytes are.
struct ExactName: Hashable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    static func == (left: ExactName, right: ExactName) -> Bool {
        Equivalence.sameBytes(left.text, right.text)
    }

    func hash(into hasher: inout Hasher) {
        Equivalence.combineBytes(text, into: &hasher)
    }
}
