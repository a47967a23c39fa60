extension JSONValue {
    /// Whether two values mean the same data, even when written differently.
    ///
    /// The rules:
    /// - numbers are equivalent when they denote the same exact decimal value, whatever their
    ///   spelling and whatever the range of `Double`: `1` ≍ `1.0` ≍ `10e-1` ≍ `1E0`,
    ///   `0` ≍ `-0` ≍ `0e5`, `1e400` ≍ `10E399`, and `12345678901234567890` ≭
    ///   `12345678901234567891` (no rounding through `Double`). A number text that cannot be read
    ///   as a decimal (only possible when built by hand) is equivalent only to the same text;
    /// - objects are equivalent when they have the same member names, in any order, and the
    ///   values are equivalent name by name; when a name appears twice, its last value counts
    ///   (as for `subscript(key:)`);
    /// - arrays are equivalent element by element, in order;
    /// - strings, booleans and null compare exactly (no Unicode normalization).
    ///
    /// A number is never equivalent to a string, even `1` and `"1"`.
    public func isEquivalent(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null):
            return true
        case (.bool(let left), .bool(let right)):
            return left == right
        case (.string(let left), .string(let right)):
            return left == right
        case (.number(let left), .number(let right)):
            if left == right { return true }
            guard let leftValue = JSONNumberText.decimal(left), let rightValue = JSONNumberText.decimal(right) else {
                return false
            }
            return leftValue == rightValue
        case (.array(let left), .array(let right)):
            guard left.count == right.count else { return false }
            for index in left.indices where !left[index].isEquivalent(to: right[index]) {
                return false
            }
            return true
        case (.object(let left), .object(let right)):
            for (key, _) in right where left[key] == nil {
                return false
            }
            for (key, _) in left {
                guard let leftValue = left[key], let rightValue = right[key], leftValue.isEquivalent(to: rightValue)
                else {
                    return false
                }
            }
            return true
        default:
            return false
        }
    }
}
