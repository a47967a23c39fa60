/// Puts the members of a dictionary or set that the encoder has just written (from `mark` to
/// the end of the output) in a stable order, in place; see `RecordedEncoding`.
///
/// The written JSON is the encoder's own (compact and valid), so its members are found by
/// skipping values, with no general parser. An object's members are sorted by the bytes of their
/// names; a set's elements by their bytes; a dictionary's array of key, value, … pairs by the
/// bytes of each key, then of its value. For a dictionary keyed by a `String`-backed enum, whose
/// keys arrive as strings in such an array, the pairs become an object's members, and a key that
/// the redaction covers gets `"<redacted>"` for its value, as a name written through a keyed
/// container would.
enum StableOrder {
    static func rewrite(
        _ output: JSONOutput, from mark: Int, as writing: TypeTable.Writing, in context: EncodingContext
    ) {
        let written = Array(output.bytes(from: mark))
        guard written.count > 2 else {  // `{}` or `[]`
            if writing == .namedPairs {
                output.count = mark
                output.append("{}")
            }
            return
        }
        // Each member: where it starts, where its key ends (the whole member for a set), where
        // it ends; offsets into `written`.
        var members: [(start: Int, key: Int, end: Int)] = []
        var position = 1
        let isObject = written[0] == UInt8(ascii: "{")
        while position < written.count - 1 {
            let start = position
            var key = skipValue(written, at: position)
            var end = key
            if isObject || writing != .set {
                end = skipValue(written, at: key + 1)  // past the `:` or the `,` of a pair
                if isObject { key -= 1 }  // the name without its closing quote
            }
            members.append((start, key, end))
            position = end + 1  // past the `,` (or onto the closing bracket)
        }
        let order = mergeSorted(members.count) { left, right in
            let (a, b) = (members[left], members[right])
            let byKey = compare(written[a.start..<a.key], written[b.start..<b.key])
            return byKey != 0 ? byKey < 0 : compare(written[a.start..<a.end], written[b.start..<b.end]) < 0
        }
        let toObject = writing == .namedPairs && members.allSatisfy { written[$0.start] == UInt8(ascii: "\"") }
        output.count = mark
        output.append(isObject || toObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        written.withUnsafeBytes { bytes in
            for (index, member) in order.map({ members[$0] }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                guard toObject else {
                    output.append(UnsafeRawBufferPointer(rebasing: bytes[member.start..<member.end]))
                    continue
                }
                output.append(UnsafeRawBufferPointer(rebasing: bytes[member.start..<member.key]))
                output.append(UInt8(ascii: ":"))
                let name = OwnJSONString.decode(written[member.start..<member.key]).map {
                    String(decoding: $0, as: UTF8.self)
                }
                if let name, context.isRedacted(name) {
                    context.appendRedacted()
                } else {
                    output.append(UnsafeRawBufferPointer(rebasing: bytes[(member.key + 1)..<member.end]))
                }
            }
        }
        output.append(isObject || toObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }

    /// The offset just past the JSON value that starts at `start` (the encoder's compact JSON).
    static func skipValue(_ bytes: [UInt8], at start: Int) -> Int {
        var position = start
        var depth = 0
        repeat {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                position += 1
                while bytes[position] != UInt8(ascii: "\"") {
                    position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
                }
                position += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                position += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                position += 1
            default:
                // A number, a literal, or `:` and `,` inside a container.
                position += 1
                if depth == 0 {
                    while position < bytes.count, !Self.endsScalar(bytes[position]) { position += 1 }
                }
            }
        } while depth > 0
        return position
    }

    private static func endsScalar(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
    }

    /// Negative, zero or positive as `left` sorts before, with or after `right`, byte by byte,
    /// shorter first on a tie.
    private static func compare(_ left: ArraySlice<UInt8>, _ right: ArraySlice<UInt8>) -> Int {
        for (a, b) in zip(left, right) where a != b { return a < b ? -1 : 1 }
        return left.count - right.count
    }

    /// The indices `0..<count` sorted by `before` (a stable merge sort, written out so that the
    /// library holds one small sort rather than the standard library's specialized one).
    static func mergeSorted(_ count: Int, by before: (Int, Int) -> Bool) -> [Int] {
        var order = Array(0..<count)
        var scratch = order
        var width = 1
        while width < count {
            var low = 0
            while low < count {
                let middle = min(low + width, count)
                let high = min(low + 2 * width, count)
                var (left, right, out) = (low, middle, low)
                while out < high {
                    if left < middle && (right >= high || !before(order[right], order[left])) {
                        scratch[out] = order[left]
                        left += 1
                    } else {
                        scratch[out] = order[right]
                        right += 1
                    }
                    out += 1
                }
                low = high
            }
            swap(&order, &scratch)
            width *= 2
        }
        return order
    }
}
