/// Builds the `ValueDiff` of two JSON values.
///
/// Objects are compared member by member by name; arrays are aligned: the common prefix and
/// suffix are trimmed (the usual case of a few changes costs one pass), and what is left in
/// the middle is aligned by `ArrayAlignment`. Within a stretch where elements were removed and
/// inserted together, `HunkPairing` decides which removed element became which inserted one,
/// and each pair is diffed in depth: an element whose one field changed shows as that field's
/// change, not as a removal and an insertion.
///
/// Recursion follows the nesting of the values, which `JSONParser` bounds at 1024 levels.
enum Differ {
    /// How `old` became `new`, or nil when they are the same data.
    static func diff(_ old: JSONValue, _ new: JSONValue) -> ValueDiff? {
        switch (old, new) {
        case (.object(let old), .object(let new)):
            return diffObjects(old, new)
        case (.array(let old), .array(let new)):
            return diffArrays(old, new)
        default:
            return Equivalence.equal(old, new) ? nil : .replaced(old, new)
        }
    }

    static func diffObjects(_ old: JSONObject, _ new: JSONObject) -> ValueDiff? {
        let oldMembers = ObjectMembers(old)
        let newMembers = ObjectMembers(new)
        // A removed member is shown after the member that preceded it in the old object (the
        // nearest one still present, by its position in the new object), or first when none did.
        var removedFirst: [ObjectEntry] = []
        var removedAfter: [Int: [ObjectEntry]] = [:]
        var anchor: Int? = nil
        for position in old.indices where oldMembers.isVisible(position) {
            let (key, value) = old[position]
            if let newPosition = newMembers.position(of: key) {
                anchor = newPosition
            } else if let anchor {
                removedAfter[anchor, default: []].append(.removed(key: key, value: value))
            } else {
                removedFirst.append(.removed(key: key, value: value))
            }
        }
        var hasChanges = !removedFirst.isEmpty || !removedAfter.isEmpty
        var entries = removedFirst
        entries.reserveCapacity(new.count + removedAfter.count)
        for position in new.indices where newMembers.isVisible(position) {
            let (key, value) = new[position]
            if let oldValue = oldMembers[key] {
                if let change = diff(oldValue, value) {
                    entries.append(.changed(key: key, change))
                    hasChanges = true
                } else {
                    entries.append(.unchanged(key: key, value: value))
                }
            } else {
                entries.append(.added(key: key, value: value))
                hasChanges = true
            }
            if !removedAfter.isEmpty, let removed = removedAfter[position] {
                entries.append(contentsOf: removed)
            }
        }
        return hasChanges ? .object(entries) : nil
    }

    static func diffArrays(_ old: [JSONValue], _ new: [JSONValue]) -> ValueDiff? {
        let oldCount = old.count
        let newCount = new.count
        let shorter = min(oldCount, newCount)
        var prefix = 0
        while prefix < shorter && Equivalence.equal(old[prefix], new[prefix]) {
            prefix += 1
        }
        if prefix == oldCount && prefix == newCount { return nil }
        var suffix = 0
        while suffix < shorter - prefix && Equivalence.equal(old[oldCount - 1 - suffix], new[newCount - 1 - suffix]) {
            suffix += 1
        }
        var entries: [ArrayEntry] = []
        if prefix > 0 {
            entries.append(.unchanged(old: 0, new: 0, count: prefix))
        }
        let oldMiddle = old[prefix..<(oldCount - suffix)]
        let newMiddle = new[prefix..<(newCount - suffix)]
        let steps = alignment(oldMiddle, newMiddle)
        var oldPosition = prefix
        var newPosition = prefix
        var removedCount = 0
        var insertedCount = 0
        func flushStretch() {
            let pairing = HunkPairing.pair(
                old[oldPosition..<(oldPosition + removedCount)], new[newPosition..<(newPosition + insertedCount)])
            for step in pairing {
                switch step {
                case .pair(let oldOffset, let newOffset):
                    let oldIndex = oldPosition + oldOffset
                    let newIndex = newPosition + newOffset
                    if let change = diff(old[oldIndex], new[newIndex]) {
                        entries.append(.changed(old: oldIndex, new: newIndex, change))
                    } else {
                        entries.append(.unchanged(old: oldIndex, new: newIndex, count: 1))
                    }
                case .remove(let oldOffset):
                    entries.append(.removed(old: oldPosition + oldOffset))
                case .insert(let newOffset):
                    entries.append(.added(new: newPosition + newOffset))
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
                entries.append(.unchanged(old: oldPosition, new: newPosition, count: count))
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
            entries.append(.unchanged(old: oldCount - suffix, new: newCount - suffix, count: suffix))
        }
        return .array(ArrayDiff(old: old, new: new, entries: entries))
    }

    /// The alignment of the middle parts, falling back to pairing elements by position when
    /// the shortest alignment is out of budget (a list shuffled or rebuilt from scratch).
    private static func alignment(_ old: ArraySlice<JSONValue>, _ new: ArraySlice<JSONValue>) -> [ArrayAlignment.Step] {
        let byPosition: [ArrayAlignment.Step] = [.remove(old.count), .insert(new.count)]
        if old.isEmpty || new.isEmpty || (old.count == 1 && new.count == 1) { return byPosition }
        let (oldIdentities, newIdentities) = ArrayAlignment.identities(old, new)
        let budget = ArrayAlignment.editBudget(oldCount: old.count, newCount: new.count)
        guard let steps = ArrayAlignment.align(oldIdentities, newIdentities, maximumEdits: budget) else {
            return byPosition
        }
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
        return oldTotal == old.count && newTotal == new.count ? steps : byPosition
    }
}
