@_spi(RewindInternals) internal import RewindSupport

/// The `JSONEventSink` that indexes a `JSONText` while the scanner checks it: one entry per
/// array or object (`JSONTextContainer`), with its end and its hash, computed bottom up in the
/// same pass (see `JSONTextHashing`). Leaves get no entry.
///
/// Its working memory is as deep as the document (the open containers) and as wide as the
/// widest open object (its members' hashes, for the sum and for repeated names).
struct JSONTextIndexer: JSONEventSink {
    /// The text being indexed.
    private let text: UnsafeBufferPointer<UInt8>
    private(set) var containers: [JSONTextContainer] = []
    /// The open containers, innermost last: their index, whether each is an object, their
    /// running hash (of arrays), their count of values so far, and where their members start
    /// (of objects) on `members`.
    private var open: [(index: Int, isObject: Bool, hash: UInt64, count: Int, members: Int)] = []
    /// The members of the open objects so far: their name's hash and offset, and their share of
    /// the hash (0 until the value is done).
    private var members: [(name: UInt64, nameStart: Int, share: UInt64)] = []
    private var scratch: [UInt8] = []
    private var digits: [UInt8] = []
    private var sortedNames: [UInt64] = []

    init(_ text: UnsafeBufferPointer<UInt8>) {
        self.text = text
    }

    // MARK: Containers

    mutating func beginArray(at offset: Int) {
        begin(at: offset, isObject: false)
    }

    mutating func beginObject(at offset: Int) {
        begin(at: offset, isObject: true)
    }

    private mutating func begin(at offset: Int, isObject: Bool) {
        open.append((containers.count, isObject, JSONTextHashing.arraySeed, 0, members.count))
        containers.append(JSONTextContainer())
    }

    mutating func endArray(at offset: Int) {
        let (index, _, running, count, _) = open.removeLast()
        containers[index].hash = JSONTextHashing.array(running, count: count)
        close(index, at: offset)
    }

    mutating func endObject(at offset: Int) {
        let (index, _, _, _, first) = open.removeLast()
        let count = members.count &- first
        var sum: UInt64 = 0
        var visible = count
        if count > 1, let repeated = repeatedNames(from: first) {
            // Rare: a member that a later member with the same name hides does not count.
            var kept: [UInt64: [Int]] = [:]
            for position in stride(from: members.count &- 1, through: first, by: -1)
            where repeated.contains(members[position].name) {
                let hash = members[position].name
                if kept[hash, default: []].contains(where: {
                    sameName(members[$0].nameStart, members[position].nameStart)
                }) {
                    containers[index].repeatsNames = true
                    visible &-= 1
                    members[position].share = 0
                } else {
                    kept[hash, default: []].append(position)
                }
            }
        }
        for position in first..<members.count { sum &+= members[position].share }
        members.removeSubrange(first...)
        containers[index].hash = JSONTextHashing.object(sum: sum, count: visible)
        close(index, at: offset)
    }

    /// The name hashes that two or more members from `first` on share, or nil when there are
    /// none (almost always).
    private mutating func repeatedNames(from first: Int) -> Set<UInt64>? {
        sortedNames.removeAll(keepingCapacity: true)
        for position in first..<members.count { sortedNames.append(members[position].name) }
        sortedNames.sort()
        var repeated: Set<UInt64>? = nil
        for position in sortedNames.indices.dropFirst() where sortedNames[position] == sortedNames[position &- 1] {
            repeated = repeated ?? []
            repeated?.insert(sortedNames[position])
        }
        return repeated
    }

    /// Whether the names whose opening quotes are at `left` and `right` have the same text.
    private func sameName(_ left: Int, _ right: Int) -> Bool {
        let reader = JSONTextReader(bytes: text, containers: UnsafeBufferPointer(start: nil, count: 0))
        var scratch = JSONTextReader.Scratch()
        return JSONTextReader.sameText(reader, left, reader, right, &scratch)
    }

    private mutating func close(_ index: Int, at offset: Int) {
        containers[index].end = UInt32(truncatingIfNeeded: offset &+ 1)
        containers[index].next = containers.count
        finished(containers[index].hash)
    }

    /// A value is done: it is one more element or member of the open container, if any.
    @inline(__always)
    private mutating func finished(_ hash: UInt64) {
        guard let top = open.indices.last else { return }
        open[top].count &+= 1
        if open[top].isObject {
            let last = members.count &- 1
            members[last].share = JSONTextHashing.member(name: members[last].name, value: hash)
        } else {
            open[top].hash = JSONTextHashing.array(open[top].hash, then: hash)
        }
    }

    // MARK: Leaves

    mutating func key(_ bytes: ByteView, from start: Int, to end: Int, hasEscapes: Bool) {
        members.append((stringHash(bytes, from: start, to: end, hasEscapes: hasEscapes), start &- 1, 0))
    }

    mutating func string(_ bytes: ByteView, from start: Int, to end: Int, hasEscapes: Bool) {
        finished(stringHash(bytes, from: start, to: end, hasEscapes: hasEscapes))
    }

    mutating func number(_ bytes: ByteView, from start: Int, to end: Int) {
        let sign = bytes[start..<end].withUnsafeBytes { JSONNumberText.canonical($0, digits: &digits) } ?? (false, 0)
        finished(
            digits.withUnsafeBytes {
                JSONTextHashing.number(digits: $0, isNegative: sign.isNegative, exponent: sign.exponent)
            })
    }

    mutating func literal(_ value: JSONValue, at offset: Int) {
        switch value {
        case .bool(true): finished(JSONTextHashing.true)
        case .bool(false): finished(JSONTextHashing.false)
        default: finished(JSONTextHashing.null)
        }
    }

    private mutating func stringHash(_ bytes: ByteView, from start: Int, to end: Int, hasEscapes: Bool) -> UInt64 {
        guard hasEscapes else {
            return bytes[start..<end].withUnsafeBytes { JSONTextHashing.string(wtf8: $0) }
        }
        scratch.removeAll(keepingCapacity: true)
        JSONStringDecoding.appendWTF8(bytes, from: start, to: end, to: &scratch)
        return scratch.withUnsafeBytes { JSONTextHashing.string(wtf8: $0) }
    }
}
