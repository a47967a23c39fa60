/// The ids of the elements of two arrays a diff compares, when every element of both is an
/// object with an id (`StatePath.ItemID`) and no two elements of one array share an id: then a
/// diff that names items by id (`StateDiff.changes(namingItemsByID:)`) names each removed, added
/// or changed element `[id: …]` instead of by its position.
///
/// Read from the arrays' texts: each element's members are walked to its `id` (the last member
/// of that name, as everywhere), nothing else is read, and no `String` is made but for the ids
/// the diff names. An array whose first element has no id is given up at once.
package struct ElementIDs {
    /// The ids of the old array's elements that the entries name, by index.
    private let old: [Int: StatePath.ItemID]
    /// The ids of the new array's elements that the entries name, by index.
    private let new: [Int: StatePath.ItemID]

    /// The ids of `before` (in `oldReader`'s text) and `after` (in `newReader`'s) that `entries`
    /// name, or nil when either array has an element without an id or two elements with one id.
    /// String ids are told apart by their hashes (two that share one count as the same: the
    /// array is then named by position); only the ids of elements that `entries` name are kept.
    package init?(
        _ entries: [ArrayEntry], _ before: TextValue, in oldReader: JSONTextReader, _ after: TextValue,
        in newReader: JSONTextReader, _ scratch: inout JSONTextReader.Scratch
    ) {
        var oldWanted = Set<Int>()
        var newWanted = Set<Int>()
        for entry in entries {
            switch entry {
            case .unchanged(_, let new, _, _): newWanted.insert(new)
            case .removed(let old, _): oldWanted.insert(old)
            case .added(let new, _): newWanted.insert(new)
            case .changed(let old, let new, _):
                oldWanted.insert(old)
                newWanted.insert(new)
            }
        }
        guard let old = Self.ids(of: before, in: oldReader, keeping: oldWanted, &scratch),
            let new = Self.ids(of: after, in: newReader, keeping: newWanted, &scratch)
        else { return nil }
        self.old = old
        self.new = new
    }

    /// How the removed element at `index` of the old array is named.
    package func removed(_ index: Int) -> StatePath.Component {
        old[index].map { .id($0) } ?? .index(index)
    }

    /// How the added (or unchanged) element at `index` of the new array is named.
    package func added(_ index: Int) -> StatePath.Component {
        new[index].map { .id($0) } ?? .index(index)
    }

    /// How the element at `oldIndex` that became the one at `newIndex` is named: by its id when
    /// it kept it, by its new position when its id changed (no id names it on both sides).
    package func changed(old oldIndex: Int, new newIndex: Int) -> StatePath.Component {
        guard let id = new[newIndex], old[oldIndex] == id else { return .index(newIndex) }
        return .id(id)
    }

    /// The ids of the elements of `array` at the indices `wanted`, when every element has an id
    /// and no two are the same (no two strings hash alike).
    private static func ids(
        of array: TextValue, in reader: JSONTextReader, keeping wanted: Set<Int>,
        _ scratch: inout JSONTextReader.Scratch
    ) -> [Int: StatePath.ItemID]? {
        var kept: [Int: StatePath.ItemID] = [:]
        var seenIntegers = Set<Int>()
        var seenStrings = Set<UInt64>()
        for (index, element) in reader.elementSequence(of: array).enumerated() {
            guard reader.kind(element) == .object, let value = idValue(of: element, in: reader, &scratch) else {
                return nil
            }
            let integer: Int?
            switch reader.kind(value) {
            case .string: integer = nil
            case .number:
                guard let number = Self.integer(reader.raw(value)) else { return nil }
                integer = number
            default: return nil
            }
            // Strings and integers apart: the string "1" is not the id 1.
            if let integer {
                guard seenIntegers.insert(integer).inserted else { return nil }
            } else {
                guard seenStrings.insert(reader.nameHash(at: value.start, &scratch)).inserted else { return nil }
            }
            if wanted.contains(index) {
                kept[index] = integer.map { .integer($0) } ?? .string(reader.string(at: value.start, &scratch))
            }
        }
        return kept
    }

    /// The value of the last member named `id` of the object `object`.
    private static func idValue(
        of object: TextValue, in reader: JSONTextReader, _ scratch: inout JSONTextReader.Scratch
    )
        -> TextValue?
    {
        var found: TextValue?
        for member in reader.memberSequence(of: object) where isIDName(at: member.name, in: reader, &scratch) {
            found = member.value
        }
        return found
    }

    /// The integer a JSON number's text is, when it is written without a fraction or an exponent
    /// and fits in an `Int` (as `Int(text)` reads it), without making a `String`.
    static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        var position = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { position = 1 }
        guard position < text.count else { return nil }
        var value = 0
        while position < text.count {
            let byte = text[position]
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let digit = Int(byte - UInt8(ascii: "0"))
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = next
            position += 1
        }
        return value
    }

    /// Whether the name whose opening quote is at `start` is `id` (written plainly or escaped).
    private static func isIDName(at start: Int, in reader: JSONTextReader, _ scratch: inout JSONTextReader.Scratch)
        -> Bool
    {
        let bytes = reader.bytes
        guard start + 3 < bytes.count else { return false }
        if bytes[start + 1] == UInt8(ascii: "i"), bytes[start + 2] == UInt8(ascii: "d"),
            bytes[start + 3] == UInt8(ascii: "\"")
        {
            return true
        }
        guard reader.stringEnd(at: start).hasEscapes else { return false }
        return reader.string(at: start, &scratch) == "id"
    }
}
