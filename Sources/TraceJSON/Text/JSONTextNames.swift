/// The visible members of one object of a `JSONText`, found by name: by their names' hashes,
/// each candidate checked by its text (names are the same when their WTF-8 bytes are).
///
/// A few members are searched in a row; more go through a dictionary from hash to position,
/// so an object of a million members is a million lookups, not a trillion comparisons.
struct JSONTextNames {
    /// The members, in order.
    let members: [JSONTextReader.Member]
    private let hashes: [UInt64]
    /// Hash → positions, for objects of more than `directLimit` members.
    private let table: [UInt64: [Int]]

    private static let directLimit = 12

    /// The visible members of `object` in `reader`.
    init(_ object: JSONTextReader.Value, in reader: JSONTextReader, _ scratch: inout JSONTextReader.Scratch) {
        let members = reader.visibleMembers(of: object, &scratch)
        var hashes: [UInt64] = []
        hashes.reserveCapacity(members.count)
        for member in members { hashes.append(reader.nameHash(at: member.name, &scratch)) }
        var table: [UInt64: [Int]] = [:]
        if members.count > JSONTextNames.directLimit {
            table.reserveCapacity(members.count)
            for (position, hash) in hashes.enumerated() { table[hash, default: []].append(position) }
        }
        self.members = members
        self.hashes = hashes
        self.table = table
    }

    /// The position among `members` (read in `own`) of the member named as the name at
    /// `name` of `other`, whose hash is `hash`; nil when there is none.
    func position(
        of name: Int, hash: UInt64, in other: JSONTextReader, own: JSONTextReader,
        _ scratch: inout JSONTextReader.Scratch
    ) -> Int? {
        if members.count > JSONTextNames.directLimit {
            for position in table[hash] ?? []
            where JSONTextReader.sameText(own, members[position].name, other, name, &scratch) {
                return position
            }
            return nil
        }
        for position in hashes.indices
        where hashes[position] == hash && JSONTextReader.sameText(own, members[position].name, other, name, &scratch) {
            return position
        }
        return nil
    }
}
