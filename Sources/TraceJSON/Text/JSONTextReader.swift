/// A view of a `JSONText`'s bytes and index, valid inside `JSONText.withReader`: the walks the
/// diff, the printer and paths make over a text, finding members, elements, their ends and
/// their hashes with no tree built.
///
/// The text was checked when it was made, so a walk reads it without checking again: leaves are
/// skipped by their first byte (a string to its closing quote, a number to its last digit), and
/// containers by their index entry.
package struct JSONTextReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let containers: UnsafeBufferPointer<JSONTextContainer>

    /// Working memory for reading strings with escapes and numbers, reused from one to the next.
    package struct Scratch {
        var text: [UInt8] = []
        var digits: [UInt8] = []

        package init() {}
    }

    /// A value in the text: the offset of its first byte, and its container's index in the
    /// index (-1 for a string, number, boolean or null).
    package struct Value: Equatable, Sendable {
        /// (32 bits each: 8 bytes per value where the diff keeps lists of elements.)
        private var start32: UInt32
        private var container32: Int32

        init(start: Int, container: Int) {
            start32 = UInt32(truncatingIfNeeded: start)
            container32 = Int32(truncatingIfNeeded: container)
        }

        var start: Int { Int(start32) }

        var container: Int {
            get { Int(container32) }
            set { container32 = Int32(truncatingIfNeeded: newValue) }
        }

        var isContainer: Bool { container32 >= 0 }
    }

    /// An object's member: the offset of its name's opening quote, and its value.
    package struct Member {
        package var name: Int
        package var value: Value
    }

    package enum Kind {
        case null, `false`, `true`, number, string, array, object
    }

    // MARK: Values

    package func kind(_ value: Value) -> Kind {
        switch bytes[value.start] {
        case UInt8(ascii: "{"): .object
        case UInt8(ascii: "["): .array
        case UInt8(ascii: "\""): .string
        case UInt8(ascii: "t"): .true
        case UInt8(ascii: "f"): .false
        case UInt8(ascii: "n"): .null
        default: .number
        }
    }

    /// The offset just past the value.
    func end(_ value: Value) -> Int {
        if value.isContainer { return Int(containers[value.container].end) }
        switch bytes[value.start] {
        case UInt8(ascii: "\""): return stringEnd(at: value.start).end
        case UInt8(ascii: "t"), UInt8(ascii: "n"): return value.start &+ 4
        case UInt8(ascii: "f"): return value.start &+ 5
        default:
            var offset = value.start &+ 1
            while offset < bytes.count, Self.isNumberByte(bytes[offset]) { offset &+= 1 }
            return offset
        }
    }

    /// The bytes of the value, as written.
    package func raw(_ value: Value) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[value.start..<end(value)])
    }

    /// Whether the value is an empty array or object (`[]`, `{}`).
    package func isEmptyContainer(_ value: Value) -> Bool {
        guard value.isContainer else { return false }
        let byte = bytes[skipWhitespace(from: value.start &+ 1)]
        return byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
    }

    @inline(__always)
    private static func isNumberByte(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
    }

    @inline(__always)
    func skipWhitespace(from offset: Int) -> Int {
        JSONWhitespace.skip(bytes, from: offset)
    }

    // MARK: Strings

    /// The offset just past the string (or name) whose opening quote is at `start`, and
    /// whether its body holds an escape.
    func stringEnd(at start: Int) -> (end: Int, hasEscapes: Bool) {
        guard let base = bytes.baseAddress else { return (start, false) }
        var offset = start &+ 1
        var hasEscapes = false
        while offset < bytes.count {
            offset = JSONScanner.skipPlainASCII(base, from: offset, count: bytes.count)
            guard offset < bytes.count else { break }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") { return (offset &+ 1, hasEscapes) }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                offset &+= 2
            } else {
                offset &+= 1
            }
        }
        return (bytes.count, hasEscapes)
    }

    /// Calls `body` with the WTF-8 text (see `LoneSurrogates`) of the string or name whose
    /// opening quote is at `start`: its bytes as written when it has no escape.
    func withText<Result>(
        ofStringAt start: Int, _ scratch: inout [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        let (end, hasEscapes) = stringEnd(at: start)
        let text = UnsafeBufferPointer(rebasing: bytes[(start &+ 1)..<(end &- 1)])
        guard hasEscapes, let base = bytes.baseAddress else { return body(text) }
        scratch.removeAll(keepingCapacity: true)
        JSONStringDecoding.appendWTF8(base, from: start &+ 1, to: end &- 1, to: &scratch)
        return scratch.withUnsafeBufferPointer(body)
    }

    /// The string or name whose opening quote is at `start`, as `JSONValue` holds it.
    package func string(at start: Int, _ scratch: inout Scratch) -> String {
        withText(ofStringAt: start, &scratch.text) { LoneSurrogates.string(wtf8: $0) }
    }

    // MARK: Members and elements

    /// The walk through a container's members or elements: where the next one starts, and the
    /// index of the next container among them (containers are indexed in document order).
    private struct Children {
        let reader: JSONTextReader
        /// The offset of the next member or element; `bytes.count` once past the last.
        var offset: Int
        private var child: Int

        init(_ reader: JSONTextReader, _ container: Value) {
            self.reader = reader
            offset = container.isContainer ? reader.skipWhitespace(from: container.start &+ 1) : reader.bytes.count
            child = container.container &+ 1
        }

        /// The byte at `offset`, or 0 past the end.
        var byte: UInt8 { offset < reader.bytes.count ? reader.bytes[offset] : 0 }

        /// The value at `offset`, and moves past it and the comma after it.
        mutating func takeValue() -> Value {
            let bytes = reader.bytes
            var value = Value(start: offset, container: -1)
            if bytes[offset] == UInt8(ascii: "[") || bytes[offset] == UInt8(ascii: "{") {
                value.container = child
                child = reader.containers[child].next
            }
            offset = reader.skipWhitespace(from: reader.end(value))
            offset =
                offset < bytes.count && bytes[offset] == UInt8(ascii: ",")
                ? reader.skipWhitespace(from: offset &+ 1) : bytes.count
            return value
        }

        /// Moves past the name whose opening quote is at `offset` and the colon after it.
        mutating func skipName() {
            offset = reader.skipWhitespace(from: reader.stringEnd(at: offset).end)  // at the ':'
            offset = reader.skipWhitespace(from: offset &+ 1)
        }
    }

    /// The elements of an array, in order.
    package struct Elements: Sequence, IteratorProtocol {
        private var children: Children

        init(_ reader: JSONTextReader, _ array: Value) {
            children = Children(reader, array)
        }

        package mutating func next() -> Value? {
            let byte = children.byte
            guard byte != 0 && byte != UInt8(ascii: "]") else { return nil }
            return children.takeValue()
        }
    }

    /// The members of an object in order, hidden ones included.
    struct Members: Sequence, IteratorProtocol {
        private var children: Children

        init(_ reader: JSONTextReader, _ object: Value) {
            children = Children(reader, object)
        }

        mutating func next() -> Member? {
            guard children.byte == UInt8(ascii: "\"") else { return nil }
            let name = children.offset
            children.skipName()
            return Member(name: name, value: children.takeValue())
        }
    }

    /// The elements of the array `array`, in order, one at a time.
    package func elementSequence(of array: Value) -> Elements { Elements(self, array) }

    /// The members of the object `object`, in order, hidden ones included, one at a time.
    func memberSequence(of object: Value) -> Members { Members(self, object) }

    /// The elements of the array `array`, in order.
    func elements(of array: Value) -> [Value] {
        var elements: [Value] = []
        for element in Elements(self, array) { elements.append(element) }
        return elements
    }

    /// The members of the object `object` that count, in order: of several with one name (the
    /// same bytes), only the last, where it stands (the last member wins).
    package func visibleMembers(of object: Value, _ scratch: inout Scratch) -> [Member] {
        var members: [Member] = []
        for member in Members(self, object) { members.append(member) }
        guard object.isContainer, containers[object.container].repeatsNames else { return members }
        // Names by hash, last first: a name already seen (same text) hides this member.
        var seen: [UInt64: [Int]] = [:]
        var hidden = [Bool](repeating: false, count: members.count)
        for position in members.indices.reversed() {
            let hash = nameHash(at: members[position].name, &scratch)
            let earlier = seen[hash, default: []]
            if earlier.contains(where: {
                Self.sameText(self, members[$0].name, self, members[position].name, &scratch)
            }) {
                hidden[position] = true
            } else {
                seen[hash, default: []].append(position)
            }
        }
        return members.indices.filter { !hidden[$0] }.map { members[$0] }
    }

    /// The hash of the text of the string or name whose opening quote is at `start`.
    func nameHash(at start: Int, _ scratch: inout Scratch) -> UInt64 {
        withText(ofStringAt: start, &scratch.text) { JSONTextHashing.string(wtf8: UnsafeRawBufferPointer($0)) }
    }

    /// Whether the string or name at `left` of `first` and the one at `right` of `second` have
    /// the same text (the same WTF-8 bytes).
    static func sameText(
        _ first: JSONTextReader, _ left: Int, _ second: JSONTextReader, _ right: Int, _ scratch: inout Scratch
    ) -> Bool {
        first.withText(ofStringAt: left, &scratch.text) { leftText in
            var other: [UInt8] = []
            return second.withText(ofStringAt: right, &other) { rightText in
                leftText.count == rightText.count && leftText.elementsEqual(rightText)
            }
        }
    }

    // MARK: Hashes

    /// The hash of the value (see `JSONTextHashing`).
    func hash(_ value: Value, _ scratch: inout Scratch) -> UInt64 {
        if value.isContainer { return containers[value.container].hash }
        switch kind(value) {
        case .null: return JSONTextHashing.null
        case .false: return JSONTextHashing.false
        case .true: return JSONTextHashing.true
        case .string: return nameHash(at: value.start, &scratch)
        default:
            let text = UnsafeRawBufferPointer(raw(value))
            let sign = JSONNumberText.canonical(text, digits: &scratch.digits) ?? (false, 0)
            return scratch.digits.withUnsafeBytes {
                JSONTextHashing.number(digits: $0, isNegative: sign.isNegative, exponent: sign.exponent)
            }
        }
    }

    // MARK: Materializing

    /// The value as a `JSONValue` (parsed from its bytes: it costs a tree).
    func jsonValue(_ value: Value) -> JSONValue {
        (try? JSONParser.parse(UnsafeRawBufferPointer(raw(value)))) ?? .null
    }
}

/// A value of a text that `JSONTextReader` reads: one of the two texts a diff compares, or the
/// text a value is printed from (`JSONFormatter`).
package typealias TextValue = JSONTextReader.Value
