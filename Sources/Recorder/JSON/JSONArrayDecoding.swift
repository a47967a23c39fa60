/// A shortcut for decoding arrays: `Array.init(from:)` goes through an unkeyed container and
/// grows its result one element at a time; this reads the elements of a JSON array directly
/// into an array of the right capacity. Same results, same errors and coding paths.
protocol JSONDirectlyDecodableArray {
    static func decodeElements(_ elements: [JSONValue], with decoder: JSONTreeDecoder) throws -> Self
}

extension Array: JSONDirectlyDecodableArray where Element: Decodable {
    static func decodeElements(_ elements: [JSONValue], with decoder: JSONTreeDecoder) throws -> [Element] {
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for index in elements.indices {
            result.append(try decoder.unbox(elements[index], as: Element.self, at: .index(index), prefix: nil))
        }
        return result
    }
}
