/// A JSON value (RFC 8259), as written.
///
/// Numbers keep their exact text (`"1e400"`, `"0.10"`, `"12345678901234567890"`), so nothing is
/// rounded or lost; objects keep their members in the order written, duplicates included.
///
/// `==` and `hash(into:)` are structural and exact: number texts are compared as text (`1.0` ≠
/// `1`) and the order of object members matters. For a comparison that ignores member order and
/// how a number is written, use `isEquivalent(to:)`.
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its text exactly as written, such as `"-0"`, `"0.1"` or `"1E+400"`.
    /// The text must follow the JSON number grammar; the parser guarantees it, and
    /// `JSONPrinter` writes it as is.
    case number(String)
    /// A string. One that is not Unicode text (a lone surrogate escape, `"\ud800"`) holds a
    /// stand-in for the surrogate: see `JSONParser`.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in order.
    case object(JSONObject)

    /// The value of the last member named `key` when this is an object; nil otherwise.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index` when this is an array and `index` is in range; nil otherwise.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        guard case .string(let string) = self else { return nil }
        return string
    }

    /// The integer, when this is a number written as an integer (no fraction, no exponent)
    /// that fits in `Int`: `"42"` and `"-0"` give a value, `"1.0"`, `"1e2"` and
    /// `"99999999999999999999"` give nil.
    public var intValue: Int? {
        guard case .number(let text) = self else { return nil }
        return JSONNumberText.plainInteger(text)
    }

    /// The number as the nearest `Double`, when this is a number. Beyond the range of `Double`
    /// this is ±infinity (`"1e400"`), below it ±0.
    public var doubleValue: Double? {
        guard case .number(let text) = self else { return nil }
        return Double(text)
    }

    /// The boolean, when this is `true` or `false`.
    public var boolValue: Bool? {
        guard case .bool(let bool) = self else { return nil }
        return bool
    }

    /// The object, when this is an object.
    public var objectValue: JSONObject? {
        guard case .object(let object) = self else { return nil }
        return object
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// The JSON name of this value's type: "null", "boolean", "number", "string", "array"
    /// or "object", for messages such as "expected an object, found array".
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
