/// Looks through a value for a class instance at any depth, with `Mirror`: what the memo asks,
/// once per collection type, about a value whose `encode(to:)` may read an instance's contents
/// without encoding the instance itself (a computed member), which the encoder cannot see.
///
/// It looks at a few children per level and a few levels down: enough for the shape of an
/// element type (its stored members, the cases it is in, the elements of a nested collection),
/// since every value of one type has the same stored members.
enum ReferenceScan {
    /// Whether `value` holds a class instance within `depth` levels. `sawChildren` is set when
    /// the value had anything to look at (an empty collection tells nothing about its elements).
    static func holdsReference(_ value: Any, depth: Int = 6, sawChildren: inout Bool) -> Bool {
        let valueType = type(of: value)
        if valueType is AnyObject.Type { return true }
        // Foundation's value types keep their contents in private class instances that they
        // copy before any change, as an array does: values, whatever their insides.
        if FoundationValueEncoding.writing(of: valueType) != .plain { return false }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .class { return true }
        guard depth > 0 else { return false }
        var looked = 0
        for child in mirror.children {
            sawChildren = true
            var ignored = false
            if holdsReference(child.value, depth: depth - 1, sawChildren: &ignored) { return true }
            looked += 1
            if looked == 8 { break }
        }
        return false
    }
}
