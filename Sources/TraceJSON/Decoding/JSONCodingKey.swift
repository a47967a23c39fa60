/// A coding key made up by the decoder: an array position (`"Index 3"`, as `JSONDecoder` names
/// them) or the `super` key.
struct JSONCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
    }

    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    static let superKey = JSONCodingKey(stringValue: "super")
}
