import TraceJSON
import TraceReader

/// Whether two scalar values are different data, decided without the diff's machinery when
/// their spelling settles it, as `JSONTextReader.equal` would: values of different kinds
/// (string, number, `true`, `false`, `null`, object, array) differ; two strings without an
/// escape differ when their bytes do; two numbers written canonically (no exponent, no `-0`,
/// no fraction ending in `0`) differ when their bytes do. Anything else (escapes, other number
/// spellings, objects and arrays of one kind) is nil: ask the diff.
enum ScalarDifference {
    /// Whether the JSON values written `old` and `new` (each one valid value, no surrounding
    /// whitespace) are different data; nil when it takes the diff to tell.
    static func differ(_ old: [UInt8], _ new: [UInt8]) -> Bool? {
        guard let first = old.first, let other = new.first else { return nil }
        if old == new { return false }
        let kind = Kind(first)
        guard kind == Kind(other) else { return true }
        switch kind {
        case .literal: return true  // `true`, `false` and `null` have one spelling each
        case .string: return old.contains(UInt8(ascii: "\\")) || new.contains(UInt8(ascii: "\\")) ? nil : true
        case .number: return isCanonical(old) && isCanonical(new) ? true : nil
        case .container: return nil
        }
    }

    /// Whether the scalar values `old` and `new` are different data; nil when either is an
    /// object or array, a string holding a lone surrogate, or a number not written canonically.
    static func differ(_ old: JSONValue, _ new: JSONValue) -> Bool? {
        switch (old, new) {
        case (.array, _), (.object, _), (_, .array), (_, .object):
            return nil
        case (.null, .null):
            return false
        case (.bool(let left), .bool(let right)):
            return left != right
        case (.string(let left), .string(let right)):
            // Compared as bytes (no Unicode normalization), as the diff compares strings.
            if LoneSurrogates.isNotUnicode(left) || LoneSurrogates.isNotUnicode(right) { return nil }
            return !left.utf8.elementsEqual(right.utf8)
        case (.number(let left), .number(let right)):
            if left == right { return false }
            return isCanonical(Array(left.utf8)) && isCanonical(Array(right.utf8)) ? true : nil
        default:
            return true  // different kinds
        }
    }

    private enum Kind {
        case literal, string, number, container
        init(_ byte: UInt8) {
            switch byte {
            case UInt8(ascii: "\""): self = .string
            case UInt8(ascii: "{"), UInt8(ascii: "["): self = .container
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): self = .literal
            default: self = .number
            }
        }
    }

    /// Whether a valid JSON number is written the one way its decimal value is: no exponent,
    /// no `-0` (nor `-0.5`, kept simple), no fraction ending in `0`. Two such numbers are equal
    /// exactly when their bytes are (JSON allows no leading zeros).
    private static func isCanonical(_ number: [UInt8]) -> Bool {
        guard let last = number.last else { return false }
        if number.count >= 2 && number[0] == UInt8(ascii: "-") && number[1] == UInt8(ascii: "0") { return false }
        var hasFraction = false
        for byte in number {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return false }
            if byte == UInt8(ascii: ".") { hasFraction = true }
        }
        return !(hasFraction && last == UInt8(ascii: "0"))
    }
}
