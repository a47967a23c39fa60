/// Builds the `ValueDiff` of two JSON texts, walking their bytes: no `JSONValue` is made.
///
/// Two values with the same bytes, or the same hash and the same data, are the same at once;
/// only what differs is walked into. Objects are compared member by member by name; arrays are
/// aligned: the common prefix and suffix are trimmed (the usual case of a few changes costs one
/// pass), and what is left in the middle is aligned by `ArrayAlignment`, elements compared by
/// their hashes (and by their bytes when the hashes are equal). Within a stretch where elements were removed and inserted together, `HunkPairing`
/// decides which removed element became which inserted one, and each pair is diffed in depth:
/// an element whose one field changed shows as that field's change, not as a removal and an
/// insertion.
///
/// Memory beyond the two texts: while an array is compared, 8 bytes per element for its
/// position and 8 for its hash (only for the middle part), and the Myers search's trace
/// (bounded by its edit budget); the positions and hashes of the members of the objects being
/// compared.
/// Recursion follows the nesting of the values, which the parser bounds at 1024 levels.
struct Differ {
    let old: JSONTextReader
    let new: JSONTextReader
    /// Working memory (the memberwise initializer's default).
    var scratch = JSONTextReader.Scratch()

    /// How `before` (in the old text) became `after` (in the new one), or nil when they are the
    /// same data.
    mutating func diff(_ before: TextValue, _ after: TextValue) -> ValueDiff? {
        switch (old.kind(before), new.kind(after)) {
        case (.object, .object):
            return equal(before, after) ? nil : diffObjects(before, after)
        case (.array, .array):
            return equal(before, after) ? nil : diffArrays(before, after)
        default:
            return equal(before, after) ? nil : .replaced(old: before, new: after)
        }
    }

    private mutating func equal(_ before: TextValue, _ after: TextValue) -> Bool {
        JSONTextReader.equal(old, before, new, after, &scratch)
    }

    // MARK: Objects

    private mutating func diffObjects(_ before: TextValue, _ after: TextValue) -> ValueDiff? {
        let oldNames = JSONTextNames(before, in: old, &scratch)
        let newNames = JSONTextNames(after, in: new, &scratch)
        // A removed member is shown after the member that preceded it in the old object (the
        // nearest one still present, by its position in the new object), or first when none did.
        var entries: [ObjectEntry] = []
        var removedAfter: [Int: [ObjectEntry]] = [:]
        var anchor: Int? = nil
        for member in oldNames.members {
            let hash = old.nameHash(at: member.name, &scratch)
            if let position = newNames.position(of: member.name, hash: hash, in: old, own: new, &scratch) {
                anchor = position
            } else if let anchor {
                removedAfter[anchor, default: []].append(.removed(name: member.name, value: member.value))
            } else {
                entries.append(.removed(name: member.name, value: member.value))
            }
        }
        var hasChanges = !entries.isEmpty || !removedAfter.isEmpty
        var unchanged: (name: Int, value: TextValue, count: Int)? = nil
        func flush() {
            if let run = unchanged { entries.append(.unchanged(name: run.name, value: run.value, count: run.count)) }
            unchanged = nil
        }
        for (position, member) in newNames.members.enumerated() {
            let hash = new.nameHash(at: member.name, &scratch)
            if let oldPosition = oldNames.position(of: member.name, hash: hash, in: new, own: old, &scratch) {
                if let change = diff(oldNames.members[oldPosition].value, member.value) {
                    flush()
                    entries.append(.changed(name: member.name, change))
                    hasChanges = true
                } else if unchanged != nil {
                    unchanged?.count += 1
                } else {
                    unchanged = (member.name, member.value, 1)
                }
            } else {
                flush()
                entries.append(.added(name: member.name, value: member.value))
                hasChanges = true
            }
            if !removedAfter.isEmpty, let removed = removedAfter[position] {
                flush()
                entries.append(contentsOf: removed)
            }
        }
        flush()
        return hasChanges ? .object(entries) : nil
    }

    // MARK: Arrays

