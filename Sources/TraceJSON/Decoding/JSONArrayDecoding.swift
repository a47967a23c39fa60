/// A shortcut for decoding arrays: `Array.init(from:)` goes through an unkeyed container and
/// grows its result one element at a time; this reads the elements of a JSON array directly
/// into an array of the right capacity. Same results, same errors and coding paths.
protocol JSONDirectlyDecodableArray {
    /// The elements of the array at tape index `array`, whose coding-path node is `node`.
    static func decodeElements(ofArrayAt array: Int, node: Int, with decoder: JSONTapeDecoder) throws -> Self
}

extension Array: JSONDirectlyDecodableArray where Element: Decodable {
    static func decodeElements(ofArrayAt array: Int, node: Int, with decoder: JSONTapeDecoder) throws -> [Element] {
        let state = decoder.state
        let count = state.pointee.tape[array].start
        guard count > 0 else { return [] }  // (see `JSONTapeState.leafArray`)
        return try [Element](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            guard let elements = buffer.baseAddress else { return }
            var position = array &+ 1
            for index in 0..<count {
                // On a throw, `initializedCount` already says how many elements to destroy.
                (elements + index).initialize(
                    to: try decoder.unbox(Element.self, at: position, parent: node, step: .index(index)))
                initializedCount = index &+ 1
                position = state.pointee.tape.next(after: position)
            }
        }
    }
}
