extension StatePath {
    /// The `id` member of an array element, which a path can name the element by
    /// (`CartStore.lines[id: "MUG"]`) so that it follows the item wherever the array moves it.
    ///
    /// An id is a string or an integer written without a fraction or an exponent (`42`, `-7`)
    /// that fits in an `Int`; any other `id` value (a decimal, a boolean, an object) is not an id.
    public enum ItemID: Hashable, Sendable, CustomStringConvertible {
        /// A string id, compared by its UTF-8 bytes as `StateDiff` compares strings.
        case string(String)
        /// An integer id, compared by value.
        case integer(Int)

        /// The id that `value` is, or nil when it is neither a string nor an integer.
        public init?(_ value: JSONValue) {
            switch value {
            case .string(let text): self = .string(text)
            case .number(let text):
                guard let integer = Int(text) else { return nil }
                self = .integer(integer)
            default: return nil
            }
        }

        /// The id of `element`: its `id` member when it is an object with one that is an id.
        public init?(of element: JSONValue) {
            guard case .object(let object) = element, let id = ObjectMembers(object)["id"] else { return nil }
            self.init(id)
        }

        /// The id as written in a path: a JSON string (escaped so that it is safe to print) or
        /// the integer in decimal.
        public var description: String {
            switch self {
            case .string(let text): JSONPrinter.quoted(text, terminalSafe: true)
            case .integer(let integer): String(integer)
            }
        }

        /// The ids of `elements` in order, when every element is an object with an id and no two
        /// ids are the same: the arrays whose elements a diff names by id. Nil otherwise.
        static func uniqueIDs(of elements: [JSONValue]) -> [ItemID]? {
            var ids: [ItemID] = []
            ids.reserveCapacity(elements.count)
            var seen = Set<ItemID>()
            for element in elements {
                guard let id = ItemID(of: element), seen.insert(id).inserted else { return nil }
                ids.append(id)
            }
            return ids.isEmpty ? nil : ids
        }
    }
}
