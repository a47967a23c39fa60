/// One step of a coding path, kept cheaply while decoding and turned into `CodingKey`s only when
/// someone asks for `codingPath` (usually to build an error).
enum JSONCodingPathElement {
    case key(any CodingKey)
    case index(Int)

    var codingKey: any CodingKey {
        switch self {
        case .key(let key): key
        case .index(let index): JSONCodingKey(index: index)
        }
    }
}

extension [JSONCodingPathElement] {
    var codingKeys: [any CodingKey] { map(\.codingKey) }
}

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
