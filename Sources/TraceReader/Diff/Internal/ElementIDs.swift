/// The ids of the elements of two arrays a diff compares, when every element of both is an
/// object with an id (`StatePath.ItemID`) and no two elements of one array share an id: then a
/// diff that names items by id (`StateDiff.changes(namingItemsByID:)`) names each removed, added
/// or changed element `[id: …]` instead of by its position.
///
/// Read from the arrays' texts: each element's members are walked to its `id` (the last member
/// of that name, as everywhere), nothing else is read. An array whose first element has no id
/// is given up at once.
struct ElementIDs {
    /// The ids of the old array's elements, in order.
    let old: [StatePath.ItemID]
    /// The ids of the new array's elements, in order.
    let new: [StatePath.ItemID]

    /// The ids of `before` (in `oldReader`'s text) and `after` (in `newReader`'s), or nil when
    /// either array has an element without an id or two elements with one id.
    init?(
        _ before: TextValue, in oldReader: JSONTextReader, _ after: TextValue, in newReader: JSONTextReader,
        _ scratch: inout JSONTextReader.Scratch
    ) {
        guard let old = Self.ids(of: before, in: oldReader, &scratch),
            let new = Self.ids(of: after, in: newReader, &scratch)
        else { return nil }
        self.old = old
        self.new = new
    }

    /// How the removed element at `index` of the old array is named.
    func removed(_ index: Int) -> StatePath.Component {
        .id(old[index])
    }

    /// How the added element at `index` of the new array is named.
    func added(_ index: Int) -> StatePath.Component {
        .id(new[index])
    }

    /// How the element at `oldIndex` that became the one at `newIndex` is named: by its id when
    /// it kept it, by its new position when its id changed (no id names it on both sides).
    func changed(old oldIndex: Int, new newIndex: Int) -> StatePath.Component {
        old[oldIndex] == new[newIndex] ? .id(new[newIndex]) : .index(newIndex)
    }

    private static func ids(of array: TextValue, in reader: JSONTextReader, _ scratch: inout JSONTextReader.Scratch)
        -> [StatePath.ItemID]?
    {
        var ids: [StatePath.ItemID] = []
        var seen = Set<StatePath.ItemID>()
        for element in reader.elementSequence(of: array) {
            guard reader.kind(element) == .object, let id = id(of: element, in: reader, &scratch),
                seen.insert(id).inserted
            else { return nil }
            ids.append(id)
        }
        return ids
    }

    /// The id of the object `object`: its last member named `id`, when that is an id.
    private static func id(of object: TextValue, in reader: JSONTextReader, _ scratch: inout JSONTextReader.Scratch)
        -> StatePath.ItemID?
    {
        var found: TextValue?
        for member in reader.memberSequence(of: object) where isIDName(at: member.name, in: reader, &scratch) {
            found = member.value
        }
        guard let found else { return nil }
        switch reader.kind(found) {
        case .string: return .string(reader.string(at: found.start, &scratch))
        case .number: return Int(String(decoding: reader.raw(found), as: UTF8.self)).map { .integer($0) }
        default: return nil
        }
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
