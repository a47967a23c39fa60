@_spi(RewindInternals) internal import RewindSupport

/// The sameness the diff uses, over two texts: whether two values are the same data.
///
/// Objects are the same when they have the same visible members (the last of several with one
/// name), by name, in any order, with the same values; arrays when their elements are, in
/// order; numbers when their exact decimal values are (`1` ≍ `1.0` ≍ `1e0`, `0` ≍ `-0`, with no
/// rounding through `Double`); strings when their text is, byte for byte as WTF-8 (no Unicode
/// normalization; a lone surrogate is itself). Two values written with the same bytes are the
/// same at once; values whose hashes differ are not.
extension JSONTextReader {
    /// Whether `left` in `first` and `right` in `second` are the same data.
    static func equal(
        _ first: JSONTextReader, _ left: Value, _ second: JSONTextReader, _ right: Value, _ scratch: inout Scratch
    )
        -> Bool
    {
        let leftBytes = first.raw(left)
        let rightBytes = second.raw(right)
        if leftBytes.count == rightBytes.count,
            let leftBase = leftBytes.baseAddress, let rightBase = rightBytes.baseAddress,
            ShortBytes.equal(leftBase, rightBase, count: leftBytes.count)
        {
            return true
        }
        let kind = first.kind(left)
        guard kind == second.kind(right) else { return false }
        switch kind {
        case .null, .true, .false:
            return true
        case .string:
            return sameText(first, left.start, second, right.start, &scratch)
        case .number:
            guard let leftSign = JSONNumberText.canonical(UnsafeRawBufferPointer(leftBytes), digits: &scratch.digits)
            else { return false }
            var rightDigits: [UInt8] = []
            let rightSign = JSONNumberText.canonical(UnsafeRawBufferPointer(rightBytes), digits: &rightDigits)
            return rightSign.map { $0 == leftSign } ?? false && rightDigits == scratch.digits
        case .array:
            guard first.containers[left.container].hash == second.containers[right.container].hash else {
                return false
            }
            var others = second.elementSequence(of: right)
            for element in first.elementSequence(of: left) {
                guard let other = others.next(), equal(first, element, second, other, &scratch) else { return false }
            }
            return others.next() == nil
        case .object:
            guard first.containers[left.container].hash == second.containers[right.container].hash else { return false }
            let leftMembers = first.visibleMembers(of: left, &scratch)
            let rightNames = JSONTextNames(right, in: second, &scratch)
            guard leftMembers.count == rightNames.members.count else { return false }
            for member in leftMembers {
                let hash = first.nameHash(at: member.name, &scratch)
                guard let position = rightNames.position(of: member.name, hash: hash, in: first, own: second, &scratch),
                    equal(first, member.value, second, rightNames.members[position].value, &scratch)
                else { return false }
            }
            return true
        }
    }
}

extension JSONText {
    /// Whether this text's value and `other`'s are the same data (see `JSONTextReader.equal`).
    package func isSameData(as other: JSONText) -> Bool {
        withReader { reader, root in
            other.withReader { otherReader, otherRoot in
                var scratch = JSONTextReader.Scratch()
                return JSONTextReader.equal(reader, root, otherReader, otherRoot, &scratch)
            }
        }
    }
}
