/// Which bytes of a value of a type hold its data, as 64-bit words with those bits set: what the
/// patch writer compares to tell an array element unchanged without encoding it (`ArrayElements`).
///
/// A value's memory also holds padding (the seven bytes after a `Bool` that an `Int` follows),
/// which a copy does not write: the copy-on-write copy of an array leaves there whatever its new
/// buffer held before, so two elements that are the same value rarely have the same bytes.
///
/// The stored members of structs and tuples are found with `Mirror`, from one element of the
/// array, down to members that are not structs or tuples, whose every byte counts (an enum's
/// payload and tag, a reference, a number, a string). Their offsets follow from Swift's layout
/// of a struct (each member in order, at the next multiple of its alignment), and are trusted
/// only when they prove right for that element: the members end at the type's size, its
/// alignment is theirs, and each member's bytes are where they were placed. Anything else (a
/// custom mirror, a member declared as an existential, whose value has another type, more
/// than 16 levels) counts the type whole. So the mask never hides a difference: it leaves out only
/// bytes that no member occupies, and at worst an unchanged element costs an encoding, not a
/// wrong patch. (This replaced the standard library's field walk behind its reflection SPI,
/// which apps may not use; CI's style stage fails if that SPI comes back into Sources.)
enum ElementMask {
    /// The masks of the types met so far, made once per type. Used under the recorder's lock.
    final class Cache {
        private var masks: [ObjectIdentifier: [UInt64]] = [:]

        /// The mask of `type`, whose stride is `stride`, read from `example`, a value of it:
        /// every byte counts when there is none (then there are no elements to compare).
        func words(of type: Any.Type, stride: Int, example: Any?) -> [UInt64] {
            if let mask = masks[ObjectIdentifier(type)] { return mask }
            guard let example else { return ElementMask.whole(stride: stride) }
            let mask = ElementMask.words(of: example, type: type, stride: stride)
            masks[ObjectIdentifier(type)] = mask
            return mask
        }
    }

    /// The mask of `type`, whose stride is `stride`, from `example`, a value of that type: one
    /// word per eight bytes, rounded up.
    static func words(of example: Any, type: Any.Type, stride: Int) -> [UInt64] {
        var members: [(offset: Int, value: Any)] = []
        guard collect(example, type: type, at: 0, depth: 0, into: &members) else { return whole(stride: stride) }
        let exampleBytes = bytes(of: example)
        var marked = [UInt8](repeating: 0, count: (stride + 7) / 8 * 8)
        for member in members {
            let memberBytes = bytes(of: member.value)
            guard member.offset + memberBytes.count <= exampleBytes.count,
                exampleBytes[member.offset..<(member.offset + memberBytes.count)].elementsEqual(memberBytes)
            else { return whole(stride: stride) }
            for index in member.offset..<(member.offset + memberBytes.count) { marked[index] = 0xFF }
        }
        var words = [UInt64](repeating: 0, count: marked.count / 8)
        for index in marked.indices where marked[index] != 0 {
            words[index / 8] |= 0xFF << UInt64(8 * (index % 8))
        }
        return words
    }

    /// The mask in which every byte counts.
    static func whole(stride: Int) -> [UInt64] {
        var words = [UInt64](repeating: ~0, count: (stride + 7) / 8)
        if stride % 8 != 0 { words[words.count - 1] = (1 << UInt64(8 * (stride % 8))) - 1 }
        return words
    }

    /// Adds the members of `value` (of `type`, at `offset` in the element) that count whole;
    /// false when the layout it finds does not add up to `type`'s.
    private static func collect(
        _ value: Any, type: Any.Type, at offset: Int, depth: Int, into members: inout [(offset: Int, value: Any)]
    ) -> Bool {
        let mirror = Mirror(reflecting: value)
        guard depth < 16, !(value is CustomReflectable),
            mirror.displayStyle == .struct || mirror.displayStyle == .tuple,
            !mirror.children.isEmpty
        else {
            members.append((offset, value))
            return true
        }
        var end = 0
        var alignment = 1
        for child in mirror.children {
            let memberType = Swift.type(of: child.value)
            let (memberSize, memberAlignment) = layout(of: memberType)
            let memberOffset = (end + memberAlignment - 1) / memberAlignment * memberAlignment
            guard collect(child.value, type: memberType, at: offset + memberOffset, depth: depth + 1, into: &members)
            else { return false }
            end = memberOffset + memberSize
            alignment = max(alignment, memberAlignment)
        }
        let (size, typeAlignment) = layout(of: type)
        return end == size && alignment == typeAlignment
    }

    private static func layout(of type: Any.Type) -> (size: Int, alignment: Int) {
        func layout<T>(_: T.Type) -> (Int, Int) { (MemoryLayout<T>.size, MemoryLayout<T>.alignment) }
        return layout(type)
    }

    /// The bytes of a copy of `value`, as its own type lays them out.
    private static func bytes(of value: Any) -> [UInt8] {
        func bytes<T>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }
        return bytes(value)
    }
}
