/// The sameness the diff uses, and a hash that agrees with it.
///
/// Like `JSONValue.isEquivalent(to:)`: object member order does not count (when a name appears
/// twice its last value counts), numbers are equal when their exact decimal values are
/// (`1` ≍ `1.0`, `0` ≍ `-0`, `1e400` ≍ `10e399`). Unlike it, strings and member names are
/// compared by their UTF-8 bytes, not by Swift's canonical equivalence: `"é"` written
/// precomposed and `"e\u{301}"` are different data to every other JSON tool, so a change from
/// one to the other is a change, and the patch that records it is exact.
enum Equivalence {
    /// Whether `left` and `right` are the same data.
    static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.null, .null):
            return true
        case (.bool(let left), .bool(let right)):
            return left == right
        case (.string(let left), .string(let right)):
            return ExactName.sameBytes(left, right)
        case (.number(let left), .number(let right)):
            return sameNumber(left, right)
        case (.array(let left), .array(let right)):
            guard left.count == right.count else { return false }
            for index in left.indices where !equal(left[index], right[index]) {
                return false
            }
            return true
        case (.object(let left), .object(let right)):
            return equalObjects(left, right)
        default:
            return false
        }
    }

    /// Whether two number texts denote the same exact value.
    static func sameNumber(_ left: String, _ right: String) -> Bool {
        if left == right { return true }
        guard let leftValue = JSONNumberText.decimal(left), let rightValue = JSONNumberText.decimal(right) else {
            return false
        }
        return leftValue == rightValue
    }

    private static func equalObjects(_ left: JSONObject, _ right: JSONObject) -> Bool {
        // Fast path: the same names in the same order, compared position by position.
        if left.count == right.count && zip(left.keys, right.keys).allSatisfy({ ExactName.sameBytes($0.0, $0.1) }) {
            var members: ObjectMembers? = nil
            for position in left.indices where !equal(left[position].value, right[position].value) {
                // A member hidden by a later one of the same name does not count.
                if members == nil { members = ObjectMembers(left) }
                if members?.isVisible(position) ?? true { return false }
            }
            return true
        }
        let leftMembers = ObjectMembers(left)
        let rightMembers = ObjectMembers(right)
        let leftPositions = leftMembers.visiblePositions
        guard leftPositions.count == rightMembers.visiblePositions.count else { return false }
        for position in leftPositions {
            let (key, value) = left[position]
            guard let other = rightMembers[key], equal(value, other) else { return false }
        }
        return true
    }

    /// A hash for which `equal(a, b)` implies `hash(a) == hash(b)`.
    static func hash(_ value: JSONValue) -> Int {
        var hasher = Hasher()
        combine(value, into: &hasher)
        return hasher.finalize()
    }

    private static func combine(_ value: JSONValue, into hasher: inout Hasher) {
        switch value {
        case .null:
            hasher.combine(0 as UInt8)
        case .bool(let bool):
            hasher.combine(1 as UInt8)
            hasher.combine(bool)
        case .number(let text):
            // Equal values must hash alike however they are written: whole numbers as their
            // integer value (`1`, `1.0`, `1e0`, `-0`), others as their exact decimal.
            switch JSONNumberText.integer(text) {
            case .integer(let integer):
                hasher.combine(2 as UInt8)
                hasher.combine(integer)
            default:
                hasher.combine(6 as UInt8)
                if let decimal = JSONNumberText.decimal(text) {
                    hasher.combine(decimal.isNegative)
                    hasher.combine(decimal.digits)
                    hasher.combine(decimal.exponent)
                } else {
                    ExactName.combineBytes(text, into: &hasher)
                }
            }
        case .string(let string):
            hasher.combine(3 as UInt8)
            ExactName.combineBytes(string, into: &hasher)
        case .array(let elements):
            hasher.combine(4 as UInt8)
            hasher.combine(elements.count)
            for element in elements {
                combine(element, into: &hasher)
            }
        case .object(let object):
            // Member order must not matter: hash each visible member on its own and add the
            // results, which commutes.
            hasher.combine(5 as UInt8)
            var sum = 0
            var count = 0
            let members = ObjectMembers(object)
            for position in object.indices where members.isVisible(position) {
                count += 1
                var memberHasher = Hasher()
                ExactName.combineBytes(object.keys[position], into: &memberHasher)
                combine(object[position].value, into: &memberHasher)
                sum &+= memberHasher.finalize()
            }
            hasher.combine(count)
            hasher.combine(sum)
        }
    }
}
