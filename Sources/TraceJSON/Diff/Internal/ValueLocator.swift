@_spi(RewindInternals) package import RewindSupport

/// Finds the bytes of the value at a path inside the bytes of a JSON value, without building the
/// values around it: sibling members and elements are skipped (`skipValid`), so
/// finding `lines[1234].quantity` in a 100 MB state parses one number and allocates nothing else.
///
/// The bytes must be valid JSON (a state the event scanner checked, a `JSONText`): values are
/// stepped over by their strings and brackets, without checking them again.
///
/// The path is followed as `StatePath.resolve(in:)` follows it: a name in an object (the last
/// member of that name wins, as in `JSONObject`), a decimal name or an index in an array, an id
/// in an array (the first element that is an object whose `id` member is that id: each
/// element's `id` is found and compared, the rest of it skipped), and nothing inside a string,
/// number, boolean or null.
package enum ValueLocator {
    /// The byte range of the value at `components` inside the valid JSON value that fills
    /// `range` of `bytes`, or nil when the path leads nowhere.
    package static func locate(
        _ components: ArraySlice<StatePath.Component>, in view: ByteView, range: Range<Int>
    ) -> Range<Int>? {
        let bytes = view
        var start = skipWhitespace(bytes, from: range.lowerBound, to: range.upperBound)
        var end = range.upperBound
        for component in components {
            guard start < end, let found = step(component, in: bytes, at: start, end: end)?.found else { return nil }
            start = found.lowerBound
            end = found.upperBound
        }
        // Without a trailing whitespace, so that equal values have equal bytes.
        guard start < end, let valueEnd = skipValid(bytes, at: start, end: end) else {
            return nil
        }
        return start..<valueEnd
    }

    /// `components` as the value filling `range` of `bytes` reads them: a name that selects an
    /// array element (`lines.2`) becomes an index (`lines[2]`), so that a path typed in the dotted
    /// form prints as `diff` prints it. Components past where the path leads nowhere are kept.
    package static func normalize(
        _ components: ArraySlice<StatePath.Component>, in view: ByteView, range: Range<Int>
    ) -> [StatePath.Component] {
        let bytes = view
        var result = Array(components)
        var start = skipWhitespace(bytes, from: range.lowerBound, to: range.upperBound)
        var end = range.upperBound
        for (position, component) in components.enumerated() {
            guard start < end, let step = step(component, in: bytes, at: start, end: end) else { break }
            result[position] = step.component
            guard let found = step.found else { break }
            start = found.lowerBound
            end = found.upperBound
        }
        return result
    }

    /// One step of a path, from the container at `bytes[start]` (its value ends by `end`): the
    /// component as that container reads it (a decimal name in an array is an index), and the
    /// range of the value it selects, nil when there is none; nil altogether when the component
    /// cannot select in that value (a name that is not an index in an array, anything in a
    /// string, number, boolean or null).
    private static func step(
        _ component: StatePath.Component, in bytes: ByteView, at start: Int, end: Int
    ) -> (component: StatePath.Component, found: Range<Int>?)? {
        switch (component, bytes[start]) {
        case (.key(let name), UInt8(ascii: "{")):
            return (component, member(named: name, in: bytes, objectAt: start, end: end))
        case (.key(let name), UInt8(ascii: "[")):
            guard let index = JSONPointer.arrayIndex(name) else { return nil }
            return (.index(index), element(index, in: bytes, arrayAt: start, end: end))
        case (.index(let index), UInt8(ascii: "[")):
            return (component, element(index, in: bytes, arrayAt: start, end: end))
        case (.id(let id), UInt8(ascii: "[")):
            return (component, element(withID: id, in: bytes, arrayAt: start, end: end))
        default:
            return nil
        }
    }

    /// The range of the last member named `name` of the object whose `{` is at `start`.
    private static func member(named name: String, in bytes: ByteView, objectAt start: Int, end: Int)
        -> Range<Int>?
    {
        ByteView.withBytes(of: name) { wanted in
            var position = skipWhitespace(bytes, from: start + 1, to: end)
            guard position < end else { return nil }
            if bytes[position] == UInt8(ascii: "}") { return nil }
            var found: Range<Int>?
            while position < end {
                guard bytes[position] == UInt8(ascii: "\""),
                    let keyEnd = skipValid(bytes, at: position, end: end)
                else { return nil }
                let matches = keyMatches(bytes, quoted: position..<keyEnd, wanted: wanted)
                position = skipWhitespace(bytes, from: keyEnd, to: end)
                guard position < end, bytes[position] == UInt8(ascii: ":") else { return nil }
                let valueStart = skipWhitespace(bytes, from: position + 1, to: end)
                guard valueStart < end, let valueEnd = skipValid(bytes, at: valueStart, end: end)
                else { return nil }
                if matches { found = valueStart..<valueEnd }
                position = skipWhitespace(bytes, from: valueEnd, to: end)
                guard position < end else { return nil }
                if bytes[position] == UInt8(ascii: "}") { return found }
                guard bytes[position] == UInt8(ascii: ",") else { return nil }
                position = skipWhitespace(bytes, from: position + 1, to: end)
            }
            return nil
        }
    }

    /// The range of element `index` of the array whose `[` is at `start`.
    private static func element(_ index: Int, in bytes: ByteView, arrayAt start: Int, end: Int) -> Range<
        Int
    >? {
        guard index >= 0 else { return nil }
        var position = skipWhitespace(bytes, from: start + 1, to: end)
        guard position < end, bytes[position] != UInt8(ascii: "]") else { return nil }
        var current = 0
        while position < end {
            guard let valueEnd = skipValid(bytes, at: position, end: end) else { return nil }
            if current == index { return position..<valueEnd }
            current += 1
            position = skipWhitespace(bytes, from: valueEnd, to: end)
            guard position < end, bytes[position] == UInt8(ascii: ",") else { return nil }
            position = skipWhitespace(bytes, from: position + 1, to: end)
        }
        return nil
    }

    /// The range of the first element of the array whose `[` is at `start` that is an object
    /// whose `id` member is `id`.
    private static func element(
        withID id: StatePath.ItemID, in bytes: ByteView, arrayAt start: Int, end: Int
    ) -> Range<Int>? {
        var position = skipWhitespace(bytes, from: start + 1, to: end)
        guard position < end, bytes[position] != UInt8(ascii: "]") else { return nil }
        while position < end {
            guard let valueEnd = skipValid(bytes, at: position, end: end) else { return nil }
            if bytes[position] == UInt8(ascii: "{"),
                let member = member(named: "id", in: bytes, objectAt: position, end: valueEnd),
                matches(id, bytes, member)
            {
                return position..<valueEnd
            }
            position = skipWhitespace(bytes, from: valueEnd, to: end)
            guard position < end, bytes[position] == UInt8(ascii: ",") else { return nil }
            position = skipWhitespace(bytes, from: position + 1, to: end)
        }
        return nil
    }

    /// Whether the value at `range` of `bytes` is `id`, as `StatePath.ItemID.init(_:)` reads it.
    private static func matches(_ id: StatePath.ItemID, _ bytes: ByteView, _ range: Range<Int>) -> Bool {
        switch id {
        case .string(let text):
            guard bytes[range.lowerBound] == UInt8(ascii: "\"") else { return false }
            return ByteView.withBytes(of: text) { keyMatches(bytes, quoted: range, wanted: $0) }
        case .integer(let integer):
            return Int(bytes[range].string) == integer
        }
    }

    /// Whether the JSON string at `quoted` (with its quotes) is `wanted`: compared as bytes when
    /// it has no escape, decoded otherwise.
    private static func keyMatches(_ bytes: ByteView, quoted: Range<Int>, wanted: ByteView)
        -> Bool
    {
        let body = (quoted.lowerBound + 1)..<(quoted.upperBound - 1)
        var hasEscape = false
        for offset in body where bytes[offset] == UInt8(ascii: "\\") {
            hasEscape = true
            break
        }
        if !hasEscape {
            return bytes[body].elementsEqual(wanted)
        }
        guard case .string(let key)? = try? JSONParser.parse(bytes[quoted]) else {
            return false
        }
        return ByteView.withBytes(of: key) { $0.elementsEqual(wanted) }
    }

    /// The end of the value that starts at `start` (not whitespace) in the valid JSON `bytes`,
    /// found from its quotes and brackets alone (the value was checked when it was scanned:
    /// checking it again cost most of the time of finding a value in a state); nil when it
    /// does not end before `end`, which valid JSON does not do.
    static func skipValid(_ bytes: ByteView, at start: Int, end: Int) -> Int? {
        var position = start
        var depth = 0
        while position < end {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                position += 1
                while position < end {
                    position = firstQuoteOrBackslash(bytes, from: position, end: end)
                    guard position < end else { break }
                    if bytes[position] == UInt8(ascii: "\"") { break }
                    position += 2  // past a backslash and the byte it escapes
                }
                guard position < end else { return nil }
                position += 1
                if depth == 0 { return position }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                position += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                position += 1
                if depth == 0 { return position }
                if depth < 0 { return nil }
            default:
                position += 1
                // A number, `true`, `false` or `null` on its own ends at the first byte that
                // cannot be in it.
                if depth == 0 {
                    while position < end {
                        let byte = bytes[position]
                        guard byte != UInt8(ascii: ","), byte != UInt8(ascii: "}"), byte != UInt8(ascii: "]"),
                            !JSONWhitespace.contains(byte)
                        else { break }
                        position += 1
                    }
                    return position
                }
            }
        }
        return nil
    }

    /// The offset of the first `"` or `\\` at or after `start`, looked for eight bytes at a time
    /// (a string's body is most of the bytes skipped); `end` when there is none before it.
    private static func firstQuoteOrBackslash(_ bytes: ByteView, from start: Int, end: Int) -> Int {
        var position = start
        while position &+ 8 <= end {
            let word = UInt64(littleEndian: bytes.loadUnaligned(at: position, as: UInt64.self))
            // A byte of `word ^ pattern` is zero where `word` has the pattern's byte; the lowest
            // flagged byte is the first such (flags above a zero byte may be wrong, not below).
            let found = zeroBytes(word ^ 0x2222_2222_2222_2222) | zeroBytes(word ^ 0x5C5C_5C5C_5C5C_5C5C)
            if found != 0 { return position &+ found.trailingZeroBitCount >> 3 }
            position &+= 8
        }
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return position }
            position &+= 1
        }
        return end
    }

    /// The high bit of each byte of `word` set where that byte is zero (exact up to the first).
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    private static func skipWhitespace(_ bytes: ByteView, from start: Int, to end: Int) -> Int {
        JSONWhitespace.skip(bytes, from: start, to: end)
    }
}