    private mutating func diffArrays(_ before: TextValue, _ after: TextValue) -> ValueDiff? {
        let oldElements = old.elements(of: before)
        let newElements = new.elements(of: after)
        let oldCount = oldElements.count
        let newCount = newElements.count
        let shorter = min(oldCount, newCount)
        var prefix = 0
        while prefix < shorter && equal(oldElements[prefix], newElements[prefix]) {
            prefix += 1
        }
        if prefix == oldCount && prefix == newCount { return nil }
        var suffix = 0
        while suffix < shorter - prefix && equal(oldElements[oldCount - 1 - suffix], newElements[newCount - 1 - suffix])
        {
            suffix += 1
        }
        var entries: [ArrayEntry] = []
        if prefix > 0 {
            entries.append(.unchanged(old: 0, new: 0, count: prefix, first: newElements[0]))
        }
        let steps = alignment(oldElements[prefix..<(oldCount - suffix)], newElements[prefix..<(newCount - suffix)])
        var oldPosition = prefix
        var newPosition = prefix
        var removedCount = 0
        var insertedCount = 0
        func flushStretch() {
            let oldStretch = oldElements[oldPosition..<(oldPosition + removedCount)]
            let newStretch = newElements[newPosition..<(newPosition + insertedCount)]
            for step in pairing(oldStretch, newStretch) {
                switch step {
                case .pair(let oldOffset, let newOffset):
                    let oldIndex = oldPosition + oldOffset
                    let newIndex = newPosition + newOffset
                    if let change = diff(oldElements[oldIndex], newElements[newIndex]) {
                        entries.append(.changed(old: oldIndex, new: newIndex, change))
                    } else {
                        entries.append(.unchanged(old: oldIndex, new: newIndex, count: 1, first: newElements[newIndex]))
                    }
                case .remove(let oldOffset):
                    entries.append(.removed(old: oldPosition + oldOffset, value: oldElements[oldPosition + oldOffset]))
                case .insert(let newOffset):
                    entries.append(.added(new: newPosition + newOffset, value: newElements[newPosition + newOffset]))
                }
            }
            oldPosition += removedCount
            newPosition += insertedCount
            removedCount = 0
            insertedCount = 0
        }
        for step in steps {
            switch step {
            case .same(let count):
                flushStretch()
                entries.append(
                    .unchanged(old: oldPosition, new: newPosition, count: count, first: newElements[newPosition]))
                oldPosition += count
                newPosition += count
            case .remove(let count):
                removedCount += count
            case .insert(let count):
                insertedCount += count
            }
        }
        flushStretch()
        if suffix > 0 {
            entries.append(
                .unchanged(
                    old: oldCount - suffix, new: newCount - suffix, count: suffix, first: newElements[newCount - suffix]
                ))
        }
        return .array(entries, old: before, new: after)
    }

    /// The alignment of the middle parts, falling back to pairing elements by position when
    /// the shortest alignment is out of budget (a list shuffled or rebuilt from scratch).
    private mutating func alignment(_ before: ArraySlice<TextValue>, _ after: ArraySlice<TextValue>)
        -> [ArrayAlignment.Step]
    {
        let byPosition: [ArrayAlignment.Step] = [.remove(before.count), .insert(after.count)]
        if before.isEmpty || after.isEmpty || (before.count == 1 && after.count == 1) { return byPosition }
        let oldHashes = hashes(before, in: old)
        let newHashes = hashes(after, in: new)
        let budget = ArrayAlignment.editBudget(oldCount: before.count, newCount: after.count)
        let steps = ArrayAlignment.align(oldCount: before.count, newCount: after.count, maximumEdits: budget) {
            oldHashes[$0] == newHashes[$1] && equal(before[before.startIndex + $0], after[after.startIndex + $1])
        }
        guard let steps else { return byPosition }
        // Never index past either side, whatever the alignment says.
        var oldTotal = 0
        var newTotal = 0
        for step in steps {
            switch step {
            case .same(let count):
                oldTotal += count
                newTotal += count
            case .remove(let count):
                oldTotal += count
            case .insert(let count):
                newTotal += count
            }
        }
        return oldTotal == before.count && newTotal == after.count ? steps : byPosition
    }

    /// The hashes of `values` of `reader`'s text (containers' from the index).
    mutating func hashes(_ values: ArraySlice<TextValue>, in reader: JSONTextReader) -> [UInt64] {
        var hashes: [UInt64] = []
        hashes.reserveCapacity(values.count)
        for value in values { hashes.append(reader.hash(value, &scratch)) }
        return hashes
    }

    /// Which removed element became which inserted one in a stretch (see `HunkPairing`).
    private mutating func pairing(_ before: ArraySlice<TextValue>, _ after: ArraySlice<TextValue>)
        -> [HunkPairing.Step]
    {
        guard HunkPairing.comparesInDepth(before.count, after.count) else {
            return HunkPairing.byPosition(before.count, after.count)
        }
        var oldPrints: [HunkPairing.Fingerprint] = []
        for value in before { oldPrints.append(HunkPairing.Fingerprint(value, in: old, &scratch)) }
        var newPrints: [HunkPairing.Fingerprint] = []
        for value in after { newPrints.append(HunkPairing.Fingerprint(value, in: new, &scratch)) }
        return HunkPairing.pair(oldPrints, newPrints)
    }
}
